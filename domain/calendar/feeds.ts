import { randomUUID } from "node:crypto";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { calendarFeeds } from "#db/schema/index.ts";
import { notifyCatalogueChanged } from "../catalogue/catalogue-changes.ts";
import type { Deps } from "../deps.ts";
import { ValidationError } from "../errors.ts";
import {
  checkOutboundUrl,
  OutboundFetchError,
  type OutboundPolicy,
} from "../outbound/safe-fetch.ts";
import {
  type FeedError,
  parseFeedError,
  SKIPPED_EVENT_REASONS,
  type SkippedEvent,
} from "./feed-errors.ts";
import type { CalendarFeedSettings } from "./feed-settings.schema.ts";

/**
 * The external calendars (iCal feeds) an estate imports: staff and the owner add and remove
 * them; domain/calendar/feed-sync.ts reads them. An address is checked when it is added (an
 * http(s) address whose host resolves to public addresses only, unless private networks are
 * allowed), and again at every fetch.
 */

/** Feeds one estate may import. */
export const MAX_FEEDS_PER_ESTATE = 10;

/** A feed as staff and the owner see it. */
export interface CalendarFeedView {
  id: string;
  url: string;
  createdAt: Date;
  lastAttemptAt: Date | null;
  lastSuccessAt: Date | null;
  /** Why the last sync failed; null once one succeeds. */
  lastError: FeedError | null;
  /** Busy times read at the last success. */
  eventCount: number;
  nextSyncAt: Date;
  /** Whether its timed (not all-day) events close nights. */
  timedEventsClose: boolean;
  /** Whether the estate's export passes its busy times on. */
  passOn: boolean;
  /** Nights from the last success's day on that its busy times close. */
  nightsClosed: number;
  /** Of those, the nights its timed events close. */
  timedNightsClosed: number;
  /** Events the last success left out, at most MAX_SKIPPED_LISTED of them. */
  skippedEvents: SkippedEvent[];
  /** How many events the last success left out. */
  skippedCount: number;
}

const FEED_COLUMNS = {
  id: calendarFeeds.id,
  url: calendarFeeds.url,
  createdAt: calendarFeeds.createdAt,
  lastAttemptAt: calendarFeeds.lastAttemptAt,
  lastSuccessAt: calendarFeeds.lastSuccessAt,
  lastError: calendarFeeds.lastError,
  eventCount: calendarFeeds.eventCount,
  nextSyncAt: calendarFeeds.nextSyncAt,
  timedEventsClose: calendarFeeds.timedEventsClose,
  passOn: calendarFeeds.passOn,
  nightsClosed: calendarFeeds.nightsClosed,
  timedNightsClosed: calendarFeeds.timedNightsClosed,
  skippedEvents: calendarFeeds.skippedEvents,
  skippedCount: calendarFeeds.skippedCount,
};

type FeedRow = { [K in keyof typeof FEED_COLUMNS]: (typeof calendarFeeds.$inferSelect)[K] };

export function feedView(row: FeedRow): CalendarFeedView {
  return {
    ...row,
    lastError: parseFeedError(row.lastError),
    skippedEvents: row.skippedEvents.map((event) => ({
      ...event,
      reason: (SKIPPED_EVENT_REASONS as readonly string[]).includes(event.reason)
        ? (event.reason as SkippedEvent["reason"])
        : "unreadable",
    })),
  };
}

/** An estate's feeds, oldest first. */
export async function listCalendarFeeds(
  deps: Pick<Deps, "db">,
  propertyId: number,
): Promise<CalendarFeedView[]> {
  const rows = await deps.db
    .select(FEED_COLUMNS)
    .from(calendarFeeds)
    .where(eq(calendarFeeds.propertyId, propertyId))
    .orderBy(asc(calendarFeeds.createdAt), asc(calendarFeeds.id));
  return rows.map(feedView);
}

/** One feed of the estate, or null when the estate has no such feed (another's included). */
export async function getCalendarFeed(
  deps: Pick<Deps, "db">,
  input: { propertyId: number; feedId: string },
): Promise<CalendarFeedView | null> {
  const [row] = await deps.db
    .select(FEED_COLUMNS)
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.id, input.feedId), eq(calendarFeeds.propertyId, input.propertyId)));
  return row ? feedView(row) : null;
}

const URL_MESSAGES: Partial<Record<OutboundFetchError["code"], string>> = {
  blocked_address: "owner.calendarFeeds.errors.privateAddress",
  unresolvable: "owner.calendarFeeds.errors.unresolvable",
};

const refuseUrl = (message: string) => new ValidationError([{ path: "url", message }]);

/**
 * Adds a feed to the estate, due for its first sync at once. Refuses (a ValidationError on
 * `url`) an address that is not http(s), whose host does not resolve or resolves to a private
 * address (unless `outbound` allows them), one the estate already imports, or a feed past
 * MAX_FEEDS_PER_ESTATE. The address is stored as the URL parser writes it, so the same
 * address typed twice is one feed.
 */
export async function addCalendarFeed(
  deps: Pick<Deps, "db">,
  outbound: OutboundPolicy,
  input: { propertyId: number; url: string; createdBy: string; now: Date },
): Promise<CalendarFeedView> {
  let url: URL;
  try {
    url = await checkOutboundUrl(input.url.trim(), outbound);
  } catch (error) {
    if (!(error instanceof OutboundFetchError)) throw error;
    throw refuseUrl(URL_MESSAGES[error.code] ?? "owner.calendarFeeds.errors.urlInvalid");
  }
  const [held] = await deps.db
    .select({ count: count() })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.propertyId, input.propertyId));
  if ((held?.count ?? 0) >= MAX_FEEDS_PER_ESTATE)
    throw refuseUrl("owner.calendarFeeds.errors.tooMany");
  const [row] = await deps.db
    .insert(calendarFeeds)
    .values({
      id: randomUUID(),
      propertyId: input.propertyId,
      url: url.toString(),
      createdBy: input.createdBy,
      createdAt: input.now,
      nextSyncAt: input.now,
    })
    .onConflictDoNothing({ target: [calendarFeeds.propertyId, calendarFeeds.url] })
    .returning(FEED_COLUMNS);
  if (!row) throw refuseUrl("owner.calendarFeeds.errors.duplicate");
  return feedView(row);
}

/**
 * Removes a feed and, with it (the foreign key cascades), the busy times it brought, telling
 * the public caches. False when the estate has no such feed.
 */
export async function removeCalendarFeed(
  deps: Pick<Deps, "db">,
  input: { propertyId: number; feedId: string },
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const removed = await tx
      .delete(calendarFeeds)
      .where(
        and(eq(calendarFeeds.id, input.feedId), eq(calendarFeeds.propertyId, input.propertyId)),
      )
      .returning({ eventCount: calendarFeeds.eventCount });
    if (removed.length === 0) return false;
    await notifyCatalogueChanged({ db: tx }, { propertyIds: [input.propertyId] });
    return true;
  });
}

/**
 * Changes a feed's choices: whether its timed events close nights, whether the estate's export
 * passes its busy times on. A change of the first makes the feed due at once, since its busy
 * times were read under the other choice (the sync worker reads it within a minute); the
 * second applies to the next export read. Null when the estate has no such feed.
 */
export async function updateCalendarFeedSettings(
  deps: Pick<Deps, "db">,
  input: { propertyId: number; feedId: string; settings: CalendarFeedSettings; now: Date },
): Promise<CalendarFeedView | null> {
  const { timedEventsClose, passOn } = input.settings;
  const [row] = await deps.db
    .update(calendarFeeds)
    .set({
      ...(passOn === undefined ? {} : { passOn }),
      ...(timedEventsClose === undefined
        ? {}
        : {
            timedEventsClose,
            nextSyncAt: sql`case when ${calendarFeeds.timedEventsClose} = ${timedEventsClose}
              then ${calendarFeeds.nextSyncAt} else ${input.now.toISOString()}::timestamptz end`,
          }),
    })
    .where(and(eq(calendarFeeds.id, input.feedId), eq(calendarFeeds.propertyId, input.propertyId)))
    .returning(FEED_COLUMNS);
  return row ? feedView(row) : null;
}
