import { and, eq, sql } from "drizzle-orm";
import { calendarEntries } from "#db/schema/index.ts";
import { findPropertyId } from "../catalogue/read-properties.ts";
import type { Deps } from "../deps.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import { addMonths, utcToday } from "../requests/dates.ts";
import { AVAILABILITY_DEFAULT_MONTHS, AVAILABILITY_MAX_MONTHS } from "./limits.ts";
import { fromDateRange, mergeNights, type Nights, toDateRange } from "./nights.ts";

/**
 * What guests may know of an estate's calendar: which nights are taken, nothing more. Read
 * from `calendar_entries` alone (confirmed stays, blocks, imported busy times), never from the
 * requests; no guest, note, kind or source leaves this module.
 *
 * Public answers are kept by the response cache (server/middleware/response-cache.ts) until
 * the catalogue changes: every writer of calendar entries (a stay on confirmation, a block, a
 * feed's sync) calls `notifyCatalogueChanged(deps, { propertyIds: [estate] })` inside its
 * transaction, which drops them on every instance once it commits.
 */

export interface Availability {
  propertyId: number;
  /** The first night of the window. */
  from: string;
  /** The end of the window (exclusive). */
  to: string;
  /** The taken nights within [from, to): merged, sorted, end exclusive. */
  unavailable: Nights[];
}

/**
 * The window of a call: `from` defaults to today (UTC), `to` to a year after `from`.
 * @throws InvalidInputError when `from` is after `to`, or the window is over 18 months
 */
export function availabilityWindow(
  input: { from?: string; to?: string },
  today: string = utcToday(),
): { from: string; to: string } {
  const from = input.from ?? today;
  const to = input.to ?? addMonths(from, AVAILABILITY_DEFAULT_MONTHS);
  if (from > to) throw new InvalidInputError("availability.errors.order");
  if (to > addMonths(from, AVAILABILITY_MAX_MONTHS))
    throw new InvalidInputError("availability.errors.tooLong", {
      months: AVAILABILITY_MAX_MONTHS,
    });
  return { from, to };
}

/**
 * The taken nights of an estate within [from, to): every claim (stay, block, external busy
 * time) that overlaps the window, found through the GiST index on (property_id, nights),
 * clipped to the window and merged.
 */
export async function readUnavailableNights(
  deps: Pick<Deps, "db">,
  input: { propertyId: number; from: string; to: string },
): Promise<Nights[]> {
  if (input.from >= input.to) return [];
  const window = toDateRange({ start: input.from, end: input.to });
  const rows = await deps.db
    .select({ nights: calendarEntries.nights })
    .from(calendarEntries)
    .where(
      and(
        eq(calendarEntries.propertyId, input.propertyId),
        sql`${calendarEntries.nights} && ${window}::daterange`,
      ),
    );
  return mergeNights(
    rows.map((row) => {
      const nights = fromDateRange(row.nights);
      return {
        start: nights.start < input.from ? input.from : nights.start,
        end: nights.end > input.to ? input.to : nights.end,
      };
    }),
  );
}

/**
 * The public availability call: an estate by id or slug (members-only ones too, as the
 * property call answers them) and a window of at most 18 months.
 * @throws InvalidInputError for a window out of order or too long; NotFoundError for no estate
 */
export async function getAvailability(
  deps: Deps,
  input: { idOrSlug: string; from?: string; to?: string; today?: string },
): Promise<Availability> {
  const { from, to } = availabilityWindow(input, input.today);
  const propertyId = await findPropertyId(deps, input.idOrSlug);
  if (propertyId === null) throw new NotFoundError("errors.propertyNotFound");
  const unavailable = await readUnavailableNights(deps, { propertyId, from, to });
  return { propertyId, from, to, unavailable };
}
