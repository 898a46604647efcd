import { readUnavailableNights } from "../calendar/availability.ts";
import { firstTakenNight, nightsBetween } from "../calendar/nights.ts";
import { findPropertyId } from "../catalogue/read-properties.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import { lastBookableDate } from "../requests/dates.ts";
import { readRates } from "./estate-rates.ts";
import { MAX_QUOTE_NIGHTS, type Price, quoteStay, type Stay } from "./quote.ts";

/**
 * A guest's question "what would these nights cost?" for one estate: its rates now, the stay's
 * price, and whether the nights are free. The same answer feeds the booking form's estimate and
 * `GET /api/castles/{idOrSlug}/quote`.
 */

export type EstateQuote =
  | {
      outcome: "quoted";
      propertyId: number;
      price: Price;
      available: boolean;
      firstUnavailableNight: string | null;
    }
  | { outcome: "no_rates" }
  /** Dates out of order, in the past or past the booking window; or too long a stay. */
  | { outcome: "bad_dates"; messageKey: string; params?: Record<string, string | number> }
  | { outcome: "too_short"; minNights: number };

/**
 * The price of `stay` at the estate `idOrSlug` on `today` ('YYYY-MM-DD', the caller's clock).
 * @throws NotFoundError when no estate has this id or slug
 */
export async function quoteEstate(
  deps: Deps,
  input: { idOrSlug: string; horizonMonths: number } & Stay,
  now: Date,
): Promise<EstateQuote> {
  const today = now.toISOString().slice(0, 10);
  const { checkIn, checkOut, guests } = input;
  // The dates are checked before anything is read: a stranger's query costs no lookup.
  if (checkOut <= checkIn) return { outcome: "bad_dates", messageKey: "pricing.errors.order" };
  if (checkIn < today) return { outcome: "bad_dates", messageKey: "pricing.errors.past" };
  const last = lastBookableDate(input.horizonMonths, now);
  if (checkOut > last)
    return { outcome: "bad_dates", messageKey: "pricing.errors.pastHorizon", params: { last } };
  if (nightsBetween(checkIn, checkOut) > MAX_QUOTE_NIGHTS)
    return {
      outcome: "bad_dates",
      messageKey: "pricing.errors.tooLong",
      params: { max: MAX_QUOTE_NIGHTS },
    };
  const propertyId = await findPropertyId(deps, input.idOrSlug);
  if (propertyId === null) throw new NotFoundError("errors.propertyNotFound");
  const [current, taken] = await Promise.all([
    readRates(deps, propertyId),
    readUnavailableNights(deps, { propertyId, from: checkIn, to: checkOut }),
  ]);
  if (!current) return { outcome: "no_rates" };
  const quote = quoteStay(current.rates, { checkIn, checkOut, guests }, today);
  if (!quote.ok) {
    if (quote.refusal.reason === "min_nights")
      return { outcome: "too_short", minNights: quote.refusal.minNights };
    return { outcome: "bad_dates", messageKey: "pricing.errors.order" };
  }
  const firstUnavailableNight = firstTakenNight({ start: checkIn, end: checkOut }, taken);
  return {
    outcome: "quoted",
    propertyId,
    price: quote.price,
    available: firstUnavailableNight === null,
    firstUnavailableNight,
  };
}
