import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { offers, payments } from "#db/schema/index.ts";

/**
 * Reading offers and the ledger. Every figure shown (paid, due, refunded, outstanding) is a sum
 * over `payments` at the moment it is read: nothing stores a running balance that could drift.
 */

export type OfferRow = typeof offers.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;

/** The request's offer still in play (sent or accepted), if any; `lock` takes its row. */
export async function liveOfferOf(
  tx: Database,
  requestId: string,
  options: { lock?: boolean } = {},
): Promise<OfferRow | null> {
  const query = tx
    .select()
    .from(offers)
    .where(and(eq(offers.requestId, requestId), inArray(offers.status, ["sent", "accepted"])));
  const [row] = options.lock ? await query.for("update") : await query;
  return row ?? null;
}

/** Every offer of a request, newest first. */
export function offersOf(db: Database, requestId: string): Promise<OfferRow[]> {
  return db
    .select()
    .from(offers)
    .where(eq(offers.requestId, requestId))
    .orderBy(desc(offers.createdAt), desc(offers.id));
}

/** The ledger of a request, oldest first. */
export function ledgerOf(db: Database, requestId: string): Promise<PaymentRow[]> {
  return db.select().from(payments).where(eq(payments.requestId, requestId)).orderBy(payments.id);
}

export interface Settlement {
  /** Deposits and balances received. */
  received: number;
  /** Refunds paid out. */
  refunded: number;
  /** What the guest still owes for the whole stay (never below zero). */
  outstanding: number;
  /** What remains of the deposit (zero once it is paid). */
  depositOutstanding: number;
}

/** Where an offer's money stands, from its ledger rows. */
export function settlementOf(
  offer: Pick<OfferRow, "total" | "deposit">,
  rows: readonly Pick<PaymentRow, "kind" | "amount">[],
): Settlement {
  let received = 0;
  let refunded = 0;
  for (const row of rows) {
    if (row.kind === "refund") refunded += row.amount;
    else received += row.amount;
  }
  return {
    received,
    refunded,
    outstanding: Math.max(0, offer.total - received),
    depositOutstanding: Math.max(0, offer.deposit - received),
  };
}

/** The settlement of `offerId` read in `tx`. */
export async function settlementOfOffer(tx: Database, offer: OfferRow): Promise<Settlement> {
  const rows = await tx
    .select({
      kind: payments.kind,
      amount: sql<number>`sum(${payments.amount})::bigint`.mapWith(Number),
    })
    .from(payments)
    .where(eq(payments.offerId, offer.id))
    .groupBy(payments.kind);
  return settlementOf(offer, rows);
}

export interface OfferMoney {
  offerStatus: OfferRow["status"];
  currency: string;
  total: number;
  paid: number;
  outstanding: number;
}

/**
 * Where the money of each request in `requestIds` stands: its offer in play (else its latest
 * answered one) and what was paid on it. Two statements for any number of requests.
 */
export async function moneyOfRequests(
  db: Database,
  requestIds: readonly string[],
): Promise<Map<string, OfferMoney>> {
  const result = new Map<string, OfferMoney>();
  if (requestIds.length === 0) return result;
  const rows = await db
    .select()
    .from(offers)
    .where(and(inArray(offers.requestId, [...requestIds]), sql`${offers.status} <> 'withdrawn'`))
    .orderBy(desc(offers.createdAt));
  const chosen = new Map<string, OfferRow>();
  for (const row of rows) {
    const current = chosen.get(row.requestId);
    const live = (offer: OfferRow) => offer.status === "sent" || offer.status === "accepted";
    if (!current || (!live(current) && live(row))) chosen.set(row.requestId, row);
  }
  const offerIds = [...chosen.values()].map((offer) => offer.id);
  const sums =
    offerIds.length === 0
      ? []
      : await db
          .select({
            offerId: payments.offerId,
            kind: payments.kind,
            amount: sql<number>`sum(${payments.amount})::bigint`.mapWith(Number),
          })
          .from(payments)
          .where(inArray(payments.offerId, offerIds))
          .groupBy(payments.offerId, payments.kind);
  for (const offer of chosen.values()) {
    const settlement = settlementOf(
      offer,
      sums.filter((row) => row.offerId === offer.id),
    );
    result.set(offer.requestId, {
      offerStatus: offer.status,
      currency: offer.currency,
      total: offer.total,
      paid: settlement.received - settlement.refunded,
      outstanding: settlement.outstanding,
    });
  }
  return result;
}
