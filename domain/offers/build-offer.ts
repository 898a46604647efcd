import { CURRENCIES, type Currency } from "../pricing/money.ts";
import { type PriceLine, totalsOf, type Totals } from "../pricing/quote.ts";
import type { CancellationPolicy, Rates } from "../pricing/rates.schema.ts";
import type { OfferInput } from "./offer.schema.ts";

/**
 * The price staff offer, worked out before anything is written: the quote's lines or staff's
 * own, a discount as a line of its own, and the totals by the one rule of quote.ts. Pure, so the
 * property test drives it with random input.
 */

export interface OfferDraft extends Totals {
  propertyId: number;
  currency: Currency;
  lines: PriceLine[];
  taxIncluded: boolean;
  checkIn: string;
  checkOut: string;
  guests: number;
  cancellationPolicy: CancellationPolicy;
  note: string | null;
  expiresAt: Date;
}

export type DraftOutcome =
  | { ok: true; draft: OfferDraft }
  /** The discount leaves nothing to pay, or an expiry not after now. */
  | { ok: false; messageKey: string; field: string };

/** The longest an offer may stay open, in hours (a month). */
export const MAX_OFFER_HOURS = 24 * 31;

export function draftOffer(
  input: OfferInput,
  context: {
    propertyId: number;
    rates: Rates;
    quoteLines: readonly PriceLine[];
    stay: { checkIn: string; checkOut: string; guests: number };
    now: Date;
    offerHours: number;
  },
): DraftOutcome {
  const { rates, stay, now } = context;
  const today = now.toISOString().slice(0, 10);
  const lines: PriceLine[] = input.lines
    ? input.lines.map((line) => ({
        code: line.code,
        quantity: line.quantity,
        unitAmount: line.unitAmount,
        amount: line.quantity * line.unitAmount,
        ...(line.text ? { text: line.text } : {}),
      }))
    : context.quoteLines.map((line) => ({ ...line }));
  if (input.discount !== undefined)
    lines.push({
      code: "discount",
      quantity: 1,
      unitAmount: -input.discount,
      amount: -input.discount,
    });
  const sum = lines.reduce((total, line) => total + line.amount, 0);
  if (sum <= 0) return { ok: false, messageKey: "offers.nothingToPay", field: "discount" };
  const expiresAt = input.expiresAt
    ? new Date(input.expiresAt)
    : new Date(now.getTime() + context.offerHours * 3_600_000);
  const ahead = expiresAt.getTime() - now.getTime();
  if (!(ahead > 0) || ahead > MAX_OFFER_HOURS * 3_600_000)
    return { ok: false, messageKey: "offers.expiresAt", field: "expiresAt" };
  const totals = totalsOf(
    lines,
    { ...rates, depositPercent: input.depositPercent ?? rates.depositPercent },
    stay.checkIn,
    today,
  );
  return {
    ok: true,
    draft: {
      propertyId: context.propertyId,
      currency: CURRENCIES.includes(rates.currency) ? rates.currency : "EUR",
      lines,
      taxIncluded: rates.taxIncluded,
      ...totals,
      checkIn: stay.checkIn,
      checkOut: stay.checkOut,
      guests: stay.guests,
      cancellationPolicy: rates.cancellationPolicy,
      note: input.note?.length ? input.note : null,
      expiresAt,
    },
  };
}
