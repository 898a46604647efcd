import { addDays, nightsBetween } from "../calendar/nights.ts";
import { type Currency, includedTax, percentToBasisPoints, share } from "./money.ts";
import type { Rates, Season } from "./rates.schema.ts";

/**
 * The price of a stay under an estate's rates: the lines a guest reads, the tax, the total, and
 * how the total splits into a deposit and a balance. Pure arithmetic on integer minor units
 * (money.ts): the same function prices the booking form's estimate, the quote call and the
 * offer staff send, so the three never disagree.
 */

/** What a line charges for. Offers add `discount` and `extra` lines of their own. */
export const LINE_CODES = ["nights", "extra_guests", "cleaning", "discount", "extra"] as const;
export type LineCode = (typeof LINE_CODES)[number];

export interface PriceLine {
  code: LineCode;
  quantity: number;
  /** Minor units per one of `quantity` (negative for a discount). */
  unitAmount: number;
  /** quantity × unitAmount. */
  amount: number;
  /** For nights: the season they fall in, or null for the estate's usual rate. */
  season?: { start: string; end: string } | null;
  /** Staff's own words, for the lines of an offer they add. */
  text?: string;
}

export interface Stay {
  checkIn: string;
  checkOut: string;
  guests: number;
}

export interface Price {
  currency: Currency;
  nights: number;
  lines: PriceLine[];
  /** The tax the total holds (included) or adds (on top). */
  tax: number;
  taxIncluded: boolean;
  total: number;
  deposit: number;
  balance: number;
  /** The day the balance is due, or null when everything is due at once. */
  balanceDueOn: string | null;
  /** The least nights a stay starting on `checkIn` must last. */
  minNights: number;
}

/** The longest stay priced, in nights: the work a quote does is one step per night. */
export const MAX_QUOTE_NIGHTS = 366;

export type QuoteRefusal =
  | { reason: "dates" }
  | { reason: "too_long"; maxNights: number }
  | { reason: "min_nights"; minNights: number };

/** The season `night` falls in, if any (seasons never overlap: rates.schema.ts). */
export function seasonOf(rates: Rates, night: string): Season | undefined {
  return rates.seasons.find((season) => season.start <= night && night < season.end);
}

/** The least nights a stay starting on `checkIn` must last: its first night's season decides. */
export function minNightsFrom(rates: Rates, checkIn: string): number {
  return seasonOf(rates, checkIn)?.minNights ?? rates.minNights;
}

/**
 * The lines of a stay under `rates`: its nights grouped by the rate they fall under (in date
 * order), extra guests beyond those included, and the cleaning fee.
 */
export function stayLines(rates: Rates, stay: Stay): PriceLine[] {
  const nights = nightsBetween(stay.checkIn, stay.checkOut);
  const lines: PriceLine[] = [];
  let current: PriceLine | undefined;
  for (let i = 0; i < nights; i++) {
    const night = addDays(stay.checkIn, i);
    const season = seasonOf(rates, night);
    const nightly = season?.nightly ?? rates.nightly;
    const key = season ? { start: season.start, end: season.end } : null;
    if (current && current.unitAmount === nightly && current.season?.start === key?.start) {
      current.quantity += 1;
      current.amount += nightly;
    } else {
      current = { code: "nights", quantity: 1, unitAmount: nightly, amount: nightly, season: key };
      lines.push(current);
    }
  }
  const extraGuests = Math.max(0, stay.guests - rates.includedGuests);
  if (extraGuests > 0 && rates.extraGuestNightly > 0)
    lines.push({
      code: "extra_guests",
      quantity: extraGuests * nights,
      unitAmount: rates.extraGuestNightly,
      amount: extraGuests * nights * rates.extraGuestNightly,
    });
  if (rates.cleaningFee > 0)
    lines.push({
      code: "cleaning",
      quantity: 1,
      unitAmount: rates.cleaningFee,
      amount: rates.cleaningFee,
    });
  return lines;
}

export interface Totals {
  tax: number;
  total: number;
  deposit: number;
  balance: number;
  balanceDueOn: string | null;
}

/**
 * Tax, total, deposit and balance of `lines`, each rounded once: the tax on the lines' sum,
 * the deposit as a share of the total, the balance what remains (so the two always make the
 * total). When the balance would fall due today or earlier, or nothing would remain, all of it
 * is due at once.
 */
export function totalsOf(
  lines: readonly PriceLine[],
  terms: {
    taxPercent: number;
    taxIncluded: boolean;
    depositPercent: number;
    balanceDueDays: number;
  },
  checkIn: string,
  today: string,
): Totals {
  const sum = lines.reduce((total, line) => total + line.amount, 0);
  const taxPoints = percentToBasisPoints(terms.taxPercent);
  const tax = terms.taxIncluded ? includedTax(sum, taxPoints) : share(sum, taxPoints);
  const total = terms.taxIncluded ? sum : sum + tax;
  const dueOn = addDays(checkIn, -terms.balanceDueDays);
  const deposit = share(total, percentToBasisPoints(terms.depositPercent));
  if (dueOn <= today || deposit >= total)
    return { tax, total, deposit: total, balance: 0, balanceDueOn: null };
  return { tax, total, deposit, balance: total - deposit, balanceDueOn: dueOn };
}

/**
 * The price of `stay` under `rates` on `today`, or why it has none: dates out of order, a stay
 * longer than MAX_QUOTE_NIGHTS, or shorter than the minimum stay from its check-in.
 */
export function quoteStay(
  rates: Rates,
  stay: Stay,
  today: string,
): { ok: true; price: Price } | { ok: false; refusal: QuoteRefusal } {
  const nights = nightsBetween(stay.checkIn, stay.checkOut);
  if (!(nights >= 1)) return { ok: false, refusal: { reason: "dates" } };
  if (nights > MAX_QUOTE_NIGHTS)
    return { ok: false, refusal: { reason: "too_long", maxNights: MAX_QUOTE_NIGHTS } };
  const minNights = minNightsFrom(rates, stay.checkIn);
  if (nights < minNights) return { ok: false, refusal: { reason: "min_nights", minNights } };
  const lines = stayLines(rates, stay);
  return {
    ok: true,
    price: {
      currency: rates.currency,
      nights,
      lines,
      taxIncluded: rates.taxIncluded,
      ...totalsOf(lines, rates, stay.checkIn, today),
      minNights,
    },
  };
}

/** The lowest nightly price an estate asks: its usual rate or its cheapest season's. */
export function fromNightly(rates: Rates): number {
  return Math.min(rates.nightly, ...rates.seasons.map((season) => season.nightly));
}
