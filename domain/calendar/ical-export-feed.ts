import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import ical, {
  ICalCalendarMethod,
  ICalEventBusyStatus,
  ICalEventTransparency,
} from "ical-generator";
import { calendarEntries, calendarFeeds, propertyTranslations } from "#db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { estateOfExportToken } from "./ical-export.ts";
import { ORIGIN_PROPERTY } from "./ical-import.ts";
import { addDays, fromDateRange } from "./nights.ts";

/**
 * The export feed of an estate (RFC 5545): its confirmed stays and blocks as all-day busy
 * events, for the channels the estate is also let on (Airbnb, Booking.com, its own site).
 *
 * Imported busy times (source 'external') go out only from the feeds whose `pass_on` staff or
 * the owner chose, as 'Busy': an estate let on two sites then passes one site's bookings to the
 * other through Castellum. Echo is guarded on the way back in, where it can be recognised: every
 * event here carries ORIGIN_PROPERTY and a UID at this site's host, and the importer
 * (ical-import.ts) drops an event bearing either, so nothing this feed lists returns as an
 * imported busy time, whichever feed it comes back through. The same address is read by every
 * site, so the export cannot tell which site reads it; a site that keeps our marks and reads
 * its own events back sees them as ours only while its own feed still lists them: they leave
 * this feed at our next read after they leave that site's.
 *
 * Nothing personal goes out either: no guest name or contact, no note, no kind of block; a
 * stay is 'Reserved', a block 'Blocked'. UIDs are the entry's id at the site's host, and
 * DTSTAMP the entry's creation, so reading the feed twice gives the same text.
 */

/** Entries whose nights ended more than this many days ago are no longer listed. */
const PAST_DAYS = 31;

export const EXPORT_SUMMARIES = { stay: "Reserved", block: "Blocked", external: "Busy" } as const;

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
    .leftJoin(calendarFeeds, eq(calendarFeeds.id, calendarEntries.feedId))
    .where(
      and(
        eq(calendarEntries.propertyId, input.propertyId),
        // Imported busy times go out only from the feeds chosen to pass them on (see above).
        or(
          inArray(calendarEntries.source, ["stay", "block"]),
          and(eq(calendarEntries.source, "external"), eq(calendarFeeds.passOn, true)),
        ),
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
      // Our mark: the importer never reads an event that carries it (see above).
      x: { [ORIGIN_PROPERTY]: row.source === "external" ? "imported" : "castellum" },
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
