import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { offers } from "#db/schema/index.ts";
import { translate } from "#i18n/translate.ts";
import { findCollisions } from "../calendar/collisions.ts";
import { holdStay, NightsTaken, releaseStay } from "../calendar/stays.ts";
import { recordRequestEvent } from "../events/request-events.ts";
import { liveOfferOf, type OfferRow, settlementOfOffer } from "../offers/ledger.ts";
import { refundablePercent, refundDue } from "../pricing/cancellation.ts";
import { CANCELLATION_POLICIES, type CancellationPolicy } from "../pricing/rates.schema.ts";
import type { RequestStatus } from "./options.ts";
import { processOf } from "./process.ts";
import {
  type Actor,
  type ApplyResult,
  type GuestRequestRow,
  guestLanguageOf,
  type OfferTransition,
  record,
  SYSTEM_ACTOR,
  windowFrom,
  writeStatus,
} from "./transition-writes.ts";

/**
 * The offer's part of the request process: staff send a price, the guest accepts or declines
 * it, the system expires it, confirms the booking once the deposit is in the ledger, or
 * cancels it when the deposit is not. Called by `applyTransition` only, after `decide` allowed
 * the transition, with the request's row locked; the offer's row is locked here before it
 * changes, so a double click or two instances act once.
 */

const policyOf = (value: string): CancellationPolicy =>
  (CANCELLATION_POLICIES as readonly string[]).includes(value)
    ? (value as CancellationPolicy)
    : "strict";

/** Staff's window again, from now, for a request coming back to them (as a reopened one does). */
function newWindow(current: GuestRequestRow, now: Date) {
  if (current.dueAt === null) return {};
  const window = windowFrom(now, current.dueAt.getTime() - current.createdAt.getTime());
  return { dueAt: window.dueAt, remindAt: window.remindAt, remindedAt: null };
}

async function lockedOffer(tx: Database, requestId: string, offerId?: string) {
  const offer = await liveOfferOf(tx, requestId, { lock: true });
  if (!offer || (offerId !== undefined && offer.id !== offerId)) return null;
  return offer;
}

const offerFacts = (offer: OfferRow) => ({
  offerId: offer.id,
  currency: offer.currency,
  total: offer.total,
  deposit: offer.deposit,
  balance: offer.balance,
});

async function setOfferStatus(
  tx: Database,
  offer: OfferRow,
  status: OfferRow["status"],
  now: Date,
  extra: Partial<typeof offers.$inferInsert> = {},
) {
  await tx
    .update(offers)
    .set({ status, answeredAt: now, ...extra })
    .where(and(eq(offers.id, offer.id), eq(offers.status, offer.status)));
}

/** The offer still out on a request staff move by hand is withdrawn with the move. */
export async function withdrawSentOffer(tx: Database, requestId: string, now: Date) {
  const offer = await liveOfferOf(tx, requestId, { lock: true });
  if (offer?.status === "sent") await setOfferStatus(tx, offer, "withdrawn", now);
}

export async function applyOfferTransition(
  tx: Database,
  current: GuestRequestRow,
  transition: OfferTransition,
  actor: Actor,
  now: Date,
  to: RequestStatus,
): Promise<ApplyResult> {
  const from = current.status;
  switch (transition.type) {
    case "send_offer": {
      const { draft } = transition;
      if (current.propertyId !== draft.propertyId)
        return { outcome: "refused", refusal: "unknown_estate" };
      await withdrawSentOffer(tx, current.id, now);
      const id = randomUUID();
      await tx.insert(offers).values({
        id,
        requestId: current.id,
        propertyId: draft.propertyId,
        status: "sent",
        currency: draft.currency,
        lines: draft.lines as unknown as Record<string, unknown>[],
        tax: draft.tax,
        taxIncluded: draft.taxIncluded,
        total: draft.total,
        deposit: draft.deposit,
        balance: draft.balance,
        balanceDueOn: draft.balanceDueOn,
        checkIn: draft.checkIn,
        checkOut: draft.checkOut,
        guests: draft.guests,
        cancellationPolicy: draft.cancellationPolicy,
        note: draft.note,
        expiresAt: draft.expiresAt,
        createdBy: actor.kind === "staff" ? actor.email : SYSTEM_ACTOR,
        createdAt: now,
      });
      await writeStatus(tx, current, to, now);
      await record(
        tx,
        current,
        actor,
        now,
        { toStatus: to },
        {
          type: "offer.sent",
          extra: {
            offerId: id,
            currency: draft.currency,
            total: draft.total,
            deposit: draft.deposit,
            balance: draft.balance,
            expiresAt: draft.expiresAt.toISOString(),
          },
        },
      );
      return { outcome: "applied", from, to, mailed: true, offerId: id };
    }
    case "withdraw_offer":
    case "decline_offer":
    case "expire_offer": {
      const offer = await lockedOffer(tx, current.id, transition.offerId);
      if (!offer || offer.status !== "sent")
        return { outcome: "refused", refusal: "offer_not_found" };
      if (transition.type === "expire_offer" && offer.expiresAt.getTime() > now.getTime())
        return { outcome: "refused", refusal: "not_due" };
      const status =
        transition.type === "withdraw_offer"
          ? "withdrawn"
          : transition.type === "decline_offer"
            ? "declined"
            : "expired";
      await setOfferStatus(tx, offer, status, now);
      await writeStatus(tx, current, to, now, newWindow(current, now));
      await record(
        tx,
        current,
        actor,
        now,
        { toStatus: to },
        transition.type === "withdraw_offer"
          ? { type: "request.status_changed", extra: { previousStatus: from, offerId: offer.id } }
          : {
              type: transition.type === "decline_offer" ? "offer.declined" : "offer.expired",
              extra: { previousStatus: from, ...offerFacts(offer) },
            },
      );
      return { outcome: "applied", from, to, mailed: transition.type !== "withdraw_offer" };
    }
    case "accept_offer": {
      const offer = await lockedOffer(tx, current.id, transition.offerId);
      if (!offer || offer.status !== "sent")
        return { outcome: "refused", refusal: "offer_not_found" };
      if (offer.expiresAt.getTime() <= now.getTime())
        return { outcome: "refused", refusal: "offer_expired" };
      const nights = { start: offer.checkIn, end: offer.checkOut };
      // Another stay or a block on the nights refuses the acceptance, and the database's
      // exclusion constraint refuses it again should one arrive between the read and the write.
      const taken = await findCollisions(tx, offer.propertyId, nights, {
        ignoreRequestId: current.id,
      });
      if (taken.length > 0) throw new NightsTaken(offer.propertyId, nights);
      // Nothing asked up front: the booking is confirmed as it is accepted.
      const status: RequestStatus =
        offer.deposit > 0 ? to : (processOf(current.kind).holdsStay.at(-1) ?? to);
      const depositDueAt =
        offer.deposit > 0 ? new Date(now.getTime() + transition.depositHours * 3_600_000) : null;
      await setOfferStatus(tx, offer, "accepted", now, { depositDueAt });
      await writeStatus(tx, current, status, now);
      await holdStay(tx, current.id, { propertyId: offer.propertyId, nights }, actor.kind);
      await record(
        tx,
        current,
        actor,
        now,
        { toStatus: status },
        {
          type: "offer.accepted",
          extra: {
            previousStatus: from,
            ...offerFacts(offer),
            depositDueAt: depositDueAt?.toISOString() ?? null,
          },
        },
      );
      await recordRequestEvent(tx, {
        type: "request.status_changed",
        requestId: current.id,
        actor: actor.kind,
        extra: { previousStatus: from },
        occurredAt: now,
      });
      return { outcome: "applied", from, to: status, mailed: true };
    }
    case "confirm_paid": {
      const offer = await lockedOffer(tx, current.id);
      if (!offer || offer.status !== "accepted") return { outcome: "refused", refusal: "not_due" };
      const settlement = await settlementOfOffer(tx, offer);
      if (settlement.depositOutstanding > 0) return { outcome: "refused", refusal: "not_due" };
      await writeStatus(tx, current, to, now);
      await record(
        tx,
        current,
        actor,
        now,
        { toStatus: to },
        {
          type: "request.status_changed",
          extra: { previousStatus: from },
          internal: { notifyGuest: true, sharedReason: null },
        },
      );
      return { outcome: "applied", from, to, mailed: true };
    }
    case "expire_deposit": {
      const offer = await lockedOffer(tx, current.id);
      if (
        !offer ||
        offer.status !== "accepted" ||
        offer.depositDueAt === null ||
        offer.depositDueAt.getTime() > now.getTime()
      )
        return { outcome: "refused", refusal: "not_due" };
      const settlement = await settlementOfOffer(tx, offer);
      if (settlement.depositOutstanding === 0) return { outcome: "refused", refusal: "not_due" };
      const reason = translate(guestLanguageOf(current), "offers.depositUnpaidReason");
      await writeStatus(tx, current, to, now);
      await releaseStay(tx, current.id);
      await tx
        .update(offers)
        .set({ refundDue: settlement.received })
        .where(eq(offers.id, offer.id));
      await record(
        tx,
        current,
        actor,
        now,
        { toStatus: to, reason, reasonShared: true },
        {
          type: "booking.cancelled",
          extra: {
            previousStatus: from,
            cause: "deposit_unpaid",
            ...offerFacts(offer),
            refundDue: settlement.received,
          },
        },
      );
      await recordRequestEvent(tx, {
        type: "request.status_changed",
        requestId: current.id,
        actor: SYSTEM_ACTOR,
        extra: { previousStatus: from },
        occurredAt: now,
      });
      return { outcome: "applied", from, to, mailed: true };
    }
    case "cancel": {
      const offer = await lockedOffer(tx, current.id);
      const today = now.toISOString().slice(0, 10);
      let refund = 0;
      if (offer?.status === "accepted") {
        const settlement = await settlementOfOffer(tx, offer);
        const policy = policyOf(offer.cancellationPolicy);
        if (
          actor.kind === "guest" &&
          (offer.checkIn <= today || refundablePercent(policy, offer.checkIn, today) === 0)
        )
          return { outcome: "refused", refusal: "cancel_not_allowed" };
        refund = refundDue(
          policy,
          {
            total: offer.total,
            paid: settlement.received - settlement.refunded,
            checkIn: offer.checkIn,
          },
          today,
        );
        await tx.update(offers).set({ refundDue: refund }).where(eq(offers.id, offer.id));
      } else if (actor.kind === "guest")
        return { outcome: "refused", refusal: "cancel_not_allowed" };
      const reason = transition.reason?.trim() || null;
      await writeStatus(tx, current, to, now);
      await releaseStay(tx, current.id);
      await record(
        tx,
        current,
        actor,
        now,
        { toStatus: to, reason, reasonShared: Boolean(reason) },
        {
          type: "booking.cancelled",
          extra: {
            previousStatus: from,
            cause: actor.kind === "guest" ? "guest" : "staff",
            ...(offer ? offerFacts(offer) : {}),
            refundDue: refund,
          },
        },
      );
      await recordRequestEvent(tx, {
        type: "request.status_changed",
        requestId: current.id,
        actor: actor.kind,
        extra: { previousStatus: from },
        occurredAt: now,
      });
      return { outcome: "applied", from, to, mailed: true };
    }
  }
}
