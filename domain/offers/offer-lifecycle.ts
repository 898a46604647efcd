import { and, eq, inArray, isNotNull, isNull, lte } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import { guestRequests, offers } from "#db/schema/index.ts";
import { addDays } from "../calendar/nights.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { recordRequestEvent } from "../events/request-events.ts";
import { type Actor, applyTransition } from "../requests/apply-transition.ts";
import { settlementOfOffer } from "./ledger.ts";

/**
 * The offer's deadlines, run by the lifecycle job on every instance: an offer unanswered at its
 * expiry expires; an accepted offer whose deposit is not in the ledger when due releases its
 * nights and cancels the booking; a balance still owed is reminded to the guest
 * BALANCE_REMINDER_DAYS before it falls due. Exactly once, as the request lifecycle: each run
 * locks the requests it acts on (SKIP LOCKED: another instance takes others), the transition
 * checks the deadline again once locked, and the event that brings the mail is written in the
 * same transaction.
 */

const SYSTEM: Actor = { kind: "system" };

/** Days before the balance's due date the guest is reminded. */
export const BALANCE_REMINDER_DAYS = 7;

export interface OfferLifecycleReport {
  offersExpired: number;
  depositsExpired: number;
  balancesReminded: number;
}

/** Locks up to `batch` requests whose live offer matches `where`, skipping those held elsewhere. */
async function lockDue(tx: Database, where: ReturnType<typeof and>, batch: number) {
  return tx
    .select({ request: guestRequests, offerId: offers.id })
    .from(guestRequests)
    .innerJoin(offers, eq(offers.requestId, guestRequests.id))
    .where(where)
    .orderBy(guestRequests.id)
    .limit(batch)
    .for("update", { of: guestRequests, skipLocked: true });
}

async function drain(
  deps: Pick<Deps, "db">,
  batch: number,
  step: (tx: Database) => Promise<{ seen: number; done: number }>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const { seen, done } = await withTransaction(deps.db, step);
    total += done;
    // A full batch of rows none of which could be acted on would come back the same: stop.
    if (seen < batch || done === 0) return total;
  }
}

export async function runOfferLifecycle(
  deps: Pick<Deps, "db" | "clock">,
  options: { batchSize?: number } = {},
): Promise<OfferLifecycleReport> {
  const now = nowOf(deps);
  const today = now.toISOString().slice(0, 10);
  const batch = options.batchSize ?? 50;

  const offersExpired = await drain(deps, batch, async (tx) => {
    const rows = await lockDue(
      tx,
      and(
        eq(offers.status, "sent"),
        lte(offers.expiresAt, now),
        eq(guestRequests.status, "Offered"),
      ),
      batch,
    );
    let done = 0;
    for (const { request, offerId } of rows) {
      const result = await applyTransition(
        tx,
        request,
        { type: "expire_offer", offerId },
        SYSTEM,
        now,
      );
      if (result.outcome === "applied") done += 1;
    }
    return { seen: rows.length, done };
  });

  const depositsExpired = await drain(deps, batch, async (tx) => {
    const rows = await lockDue(
      tx,
      and(
        eq(offers.status, "accepted"),
        isNotNull(offers.depositDueAt),
        lte(offers.depositDueAt, now),
        eq(guestRequests.status, "Awaiting deposit"),
      ),
      batch,
    );
    let done = 0;
    for (const { request } of rows) {
      const result = await applyTransition(tx, request, { type: "expire_deposit" }, SYSTEM, now);
      if (result.outcome === "applied") done += 1;
    }
    // A deposit due but paid meanwhile is confirmed by its payment; one left here is paid in
    // part or the request moved on: it is not looked at again on the next run.
    return { seen: rows.length, done };
  });

  const balancesReminded = await drain(deps, batch, async (tx) => {
    const rows = await lockDue(
      tx,
      and(
        eq(offers.status, "accepted"),
        isNull(offers.balanceRemindedAt),
        isNotNull(offers.balanceDueOn),
        lte(offers.balanceDueOn, addDays(today, BALANCE_REMINDER_DAYS)),
        inArray(guestRequests.status, ["Confirmed"]),
      ),
      batch,
    );
    let done = 0;
    for (const { request, offerId } of rows) {
      const [offer] = await tx.select().from(offers).where(eq(offers.id, offerId)).for("update");
      if (!offer || offer.balanceRemindedAt !== null) continue;
      // Stamped whether or not anything is owed, so a paid balance is not looked at again.
      await tx.update(offers).set({ balanceRemindedAt: now }).where(eq(offers.id, offerId));
      const settlement = await settlementOfOffer(tx, offer);
      if (settlement.outstanding === 0) continue;
      await recordRequestEvent(tx, {
        type: "payment.balance_reminder_due",
        requestId: request.id,
        actor: "system",
        internal: {
          offerId,
          outstanding: settlement.outstanding,
          currency: offer.currency,
          dueOn: offer.balanceDueOn,
        },
        occurredAt: now,
      });
      done += 1;
    }
    return { seen: rows.length, done };
  });

  return { offersExpired, depositsExpired, balancesReminded };
}
