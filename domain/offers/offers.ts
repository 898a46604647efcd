import { and, eq } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import { guestRequests, offers, payments } from "#db/schema/index.ts";
import type { CollidingEntry } from "../calendar/calendar.schema.ts";
import { findCollisions } from "../calendar/collisions.ts";
import { retryOnTakenNights } from "../calendar/stays.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { recordRequestEvent } from "../events/request-events.ts";
import { refundablePercent } from "../pricing/cancellation.ts";
import { readRates } from "../pricing/estate-rates.ts";
import type { PriceLine } from "../pricing/quote.ts";
import { quoteStay } from "../pricing/quote.ts";
import { CANCELLATION_POLICIES, type CancellationPolicy } from "../pricing/rates.schema.ts";
import {
  type Actor,
  applyTransition,
  type ApplyResult,
  type GuestRequestRow,
} from "../requests/apply-transition.ts";
import { hashStatusToken } from "../requests/intake/reference.ts";
import type { RequestKind, RequestStatus } from "../requests/options.ts";
import { draftOffer } from "./build-offer.ts";
import {
  ledgerOf,
  liveOfferOf,
  type OfferRow,
  offersOf,
  type PaymentRow,
  settlementOf,
  settlementOfOffer,
} from "./ledger.ts";
import type { OfferInput, PaymentInput } from "./offer.schema.ts";
import { isUuid } from "../uuid.ts";

/**
 * Offers and payments as staff and guests act on them: each function locks the request's row,
 * works out what it needs, and hands the change to `applyTransition` (the one writer of a
 * request), all in one transaction. The figures returned are read from the ledger.
 */

export interface OfferTerms {
  /** OFFER_HOURS: how long a guest has to answer an offer. */
  offerHours: number;
  /** DEPOSIT_DUE_HOURS: how long accepted nights are held for the deposit. */
  depositHours: number;
}

export interface OfferView {
  id: string;
  propertyId: number;
  status: OfferRow["status"];
  currency: string;
  lines: PriceLine[];
  tax: number;
  taxIncluded: boolean;
  total: number;
  deposit: number;
  balance: number;
  balanceDueOn: string | null;
  checkIn: string;
  checkOut: string;
  guests: number;
  cancellationPolicy: CancellationPolicy;
  note: string | null;
  expiresAt: Date;
  depositDueAt: Date | null;
  createdAt: Date;
  answeredAt: Date | null;
  /** Deposits and balances received, refunds paid out, and what remains to pay. */
  paid: number;
  refunded: number;
  outstanding: number;
  /** What remains of the deposit. */
  depositOutstanding: number;
  /** Fixed when a booking is cancelled: what the policy gives back. */
  refundDue: number | null;
  /** The guest's $CASL transaction, for staff to check. */
  caslTx: string | null;
}

export interface PaymentView {
  id: number;
  kind: PaymentRow["kind"];
  method: PaymentRow["method"];
  amount: number;
  currency: string;
  reference: string;
  receivedAt: Date;
  recordedBy: string;
}

const policyOf = (value: string): CancellationPolicy =>
  (CANCELLATION_POLICIES as readonly string[]).includes(value)
    ? (value as CancellationPolicy)
    : "strict";

export function offerView(offer: OfferRow, ledger: readonly PaymentRow[]): OfferView {
  const settlement = settlementOf(
    offer,
    ledger.filter((row) => row.offerId === offer.id),
  );
  return {
    id: offer.id,
    propertyId: offer.propertyId,
    status: offer.status,
    currency: offer.currency,
    lines: offer.lines as unknown as PriceLine[],
    tax: offer.tax,
    taxIncluded: offer.taxIncluded,
    total: offer.total,
    deposit: offer.deposit,
    balance: offer.balance,
    balanceDueOn: offer.balanceDueOn,
    checkIn: offer.checkIn,
    checkOut: offer.checkOut,
    guests: offer.guests,
    cancellationPolicy: policyOf(offer.cancellationPolicy),
    note: offer.note,
    expiresAt: offer.expiresAt,
    depositDueAt: offer.depositDueAt,
    createdAt: offer.createdAt,
    answeredAt: offer.answeredAt,
    paid: settlement.received,
    refunded: settlement.refunded,
    outstanding: settlement.outstanding,
    depositOutstanding: settlement.depositOutstanding,
    refundDue: offer.refundDue,
    caslTx: offer.guestCaslTx,
  };
}

export const paymentView = (row: PaymentRow): PaymentView => ({
  id: row.id,
  kind: row.kind,
  method: row.method,
  amount: row.amount,
  currency: row.currency,
  reference: row.reference,
  receivedAt: row.receivedAt,
  recordedBy: row.recordedBy,
});

/** A request's offers (newest first) and its ledger, as staff read them. */
export async function readOffers(
  deps: Pick<Deps, "db">,
  requestId: string,
): Promise<{ offers: OfferView[]; payments: PaymentView[] }> {
  const [rows, ledger] = await Promise.all([
    offersOf(deps.db, requestId),
    ledgerOf(deps.db, requestId),
  ]);
  return { offers: rows.map((row) => offerView(row, ledger)), payments: ledger.map(paymentView) };
}

/** The guests a request names: the form's count, else one. */
export function guestsOf(details: Record<string, unknown>): number {
  const count = details.numberOfGuests ?? details.estimatedGuests;
  return typeof count === "number" && Number.isInteger(count) && count >= 1 ? count : 1;
}

/**
 * What an offer on `row` starts from: its estate's rates and their quote for its nights and
 * guests on `today` (the quote may refuse the stay: too short, past the window).
 */
async function priceStayOf(
  db: Database,
  row: Pick<GuestRequestRow, "propertyId" | "stayStart" | "stayEnd" | "details">,
  today: string,
) {
  if (row.propertyId === null || row.stayStart === null || row.stayEnd === null)
    return { outcome: "no_stay" as const };
  const rates = await readRates({ db }, row.propertyId);
  if (!rates) return { outcome: "no_rates" as const };
  const stay = { checkIn: row.stayStart, checkOut: row.stayEnd, guests: guestsOf(row.details) };
  const quote = quoteStay(rates.rates, stay, today);
  return { outcome: "priced" as const, propertyId: row.propertyId, rates, stay, quote };
}

/**
 * The lines an offer on the request would carry today unless staff change them (the estate's
 * quote for its stay), for staff to start from; null without a stay, rates or a valid quote.
 */
export async function defaultOfferLines(
  deps: Pick<Deps, "db" | "clock">,
  requestId: string,
): Promise<{ currency: string; lines: PriceLine[] } | null> {
  if (!isUuid(requestId)) return null;
  const [row] = await deps.db.select().from(guestRequests).where(eq(guestRequests.id, requestId));
  if (!row) return null;
  const priced = await priceStayOf(deps.db, row, nowOf(deps).toISOString().slice(0, 10));
  if (priced.outcome !== "priced" || !priced.quote.ok) return null;
  return { currency: priced.rates.rates.currency, lines: priced.quote.price.lines };
}

async function lockRequest(tx: Database, kind: RequestKind, id: string) {
  if (!isUuid(id)) return null;
  const [row] = await tx
    .select()
    .from(guestRequests)
    .where(and(eq(guestRequests.id, id), eq(guestRequests.kind, kind)))
    .for("update");
  return row ?? null;
}

async function lockRequestByToken(tx: Database, token: string) {
  if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return null;
  const [row] = await tx
    .select()
    .from(guestRequests)
    .where(eq(guestRequests.statusTokenHash, hashStatusToken(token)))
    .for("update");
  return row ?? null;
}

export type SendOfferResult =
  | { outcome: "sent"; offer: OfferView }
  | { outcome: "not_found" }
  /** The request names no estate or no dates yet. */
  | { outcome: "no_stay" }
  | { outcome: "no_rates" }
  | { outcome: "too_short"; minNights: number }
  | { outcome: "invalid"; messageKey: string; field: string }
  /** Not from the request's status (accepted, confirmed, closed). */
  | { outcome: "refused"; refusal: string }
  | { outcome: "collision"; collidesWith: [CollidingEntry, ...CollidingEntry[]] };

/**
 * Staff send an offer on a request: by default the estate's quote for the request's dates and
 * guests, with staff's changes. An offer still out is withdrawn by this one.
 */
export async function sendOffer(
  deps: Pick<Deps, "db" | "clock">,
  input: {
    kind: RequestKind;
    id: string;
    offer: OfferInput;
    actor: Extract<Actor, { kind: "staff" }>;
    terms: OfferTerms;
  },
): Promise<SendOfferResult> {
  const now = nowOf(deps);
  const today = now.toISOString().slice(0, 10);
  const result = await retryOnTakenNights(
    () =>
      withTransaction(deps.db, async (tx): Promise<SendOfferResult> => {
        const row = await lockRequest(tx, input.kind, input.id);
        if (!row) return { outcome: "not_found" };
        if (row.kind === "membership") return { outcome: "refused", refusal: "no_stay" };
        const priced = await priceStayOf(tx, row, today);
        if (priced.outcome !== "priced") return priced;
        const { propertyId, rates, stay, quote } = priced;
        let quoteLines: PriceLine[] = [];
        if (quote.ok) quoteLines = quote.price.lines;
        else if (!input.offer.lines) {
          if (quote.refusal.reason === "min_nights")
            return { outcome: "too_short", minNights: quote.refusal.minNights };
          return { outcome: "invalid", messageKey: "offers.stayDates", field: "lines" };
        }
        const drafted = draftOffer(input.offer, {
          propertyId,
          rates: rates.rates,
          quoteLines,
          stay,
          now,
          offerHours: input.terms.offerHours,
        });
        if (!drafted.ok)
          return { outcome: "invalid", messageKey: drafted.messageKey, field: drafted.field };
        // Nights another stay or a block holds are not offered: staff hear of it now.
        const taken = await findCollisions(
          tx,
          propertyId,
          { start: stay.checkIn, end: stay.checkOut },
          { ignoreRequestId: row.id },
        );
        const [first, ...rest] = taken;
        if (first) return { outcome: "collision", collidesWith: [first, ...rest] };
        const applied = await applyTransition(
          tx,
          row,
          { type: "send_offer", draft: drafted.draft },
          input.actor,
          now,
        );
        if (applied.outcome !== "applied" || !applied.offerId)
          return { outcome: "refused", refusal: refusalOf(applied) };
        const offer = await liveOfferOf(tx, row.id);
        if (!offer) throw new Error("the offer just sent is not live");
        return { outcome: "sent", offer: offerView(offer, []) };
      }),
    async () => [],
  );
  return result;
}

const refusalOf = (result: ApplyResult): string =>
  result.outcome === "refused" ? result.refusal : result.outcome;

export type OfferActionResult =
  | { outcome: "done"; requestId: string; status: RequestStatus }
  | { outcome: "not_found" }
  | { outcome: "refused"; refusal: string }
  | { outcome: "collision"; collidesWith: [CollidingEntry, ...CollidingEntry[]] };

/** Staff withdraw an offer the guest has not answered. */
export async function withdrawOffer(
  deps: Pick<Deps, "db" | "clock">,
  input: { kind: RequestKind; id: string; offerId: string; actor: Actor },
): Promise<OfferActionResult> {
  return withTransaction(deps.db, async (tx) => {
    const row = await lockRequest(tx, input.kind, input.id);
    if (!row) return { outcome: "not_found" };
    const applied = await applyTransition(
      tx,
      row,
      { type: "withdraw_offer", offerId: input.offerId },
      input.actor,
      nowOf(deps),
    );
    if (applied.outcome !== "applied") return { outcome: "refused", refusal: refusalOf(applied) };
    return { outcome: "done", requestId: row.id, status: applied.to };
  });
}

/**
 * The guest accepts or declines an offer from their status page. Accepting takes the nights at
 * once: when another stay or a block holds them, nothing changes and the answer names it. A
 * second click finds the offer answered: `already` with the status it reached.
 */
export async function answerOffer(
  deps: Pick<Deps, "db" | "clock">,
  input: { token: string; offerId: string; answer: "accept" | "decline"; terms: OfferTerms },
): Promise<OfferActionResult | { outcome: "already"; status: RequestStatus }> {
  const guest: Actor = { kind: "guest" };
  let propertyId: number | null = null;
  let nights: { start: string; end: string } | null = null;
  let requestId: string | null = null;
  return retryOnTakenNights(
    () =>
      withTransaction(deps.db, async (tx) => {
        const row = await lockRequestByToken(tx, input.token);
        if (!row) return { outcome: "not_found" as const };
        requestId = row.id;
        const live = await liveOfferOf(tx, row.id);
        if (live?.id === input.offerId && live.status === "accepted" && input.answer === "accept")
          return { outcome: "already" as const, status: row.status };
        if (live?.id === input.offerId) {
          propertyId = live.propertyId;
          nights = { start: live.checkIn, end: live.checkOut };
        }
        const applied = await applyTransition(
          tx,
          row,
          input.answer === "accept"
            ? {
                type: "accept_offer",
                offerId: input.offerId,
                depositHours: input.terms.depositHours,
              }
            : { type: "decline_offer", offerId: input.offerId },
          guest,
          nowOf(deps),
        );
        if (applied.outcome !== "applied")
          return { outcome: "refused" as const, refusal: refusalOf(applied) };
        return { outcome: "done" as const, requestId: row.id, status: applied.to };
      }),
    () =>
      propertyId !== null && nights !== null
        ? findCollisions(deps.db, propertyId, nights, { ignoreRequestId: requestId ?? undefined })
        : Promise.resolve([]),
  );
}

/** The guest cancels their booking from the status page, when the policy still refunds. */
export async function guestCancel(
  deps: Pick<Deps, "db" | "clock">,
  input: { token: string; reason?: string | null },
): Promise<OfferActionResult> {
  return withTransaction(deps.db, async (tx) => {
    const row = await lockRequestByToken(tx, input.token);
    if (!row) return { outcome: "not_found" };
    const applied = await applyTransition(
      tx,
      row,
      { type: "cancel", reason: input.reason ?? null },
      { kind: "guest" },
      nowOf(deps),
    );
    if (applied.outcome !== "applied") return { outcome: "refused", refusal: refusalOf(applied) };
    return { outcome: "done", requestId: row.id, status: applied.to };
  });
}

/** Staff cancel a booking awaiting its deposit or confirmed; the refund due is fixed. */
export async function staffCancel(
  deps: Pick<Deps, "db" | "clock">,
  input: { kind: RequestKind; id: string; reason?: string | null; actor: Actor },
): Promise<OfferActionResult> {
  return withTransaction(deps.db, async (tx) => {
    const row = await lockRequest(tx, input.kind, input.id);
    if (!row) return { outcome: "not_found" };
    const applied = await applyTransition(
      tx,
      row,
      { type: "cancel", reason: input.reason ?? null },
      input.actor,
      nowOf(deps),
    );
    if (applied.outcome !== "applied") return { outcome: "refused", refusal: refusalOf(applied) };
    return { outcome: "done", requestId: row.id, status: applied.to };
  });
}

/** The guest names the $CASL transaction that pays their deposit or balance. */
export async function submitCaslTx(
  deps: Pick<Deps, "db" | "clock">,
  input: { token: string; offerId: string; txHash: string },
): Promise<"saved" | "not_found"> {
  return withTransaction(deps.db, async (tx) => {
    const row = await lockRequestByToken(tx, input.token);
    if (!row) return "not_found";
    const offer = await liveOfferOf(tx, row.id, { lock: true });
    if (!offer || offer.id !== input.offerId || offer.status !== "accepted") return "not_found";
    await tx.update(offers).set({ guestCaslTx: input.txHash }).where(eq(offers.id, offer.id));
    return "saved";
  });
}

export type RecordPaymentResult =
  | { outcome: "recorded"; payment: PaymentView; offer: OfferView; status: RequestStatus }
  /** The provider told us of this payment before: nothing new was written. */
  | { outcome: "duplicate"; status: RequestStatus }
  | { outcome: "not_found" }
  /** No accepted offer to pay. */
  | { outcome: "no_offer" }
  | { outcome: "invalid"; messageKey: string; field: string };

/**
 * One row in the ledger, then what it changes: the deposit in full confirms the booking (the
 * system's transition). A provider's payment (`providerId`) is written once however often it is
 * reported: the unique key refuses the second, which then answers `duplicate`.
 */
export async function recordPayment(
  deps: Pick<Deps, "db" | "clock">,
  input: {
    requestId: string;
    kind?: RequestKind;
    payment: PaymentInput;
    recordedBy: string;
    provider?: { name: string; id: string };
  },
): Promise<RecordPaymentResult> {
  const now = nowOf(deps);
  if (!isUuid(input.requestId)) return { outcome: "not_found" };
  return withTransaction(deps.db, async (tx) => {
    const [row] = await tx
      .select()
      .from(guestRequests)
      .where(
        input.kind
          ? and(eq(guestRequests.id, input.requestId), eq(guestRequests.kind, input.kind))
          : eq(guestRequests.id, input.requestId),
      )
      .for("update");
    if (!row) return { outcome: "not_found" };
    if (input.provider) {
      const [seen] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(
          and(
            eq(payments.provider, input.provider.name),
            eq(payments.providerId, input.provider.id),
          ),
        );
      if (seen) return { outcome: "duplicate", status: row.status };
    }
    const offer = await liveOfferOf(tx, row.id, { lock: true });
    if (!offer || offer.status !== "accepted") return { outcome: "no_offer" };
    const { payment } = input;
    if (payment.currency !== offer.currency)
      return {
        outcome: "invalid",
        messageKey: "offers.payment.currencyMismatch",
        field: "currency",
      };
    const settlement = await settlementOfOffer(tx, offer);
    if (payment.kind === "refund" && payment.amount > settlement.received - settlement.refunded)
      return { outcome: "invalid", messageKey: "offers.payment.refundTooLarge", field: "amount" };
    const [written] = await tx
      .insert(payments)
      .values({
        requestId: row.id,
        offerId: offer.id,
        kind: payment.kind,
        method: payment.method,
        amount: payment.amount,
        currency: payment.currency,
        reference: payment.reference,
        receivedAt: new Date(payment.receivedAt),
        recordedBy: input.recordedBy,
        provider: input.provider?.name ?? null,
        providerId: input.provider?.id ?? null,
        createdAt: now,
      })
      .returning();
    if (!written) throw new Error("the payment was not recorded");
    await recordRequestEvent(tx, {
      type: "payment.recorded",
      requestId: row.id,
      actor: input.provider ? "system" : "staff",
      extra: {
        paymentId: written.id,
        offerId: offer.id,
        kind: written.kind,
        method: written.method,
        amount: written.amount,
        currency: written.currency,
      },
      occurredAt: now,
    });
    let status: RequestStatus = row.status;
    if (payment.kind !== "refund" && row.status === "Awaiting deposit") {
      const confirmed = await applyTransition(
        tx,
        row,
        { type: "confirm_paid" },
        { kind: "system" },
        now,
      );
      if (confirmed.outcome === "applied") status = confirmed.to;
    }
    const ledger = await ledgerOf(tx, row.id);
    return {
      outcome: "recorded",
      payment: paymentView(written),
      offer: offerView(offer, ledger),
      status,
    };
  });
}

/** What the guest owes now on their accepted offer: the deposit while it awaits it, else the rest. */
export function amountDue(
  status: string,
  view: Pick<OfferView, "status" | "depositOutstanding" | "outstanding">,
): { kind: "deposit" | "balance"; amount: number } | null {
  if (view.status !== "accepted") return null;
  if (status === "Awaiting deposit" && view.depositOutstanding > 0)
    return { kind: "deposit", amount: view.depositOutstanding };
  if (status === "Confirmed" && view.outstanding > 0)
    return { kind: "balance", amount: view.outstanding };
  return null;
}

/** Whether the guest may cancel now, and what they would get back. */
export function guestCancellation(
  status: string,
  view: Pick<
    OfferView,
    "status" | "checkIn" | "cancellationPolicy" | "total" | "paid" | "refunded"
  >,
  today: string,
): { allowed: boolean; refundPercent: number } {
  if (view.status !== "accepted" || (status !== "Confirmed" && status !== "Awaiting deposit"))
    return { allowed: false, refundPercent: 0 };
  const percent = refundablePercent(view.cancellationPolicy, view.checkIn, today);
  return { allowed: view.checkIn > today && percent > 0, refundPercent: percent };
}

export type { GuestRequestRow };
