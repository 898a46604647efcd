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
