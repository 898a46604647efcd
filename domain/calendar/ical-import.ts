import ical, { type CalendarResponse, type EventInstance, type VEvent } from "node-ical";
import {
  ICAL_ERROR_CODES,
  type IcalErrorCode,
  MAX_SKIPPED_LISTED,
  type SkippedEvent,
  type SkippedEventReason,
} from "./feed-errors.ts";
import { addDays, type Nights, nightsBetween } from "./nights.ts";

/**
 * Reads an external calendar (iCal, RFC 5545) into busy nights. Only VEVENTs count; cancelled
 * ones and those marked TRANSP:TRANSPARENT (free time) do not. An all-day event takes its
 * dates ([DTSTART, DTEND), as Airbnb and Booking.com write a stay); a timed event takes every
 * UTC date it touches. Recurring events are expanded within a bounded window (a month back to
 * two years ahead). The work a feed can cause is counted: every instance expanded counts
 * towards the feed's budget whether it holds time or not, a series that holds no time is not
 * expanded at all (only its moved instances are read), and the instances of one event and the
 * busy times of a feed are capped. A hostile feed ends in a clear error, never in a flood of
 * rows; ical-reader.ts runs this off the server's thread, under a time cap. One event that
 * cannot be read is left out and named; the others are read.
 */

export { ICAL_ERROR_CODES, type IcalErrorCode, MAX_SKIPPED_LISTED, type SkippedEvent };

export class IcalImportError extends Error {
  readonly code: IcalErrorCode;
  readonly detail: string;
  constructor(code: IcalErrorCode, detail: string) {
    super(`${code}: ${detail}`);
    this.name = "IcalImportError";
    this.code = code;
    this.detail = detail;
  }
}

/** One busy time: the nights it takes and a UID stable across reads of the feed. */
export interface BusyTime extends Nights {
  /** The event's UID; a recurring event's instance adds `#` and its recurrence date. */
  uid: string;
  /** A timed (not all-day) event's: it closes every UTC date it touches. */
  isTimed: boolean;
}

/** What reading a feed gave: its busy times, what it could not read, and the nights closed. */
export interface CalendarRead {
  busy: BusyTime[];
  /** At most MAX_SKIPPED_LISTED of the events left out, by line. */
  skipped: SkippedEvent[];
  /** Every event left out. */
  skippedCount: number;
  /** Distinct nights from today on (inside the window) the busy times close. */
  nightsClosed: number;
  /** Of those, the nights closed by timed events. */
  timedNightsClosed: number;
}

export interface ReadOptions {
  limits?: ImportLimits;
  /** Whether timed (not all-day) events close nights; all-day events always do. */
  timedEventsClose?: boolean;
  /**
   * Castellum's own host: an event whose UID ends with `@<host>` is one of the estate's own
   * entries (or one passed on) coming back through another site, and is not imported.
   */
  ownHost?: string;
}

/**
 * The property ical-export-feed.ts writes on every event it exports. An event that carries it
 * came from Castellum, whatever UID the other site gave it, and is never imported again: an
 * estate's own stays and blocks, and the busy times it passes on, cannot echo back in.
 */
export const ORIGIN_PROPERTY = "X-CASTELLUM-ORIGIN";

export interface ImportLimits {
  /** Busy times one feed may hold (after expansion). */
  maxEvents: number;
  /** Instances one recurring event may have inside the window. */
  maxInstancesPerEvent: number;
  /** Instances all the feed's recurring events may expand to, free ones included. */
  maxInstances: number;
  /** How long reading one feed may take (ical-reader.ts stops it after this). */
  maxReadMs: number;
  /** Months before today the window reaches back. */
  monthsBack: number;
  /** Months after today the window reaches ahead. */
  monthsAhead: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  maxEvents: 5000,
  maxInstancesPerEvent: 1000,
  maxInstances: 20_000,
  maxReadMs: 5000,
  monthsBack: 1,
  monthsAhead: 24,
};

/** The nights a feed is read for, [from, to), around `now`. */
export function importWindow(now: Date, limits: ImportLimits = DEFAULT_IMPORT_LIMITS): Nights {
  const shifted = (months: number) => {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    date.setUTCMonth(date.getUTCMonth() + months);
    return date.toISOString().slice(0, 10);
  };
  return { start: shifted(-limits.monthsBack), end: shifted(limits.monthsAhead) };
}

/**
 * A date-only value as node-ical gives it: midnight in the process's time zone (not UTC), so
 * its calendar date is read with local getters.
 */
function localDate(value: Date): string {
  const month = String(value.getMonth() + 1).padStart(2, "0");
  const day = String(value.getDate()).padStart(2, "0");
  return `${value.getFullYear()}-${month}-${day}`;
}

const utcDate = (value: Date) => value.toISOString().slice(0, 10);

const isDate = (value: unknown): value is Date =>
  value instanceof Date && !Number.isNaN(value.getTime());

/** The nights of one occurrence: all-day by its dates, timed by every UTC date it touches. */
function nightsOf(start: Date, end: Date | undefined, isFullDay: boolean): Nights {
  if (isFullDay) {
    const first = localDate(start);
    const last = isDate(end) ? localDate(end) : "";
    return { start: first, end: last > first ? last : addDays(first, 1) };
  }
  const first = utcDate(start);
  if (!isDate(end) || end.getTime() <= start.getTime())
    return { start: first, end: addDays(first, 1) };
  // An end at exactly midnight leaves that day free; any later time touches it.
  const endsAtMidnight = end.getTime() % 86_400_000 === 0;
  const last = endsAtMidnight ? utcDate(end) : addDays(utcDate(end), 1);
  return { start: first, end: last > first ? last : addDays(first, 1) };
}

const isFullDayEvent = (event: Omit<VEvent, "recurrences">) =>
  event.datetype === "date" ||
  (event.start as { dateOnly?: boolean } | undefined)?.dateOnly === true;

/** Whether an event (or one instance's own event) holds no time: cancelled or transparent. */
function isFree(event: Partial<VEvent>): boolean {
  const status = String(event.status ?? "").toUpperCase();
  const transparency = String(event.transparency ?? "").toUpperCase();
  return status === "CANCELLED" || transparency === "TRANSPARENT";
}

/** The text of a value that may carry parameters (`{ val, params }`). */
function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && "val" in value)
    return String((value as { val: unknown }).val);
  return "";
}

/** A recurrence date as a UID suffix: the date of an all-day one, else the UTC instant. */
function dateKey(when: Date, isFullDay: boolean): string {
  return isFullDay || (when as { dateOnly?: boolean }).dateOnly === true
    ? localDate(when)
    : when.toISOString();
}

/** The recurrence date of an instance: the one it replaces when it was moved (RECURRENCE-ID). */
function recurrenceKey(instance: EventInstance): string {
  const original = instance.isOverride ? instance.event.recurrenceid : undefined;
  return dateKey(isDate(original) ? original : instance.start, instance.isFullDay);
}

const VEVENT_BLOCK = /^BEGIN:VEVENT\r?\n[^]*?^END:VEVENT\r?$\n?/gim;
const FREE_LINE = /^(TRANSP(;[^:\r\n]*)?:TRANSPARENT|STATUS(;[^:\r\n]*)?:CANCELLED)\s*$/im;
const RECURRENCE_ID_LINE = /^RECURRENCE-ID[;:]/im;
const ORIGIN_LINE = new RegExp(`^${ORIGIN_PROPERTY}[;:]`, "im");
const UID_LINE = /^UID(?:;[^:\r\n]*)?:(.*?)\s*$/im;
const SUMMARY_LINE = /^SUMMARY(?:;[^:\r\n]*)?:(.*?)\s*$/im;

/** An event's text as the feed holds it, with what names it for staff. */
interface EventBlock {
  text: string;
  line: number;
  uid: string | null;
  summary: string | null;
}

/** A property's value on its first line, unescaped and shortened (for naming, not reading). */
function rawValue(block: string, pattern: RegExp): string | null {
  const value = pattern
    .exec(block)?.[1]
    ?.replace(/\\([,;\\nN])/g, (_, c: string) => (c === "n" || c === "N" ? " " : c));
  return value ? value.slice(0, 100) : null;
}

/**
 * The text's events, without those that hold no time (transparent or cancelled) and those that
 * came from Castellum: a free series then costs a scan of its lines, not the parser's work on
 * its rule. A moved instance (RECURRENCE-ID) stays even when free, as it may free a night of a
 * busy series; a busy one of a free series is then read as the lone instance it is.
 */
function scanEvents(
  text: string,
  ownHost: string | undefined,
): { rest: string; events: EventBlock[] } {
  const events: EventBlock[] = [];
  const ownUid = ownHost ? `@${ownHost.toLowerCase()}` : null;
  let line = 1;
  let counted = 0;
  const rest = text.replace(VEVENT_BLOCK, (block, offset: number) => {
    for (let at = counted; at < offset; at++) if (text.charCodeAt(at) === 10) line++;
    counted = offset;
    if (FREE_LINE.test(block) && !RECURRENCE_ID_LINE.test(block)) return "";
    if (ORIGIN_LINE.test(block)) return "";
    const uid = rawValue(block, UID_LINE);
    if (ownUid && uid?.toLowerCase().endsWith(ownUid)) return "";
    events.push({ text: block, line, uid, summary: rawValue(block, SUMMARY_LINE) });
    return "";
  });
  return { rest, events };
}

/** The calendar's text with these events in it (`rest` ends with END:VCALENDAR). */
function withEvents(rest: string, events: EventBlock[]): string {
  const at = rest.search(/END:VCALENDAR\s*$/i);
  return `${rest.slice(0, at)}${events.map((event) => event.text).join("")}${rest.slice(at)}`;
}

/**
 * Parses the calendar; when the parser refuses it, finds the events it refuses (each parsed
 * alone, which costs about one more parse of the text) and parses the text without them.
 */
function parseLeniently(
  rest: string,
  events: EventBlock[],
  skip: (event: EventBlock, reason: SkippedEventReason, detail: string) => void,
): CalendarResponse {
  try {
    return ical.sync.parseICS(withEvents(rest, events));
  } catch (whole) {
    const readable = events.filter((event) => {
      try {
        ical.sync.parseICS(`BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${event.text}END:VCALENDAR\r\n`);
        return true;
      } catch (error) {
        skip(event, "unreadable", (error as Error).message.slice(0, 200));
        return false;
      }
    });
    try {
      return ical.sync.parseICS(withEvents(rest, readable));
    } catch {
      // What fails is outside the events (or only with the calendar's other parts).
      throw new IcalImportError("malformed", (whole as Error).message.slice(0, 200));
    }
  }
}

/** Distinct nights of `times` inside [from, to). */
function distinctNights(times: Nights[], from: string, to: string): number {
  const sorted = times
    .map((time) => ({
      start: time.start > from ? time.start : from,
      end: time.end < to ? time.end : to,
    }))
    .filter((time) => time.start < time.end)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  let total = 0;
  let reached = from;
  for (const time of sorted) {
    const start = time.start > reached ? time.start : reached;
    if (time.end > start) {
      total += nightsBetween(start, time.end);
      reached = time.end;
    }
  }
  return total;
}

/**
 * Reads a calendar's text: its busy nights within the window around `now`, and the events it
 * could not read. An event without a readable start, or one the parser refuses, is left out and
 * listed (its UID, summary and line) while every other event is read: one broken event does not
 * leave the nights of the others open. Throws an `IcalImportError` for text that is not a
 * calendar, one the parser refuses outside its events, or more events (or instances of one)
 * than the limits allow: those describe the whole feed, not one event.
 */
export function readCalendar(text: string, now: Date, options: ReadOptions = {}): CalendarRead {
  const limits = options.limits ?? DEFAULT_IMPORT_LIMITS;
  const timedEventsClose = options.timedEventsClose ?? true;
  const trimmed = text.replace(/^\uFEFF/, "").trimStart();
  if (!/^BEGIN:VCALENDAR\r?\n/i.test(trimmed) || !/END:VCALENDAR\s*$/i.test(trimmed))
    throw new IcalImportError(
      "not_calendar",
      "the answer is not an iCalendar (BEGIN:VCALENDAR ... END:VCALENDAR)",
    );
  // Counted before parsing, so a feed of a million events is refused before any work on it.
  const declared = trimmed.match(/^BEGIN:VEVENT\s*$/gim)?.length ?? 0;
  if (declared > limits.maxEvents)
    throw new IcalImportError(
      "too_many_events",
      `${declared} events, more than ${limits.maxEvents}`,
    );

  const skipped: SkippedEvent[] = [];
  let skippedCount = 0;
  const skip = (event: EventBlock, reason: SkippedEventReason, detail: string) => {
    skippedCount++;
    if (skipped.length < MAX_SKIPPED_LISTED)
      skipped.push({ uid: event.uid, summary: event.summary, line: event.line, reason, detail });
  };
  const { rest, events } = scanEvents(trimmed, options.ownHost);
  const parsed = parseLeniently(rest, events, skip);
  const blockOf = new Map<string, EventBlock>();
  for (const event of events)
    if (event.uid && !blockOf.has(event.uid)) blockOf.set(event.uid, event);

  const window = importWindow(now, limits);
  const from = new Date(`${window.start}T00:00:00Z`);
  const to = new Date(`${window.end}T00:00:00Z`);
  const busy = new Map<string, BusyTime>();
  const keep = (uid: string, nights: Nights, isFullDay: boolean) => {
    if (!isFullDay && !timedEventsClose) return;
    if (nights.end <= window.start || nights.start >= window.end) return;
    busy.set(uid, { uid, ...nights, isTimed: !isFullDay });
    if (busy.size > limits.maxEvents)
      throw new IcalImportError("too_many_events", `more than ${limits.maxEvents} busy times`);
  };

  let expanded = 0;
  const count = (instances: number, uid: string) => {
    expanded += instances;
    if (expanded > limits.maxInstances)
      throw new IcalImportError(
        "too_many_events",
        `more than ${limits.maxInstances} recurring instances (at ${uid.slice(0, 100)})`,
      );
  };

  for (const [key, component] of Object.entries(parsed)) {
    if (!component || component.type !== "VEVENT") continue;
    const event = component as VEvent;
    const uid = textOf(event.uid) || `no-uid:${key}`;
    if (!isDate(event.start)) {
      const block = blockOf.get(textOf(event.uid)) ?? {
        text: "",
        line: 0,
        uid: textOf(event.uid) || null,
        summary: textOf(event.summary).slice(0, 100) || null,
      };
      skip(block, "no_start", "no readable DTSTART");
      continue;
    }
    const isFullDay = isFullDayEvent(event);
    if (!event.rrule) {
      if (isFree(event)) continue;
      // A lone instance of a series the feed does not hold (RECURRENCE-ID without its RRULE).
      const recurrence = isDate(event.recurrenceid)
        ? `#${dateKey(event.recurrenceid, isFullDay)}`
        : "";
      keep(`${uid}${recurrence}`, nightsOf(event.start, event.end, isFullDay), isFullDay);
      continue;
    }
    // A series that holds no time closes nothing: only its moved instances might.
    if (isFree(event)) {
      for (const moved of Object.values(event.recurrences ?? {})) {
        if (isFree(moved) || !isDate(moved.start)) continue;
        count(1, uid);
        const movedFullDay = isFullDayEvent(moved);
        const original = isDate(moved.recurrenceid) ? moved.recurrenceid : moved.start;
        keep(
          `${uid}#${dateKey(original, movedFullDay)}`,
          nightsOf(moved.start, isDate(moved.end) ? moved.end : undefined, movedFullDay),
          movedFullDay,
        );
      }
      continue;
    }
    let instances: EventInstance[];
    try {
      instances = ical.expandRecurringEvent(event, { from, to, expandOngoing: true });
    } catch (error) {
      throw new IcalImportError(
        "too_many_events",
        `the recurring event ${uid.slice(0, 100)} cannot be expanded: ${(error as Error).message.slice(0, 100)}`,
      );
    }
    if (instances.length > limits.maxInstancesPerEvent)
      throw new IcalImportError(
        "too_many_events",
        `the recurring event ${uid.slice(0, 100)} has more than ${limits.maxInstancesPerEvent} instances`,
      );
    // Every instance expanded counts, those left out as timed included: the work was done.
    count(instances.length, uid);
    for (const instance of instances) {
      // A moved or changed instance carries its own status; the series' applies otherwise.
      if (isFree(instance.isOverride ? instance.event : event)) continue;
      keep(
        `${uid}#${recurrenceKey(instance)}`,
        nightsOf(instance.start, instance.end, instance.isFullDay),
        instance.isFullDay,
      );
    }
  }
  const read = [...busy.values()].sort((a, b) =>
    a.start === b.start ? (a.uid < b.uid ? -1 : 1) : a.start < b.start ? -1 : 1,
  );
  const today = utcDate(now);
  return {
    busy: read,
    skipped: skipped.sort((a, b) => a.line - b.line),
    skippedCount,
    nightsClosed: distinctNights(read, today, window.end),
    timedNightsClosed: distinctNights(
      read.filter((time) => time.isTimed),
      today,
      window.end,
    ),
  };
}

/** The busy nights of a calendar's text (`readCalendar`'s busy times). */
export function readBusyTimes(
  text: string,
  now: Date,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
): Omit<BusyTime, "isTimed">[] {
  return readCalendar(text, now, { limits }).busy.map(({ uid, start, end }) => ({
    uid,
    start,
    end,
  }));
}
