import { z } from "zod";
import { MAX_AMOUNT } from "../pricing/money.ts";

/**
 * What staff may change in an offer before it goes (`POST /api/{collection}/{id}/offers`), and
 * what a member of staff records as received (`POST /api/{collection}/{id}/payments`). Every
 * field is optional in an offer: by default it is the estate's quote for the request's dates
 * and guests. Messages are translation keys under `offers.*`.
 */

/** The most lines an offer carries. */
export const MAX_OFFER_LINES = 40;
/** The longest note to the guest. */
export const MAX_OFFER_NOTE = 2000;
/** The longest text of a line staff add. */
export const MAX_LINE_TEXT = 120;

const amount = (message: string) =>
  z
    .number({ error: message })
    .int(message)
    .min(1, message)
    .max(MAX_AMOUNT, "pricing.amountTooLarge");

export const offerLineSchema = z
  .object({
    code: z.enum(["nights", "extra_guests", "cleaning", "extra"], { error: "offers.lineCode" }),
    /** Required for an `extra` line: what it charges for, in staff's words. */
    text: z
      .string({ error: "offers.lineText" })
      .trim()
      .max(MAX_LINE_TEXT, "offers.lineText")
      .optional(),
    quantity: z
      .number({ error: "offers.quantity" })
      .int("offers.quantity")
      .min(1, "offers.quantity")
      .max(10_000, "offers.quantity"),
    unitAmount: amount("offers.unitAmount"),
  })
  .refine((line) => line.code !== "extra" || (line.text ?? "").length > 0, {
    path: ["text"],
    message: "offers.lineText",
  });

export const offerInputSchema = z.object({
  lines: z
    .array(offerLineSchema, { error: "offers.lines" })
    .min(1, "offers.lines")
    .max(MAX_OFFER_LINES, "offers.lines")
    .optional(),
  /** Taken off the lines' sum, in minor units. */
  discount: amount("offers.discount").optional(),
  depositPercent: z
    .number({ error: "pricing.depositPercent" })
    .min(0, "pricing.depositPercent")
    .max(100, "pricing.depositPercent")
    .refine(
      (value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-9,
      "pricing.depositPercent",
    )
    .optional(),
  expiresAt: z.iso.datetime({ offset: true, error: "offers.expiresAt" }).optional(),
  note: z.string({ error: "offers.note" }).trim().max(MAX_OFFER_NOTE, "offers.note").optional(),
});
export type OfferInput = z.output<typeof offerInputSchema>;

export const PAYMENT_KINDS = ["deposit", "balance", "refund"] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];
export const PAYMENT_METHODS = ["bank_transfer", "card", "casl"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const paymentInputSchema = z.object({
  kind: z.enum(PAYMENT_KINDS, { error: "offers.payment.kind" }),
  method: z.enum(PAYMENT_METHODS, { error: "offers.payment.method" }),
  amount: amount("offers.payment.amount"),
  currency: z.string({ error: "pricing.currency" }).regex(/^[A-Z]{3}$/, "pricing.currency"),
  reference: z
    .string({ error: "offers.payment.reference" })
    .trim()
    .min(1, "offers.payment.reference")
    .max(200, "offers.payment.reference"),
  receivedAt: z.iso.datetime({ offset: true, error: "offers.payment.receivedAt" }),
});
export type PaymentInput = z.output<typeof paymentInputSchema>;

/** A $CASL transaction hash as the guest pastes it from their wallet. */
export const caslTxSchema = z.object({
  txHash: z
    .string({ error: "offers.casl.txHash" })
    .trim()
    .regex(/^0x[0-9a-fA-F]{64}$/, "offers.casl.txHash"),
});

export const cancelInputSchema = z.object({
  reason: z
    .string({ error: "offers.cancel.reason" })
    .trim()
    .max(2000, "offers.cancel.reason")
    .optional(),
});

/**
 * Where a request's money stands, as staff scan for it in the inbox (computed in money-state.ts).
 */
export const MONEY_STATES = [
  "offer_sent",
  "deposit_due",
  "balance_due",
  "balance_overdue",
  "paid",
  "refund_due",
] as const;
export type MoneyState = (typeof MONEY_STATES)[number];

/** What the inbox shows of a request's money. */
export interface RequestMoney {
  state: MoneyState;
  currency: string;
  total: number;
  /** What the guest still owes (refunds not counted). */
  outstanding: number;
  /** The day the state points at: the offer's expiry, the deposit's or the balance's due day. */
  dueOn: string | null;
}
