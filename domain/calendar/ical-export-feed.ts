import { and, asc, eq, inArray, sql } from "drizzle-orm";
import ical, {
  ICalCalendarMethod,
  ICalEventBusyStatus,
  ICalEventTransparency,
} from "ical-generator";
import { calendarEntries, propertyTranslations } from "../../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { estateOfExportToken } from "./ical-export.ts";
import { addDays, fromDateRange } from "./nights.ts";

/**
 * The export feed of an estate (RFC 5545): its confirmed stays and blocks as all-day busy
 * events, for the channels the estate is also let on (Airbnb, Booking.com, its own site).
 *
 * Only what Castellum itself holds goes out: imported busy times (source 'external') are left
 * out on purpose. A channel that imports this feed and exports its own back would otherwise
 * echo our copy of its events to us, and each sync round would feed the loop again.
 *
 * Nothing personal goes out either: no guest name or contact, no note, no kind of block; a
 * stay is 'Reserved', a block 'Blocked'. UIDs are the entry's id at the site's host, and
 * DTSTAMP the entry's creation, so reading the feed twice gives the same text.
 */

/** Entries whose nights ended more than this many days ago are no longer listed. */
const PAST_DAYS = 31;

export const EXPORT_SUMMARIES = { stay: "Reserved", block: "Blocked" } as const;

const utcMidnight = (date: string) => new Date(`${date}T00:00:00Z`);

/**
 * The iCalendar text of an estate's export feed: its stays and blocks from a month before
 * `today` on. `host` names the site in UIDs (`<entry id>@<host>`).
 */
export async function renderCalendarExport(
  deps: Pick<Deps, "db">,
  input: { propertyId: number; host: string; today: string },
): Promise<string> {
  const rows = await deps.db
    .select({
      id: calendarEntries.id,
      source: calendarEntries.source,
      nights: calendarEntries.nights,
      createdAt: calendarEntries.createdAt,
    })
    .from(calendarEntries)
    .where(
      and(
        eq(calendarEntries.propertyId, input.propertyId),
        // Imported busy times never go out again (see above).
        inArray(calendarEntries.source, ["stay", "block"]),
        sql`upper(${calendarEntries.nights}) >= ${addDays(input.today, -PAST_DAYS)}::date`,
      ),
    )
    .orderBy(asc(sql`lower(${calendarEntries.nights})`), asc(calendarEntries.id));

  // Named after the estate, so a channel listing several imported calendars tells them apart.
  const [estate] = await deps.db
    .select({ name: propertyTranslations.name })
    .from(propertyTranslations)
    .where(
      and(
        eq(propertyTranslations.propertyId, input.propertyId),
        eq(propertyTranslations.lang, "en"),
      ),
    );
  const calendar = ical({
    prodId: { company: "Castellum", product: "Estate calendar", language: "EN" },
    name: estate ? `${estate.name} (Castellum)` : "Castellum",
    method: ICalCalendarMethod.PUBLISH,
    // How often a reader should come back (X-PUBLISHED-TTL, REFRESH-INTERVAL).
    ttl: 60 * 60,
  });
  for (const row of rows) {
    if (row.source !== "stay" && row.source !== "block") continue;
    const nights = fromDateRange(row.nights);
    calendar.createEvent({
      id: `${row.id}@${input.host}`,
      start: utcMidnight(nights.start),
      end: utcMidnight(nights.end),
      allDay: true,
      stamp: row.createdAt,
      summary: EXPORT_SUMMARIES[row.source],
      busystatus: ICalEventBusyStatus.BUSY,
      transparency: ICalEventTransparency.OPAQUE,
    });
  }
  return calendar.toString();
}

/**
 * The export feed a token opens, or null when the token is malformed, forged or rotated away
 * (the route answers 404 then, the same for all three).
 */
export async function calendarExportFeed(
  deps: Pick<Deps, "db">,
  input: { token: string; host: string; today: string },
): Promise<string | null> {
  const propertyId = await estateOfExportToken(deps, input.token);
  if (propertyId === null) return null;
  return renderCalendarExport(deps, { propertyId, host: input.host, today: input.today });
}
