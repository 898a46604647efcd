import { OUTBOUND_ERROR_CODES } from "../outbound/outbound-errors.ts";

/**
 * Why a feed's last sync failed, as stored in `calendar_feeds.last_error`: `<code>: <detail>`,
 * the code one of FEED_ERROR_CODES (which interfaces translate), the detail short English for
 * support. Browser-safe.
 */

/** Why a calendar's text could not be read (domain/calendar/ical-import.ts). */
export const ICAL_ERROR_CODES = ["not_calendar", "malformed", "too_many_events"] as const;
export type IcalErrorCode = (typeof ICAL_ERROR_CODES)[number];

export const FEED_ERROR_CODES = [...OUTBOUND_ERROR_CODES, ...ICAL_ERROR_CODES, "internal"] as const;
export type FeedErrorCode = (typeof FEED_ERROR_CODES)[number];

export interface FeedError {
  code: FeedErrorCode;
  detail: string;
}

/** Why one event of a feed was left out while the others were read. */
export const SKIPPED_EVENT_REASONS = ["no_start", "unreadable"] as const;
export type SkippedEventReason = (typeof SKIPPED_EVENT_REASONS)[number];

/** An event that could not be read, named as staff can find it in the other site. */
export interface SkippedEvent {
  uid: string | null;
  /** Its SUMMARY, shortened: the other site's own title. */
  summary: string | null;
  /** The line of its BEGIN:VEVENT in the feed's text (1-based). */
  line: number;
  reason: SkippedEventReason;
  /** Short English detail, for support. */
  detail: string;
}

/**
 * Skipped events listed at most: a feed of thousands of broken events is described by its
 * first ones and their count; the list is stored on the feed and shown as it is.
 */
export const MAX_SKIPPED_LISTED = 20;

/** The longest detail stored. */
const MAX_DETAIL = 300;

export function formatFeedError(error: FeedError): string {
  return `${error.code}: ${error.detail.slice(0, MAX_DETAIL)}`;
}

/** Reads a stored error; anything unreadable counts as `internal`. */
export function parseFeedError(text: string | null): FeedError | null {
  if (text === null) return null;
  const at = text.indexOf(": ");
  const code = at > 0 ? text.slice(0, at) : "";
  const known = (FEED_ERROR_CODES as readonly string[]).includes(code);
  return known
    ? { code: code as FeedErrorCode, detail: text.slice(at + 2) }
    : { code: "internal", detail: text.slice(0, MAX_DETAIL) };
}
