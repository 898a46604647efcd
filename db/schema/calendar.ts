import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { properties } from "./catalogue.ts";
import { guestRequests } from "./requests.ts";

/**
 * A PostgreSQL `daterange`, read and written as its canonical text `[YYYY-MM-DD,YYYY-MM-DD)`
 * (PostgreSQL normalises every date range to an inclusive start and an exclusive end).
 */
export const dateRange = customType<{ data: string; driverData: string }>({
  dataType: () => "daterange",
});

/**
 * Every claim on an estate's nights, one row each (decision 0015):
 * - `stay`: a confirmed property booking, or a general request assigned to the estate, while
 *   its status is Confirmed; written and removed in the transaction that changes the status;
 * - `block`: made by staff or the owner, of a kind, with a note only they see;
 * - `external`: a busy time read from one of the estate's imported calendar feeds.
 * The migration adds `EXCLUDE USING gist (property_id WITH =, nights WITH &&) WHERE (source <>
 * 'external')`: no two stays, and no stay and block, share a night on one estate, whoever
 * writes. Imported busy times are outside the constraint: one that overlaps a stay is kept and
 * shown to staff as a collision, never allowed to cancel the stay.
 */
export const calendarEntries = pgTable(
  "calendar_entries",
  {
    id: uuid("id").primaryKey(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    /** The nights [start, end): the check-out day is free for the next arrival. */
    nights: dateRange("nights").notNull(),
    source: text("source", { enum: ["stay", "block", "external"] }).notNull(),
    /** Blocks: owner_stay, maintenance, private_event or other. */
    kind: text("kind", { enum: ["owner_stay", "maintenance", "private_event", "other"] }),
    /** Blocks: seen by staff and the owner only. */
    note: text("note"),
    /** Stays: the confirmed request. */
    requestId: uuid("request_id").references(() => guestRequests.id, { onDelete: "cascade" }),
    /** External busy times: the feed and the event's UID (with its recurrence instance). */
    feedId: uuid("feed_id").references(() => calendarFeeds.id, { onDelete: "cascade" }),
    externalUid: text("external_uid"),
    summary: text("summary"),
    /** Blocks: "staff:<email>" or "owner:<email>". */
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Every claim by estate and nights, external ones included: the availability call, the
    // catalogue's date filter (an anti-join probing this index per estate) and the calendars.
    index("calendar_entries_property_nights_idx").using("gist", t.propertyId, t.nights),
    uniqueIndex("calendar_entries_request_idx").on(t.requestId),
    uniqueIndex("calendar_entries_feed_uid_idx").on(t.feedId, t.externalUid),
  ],
);

/** An event a feed's read left out: its UID, summary, line, reason code and English detail. */
export interface StoredSkippedEvent {
  uid: string | null;
  summary: string | null;
  line: number;
  reason: string;
  detail: string;
}

/**
 * External calendars (iCal feeds) an estate imports. Any instance may sync a feed; a lease
 * (`locked_until`) taken with SKIP LOCKED lets one at a time do it.
 */
export const calendarFeeds = pgTable(
  "calendar_feeds",
  {
    id: uuid("id").primaryKey(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    nextSyncAt: timestamp("next_sync_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
    lastError: text("last_error"),
    eventCount: integer("event_count").notNull().default(0),
    /** Whether the feed's timed (not all-day) events close nights; all-day ones always do. */
    timedEventsClose: boolean("timed_events_close").notNull().default(true),
    /** Whether the estate's export passes this feed's busy times on to the other sites. */
    passOn: boolean("pass_on").notNull().default(false),
    /** Nights from the last read's day on that the feed's busy times close. */
    nightsClosed: integer("nights_closed").notNull().default(0),
    /** Of those, the nights its timed events close. */
    timedNightsClosed: integer("timed_nights_closed").notNull().default(0),
    /** The events the last read left out (at most 20), as domain/calendar/ical-import.ts names them. */
    skippedEvents: jsonb("skipped_events").$type<StoredSkippedEvent[]>().notNull().default([]),
    /** How many events the last read left out. */
    skippedCount: integer("skipped_count").notNull().default(0),
  },
  (t) => [
    index("calendar_feeds_property_idx").on(t.propertyId),
    index("calendar_feeds_due_idx").on(t.nextSyncAt),
    uniqueIndex("calendar_feeds_property_url_idx").on(t.propertyId, t.url),
  ],
);

/**
 * Collisions between an imported busy time (a feed's event, by its UID) and a confirmed stay
 * that people have been told of: the sync mails staff and the owner and writes the row in one
 * transaction, and the key keeps later syncs from telling the same collision again. `cause`
 * says how it became known: `mailed` by a sync, or `confirmed` when staff confirmed the stay
 * knowingly over the busy time.
 */
export const calendarImportAlerts = pgTable(
  "calendar_import_alerts",
  {
    feedId: uuid("feed_id")
      .notNull()
      .references(() => calendarFeeds.id, { onDelete: "cascade" }),
    externalUid: text("external_uid").notNull(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => guestRequests.id, { onDelete: "cascade" }),
    cause: text("cause", { enum: ["mailed", "confirmed"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({
      name: "calendar_import_alerts_pk",
      columns: [t.feedId, t.externalUid, t.requestId],
    }),
    index("calendar_import_alerts_request_idx").on(t.requestId),
  ],
);

/**
 * The generation of each estate's export feed URL. The URL's secret is an HMAC of the estate
 * and its generation under an application secret, so nothing secret is stored; rotating raises
 * the generation and the old URL then answers 404.
 */
export const calendarExports = pgTable("calendar_exports", {
  propertyId: integer("property_id")
    .primaryKey()
    .references(() => properties.id, { onDelete: "cascade" }),
  generation: integer("generation").notNull().default(1),
  rotatedAt: timestamp("rotated_at", { withTimezone: true }).notNull().defaultNow(),
});
