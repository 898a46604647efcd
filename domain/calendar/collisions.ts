import { and, eq, ne, or, sql } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { calendarEntries, calendarFeeds, guestRequests } from "#db/schema/index.ts";
import type { Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { describeCollision, describeImportedBusy } from "./collision-text.ts";
import type {
  CalendarCollision,
  CollidingEntry,
  ImportedBusy,
  ImportedBusyWarning,
} from "./calendar.schema.ts";
import { fromDateRange, type Nights, toDateRange } from "./nights.ts";

/** The constraint that keeps stays and blocks of one estate apart (migration 0008). */
export const NO_OVERLAP_CONSTRAINT = "calendar_entries_no_overlap";

/**
 * The stays and blocks of an estate that share a night with `nights`, earliest first: what a
 * new stay or block would collide with. Imported busy times are left out (they never refuse a
 * stay; the calendar shows them as collisions instead). This read is for the message; the
 * exclusion constraint is what refuses, so a write racing past this check still fails.
 */
export async function findCollisions(
  db: Database,
  propertyId: number,
  nights: Nights,
  options: { ignoreRequestId?: string } = {},
): Promise<CollidingEntry[]> {
  const rows = await db
    .select({
      source: calendarEntries.source,
      kind: calendarEntries.kind,
      nights: calendarEntries.nights,
      reference: guestRequests.reference,
    })
    .from(calendarEntries)
    .leftJoin(guestRequests, eq(guestRequests.id, calendarEntries.requestId))
    .where(
      and(
        eq(calendarEntries.propertyId, propertyId),
        ne(calendarEntries.source, "external"),
        sql`${calendarEntries.nights} && ${toDateRange(nights)}::daterange`,
        options.ignoreRequestId
          ? or(
              sql`${calendarEntries.requestId} is null`,
              ne(calendarEntries.requestId, options.ignoreRequestId),
            )
          : undefined,
      ),
    )
    .orderBy(sql`lower(${calendarEntries.nights})`);
  return rows.map((row) => ({
    source: row.source,
    reference: row.source === "stay" ? (row.reference ?? null) : null,
    kind: row.source === "block" ? (row.kind ?? "other") : null,
    ...fromDateRange(row.nights),
  }));
}

/**
 * A feed as people are told of it: its host. The whole address often carries the other site's
 * secret (`?s=…`), which has no place in a mail or a dialog.
 */
export function feedLabel(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/**
 * The busy times imported calendars hold on `nights` of the estate, earliest first: what
 * staff confirm over only knowingly (they never refuse a stay).
 */
export async function findImportedBusy(
  db: Database,
  propertyId: number,
  nights: Nights,
): Promise<(ImportedBusy & { externalUid: string })[]> {
  const rows = await db
    .select({
      feedId: calendarFeeds.id,
      url: calendarFeeds.url,
      externalUid: calendarEntries.externalUid,
      nights: calendarEntries.nights,
    })
    .from(calendarEntries)
    .innerJoin(calendarFeeds, eq(calendarFeeds.id, calendarEntries.feedId))
    .where(
      and(
        eq(calendarEntries.propertyId, propertyId),
        eq(calendarEntries.source, "external"),
        sql`${calendarEntries.nights} && ${toDateRange(nights)}::daterange`,
      ),
    )
    .orderBy(sql`lower(${calendarEntries.nights})`, calendarEntries.id);
  return rows.map((row) => ({
    feedId: row.feedId,
    feed: feedLabel(row.url),
    externalUid: row.externalUid ?? "",
    ...fromDateRange(row.nights),
  }));
}

/** The 409 answer: imported calendars hold some of the nights, in the caller's language. */
export function importedBusyAnswer(
  language: Language,
  busy: readonly ImportedBusy[],
): ImportedBusyWarning {
  const [first] = busy;
  if (!first) throw new Error("a warning names at least one busy time");
  const strip = ({ feedId, feed, start, end }: ImportedBusy): ImportedBusy => ({
    feedId,
    feed,
    start,
    end,
  });
  return {
    message: translate(language, "calendarCollision.importedMessage", {
      what: describeImportedBusy(
        (key, params) => translate(language, key, params),
        language,
        first,
      ),
      count: busy.length,
    }),
    code: "imported_busy",
    importedBusy: [strip(first), ...busy.slice(1).map(strip)],
  };
}

/** Whether a database error is the calendar's exclusion constraint refusing a write. */
export function isExclusionViolation(error: unknown): boolean {
  for (let cause: unknown = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if (typeof cause !== "object") return false;
    const { code, constraint } = cause as { code?: unknown; constraint?: unknown };
    if (code === "23P01" && (constraint === undefined || constraint === NO_OVERLAP_CONSTRAINT))
      return true;
  }
  return false;
}

/**
 * Whether a database error (or one it caused) is PostgreSQL ending a deadlock (40P01). Two
 * transactions inserting overlapping entries at the same moment may each find the other's
 * uncommitted entry in the exclusion index and wait for it; PostgreSQL then ends one of them
 * this way rather than by the constraint. Its writer runs again and meets the winner's entry.
 */
export function isDeadlock(error: unknown): boolean {
  for (let cause: unknown = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if (typeof cause !== "object") return false;
    if ((cause as { code?: unknown }).code === "40P01") return true;
  }
  return false;
}

/** The 409 answer: the nights are taken, by what, in the caller's language. */
export function collisionAnswer(
  language: Language,
  entries: readonly CollidingEntry[],
): CalendarCollision {
  const [first] = entries;
  if (!first) throw new Error("a collision names at least one entry");
  return {
    message: translate(language, "calendarCollision.message", {
      what: describeCollision((key, params) => translate(language, key, params), language, first),
      count: entries.length,
    }),
    collidesWith: [first, ...entries.slice(1)],
  };
}
