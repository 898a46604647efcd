import { and, eq } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { guestRequests, guestRequestStatusHistory } from "#db/schema/index.ts";
import { isLanguage, type Language } from "#i18n/config.ts";
import type { ImportedBusy } from "../calendar/calendar.schema.ts";
import type { Nights } from "../calendar/nights.ts";
import type { EventType } from "../events/event-types.ts";
import { type EventActor, recordRequestEvent } from "../events/request-events.ts";
import type { OfferDraft } from "../offers/build-offer.ts";
import type { RequestStatus } from "./options.ts";
import type { ActorKind, Refusal } from "./process.ts";

/**
 * What every transition of the request process writes the same way: the request's new status
 * and version, one history row with its event, and the windows staff answer in. Shared by
 * apply-transition.ts and offer-transitions.ts, the only callers.
 */

export type GuestRequestRow = typeof guestRequests.$inferSelect;
export type NewGuestRequestRow = Omit<
  typeof guestRequests.$inferInsert,
  "status" | "version" | "createdAt" | "updatedAt" | "dueAt" | "remindAt" | "remindedAt"
>;

export type Actor =
  { kind: "guest" } | { kind: "system" } | { kind: "staff"; id: string; email: string };

/** Who the history names for a guest or the system. */
export const SYSTEM_ACTOR = "system" as const;

/** The share of the window after which staff are reminded. */
export const REMINDER_SHARE = 0.75;

export type Transition =
  | {
      type: "submit";
      row: NewGuestRequestRow;
      /** The hours staff have to answer; null: the request never expires. */
      responseHours: number | null;
    }
  | {
      type: "set_status";
      to: RequestStatus;
      reason?: string | null;
      /** Whether the guest's status page (and mail) shows the reason. */
      shareReason?: boolean;
      notifyGuest?: boolean;
      /** Confirm although imported calendars mark some of the nights busy. */
      confirmOverImported?: boolean;
    }
  | { type: "expire" }
  | { type: "remind" }
  | { type: "set_due"; dueAt: Date }
  | {
      type: "set_stay";
      propertyId: number;
      nights: Nights;
    }
  | OfferTransition;

/** The transitions of an offer (offer-transitions.ts). */
export type OfferTransition =
  | { type: "send_offer"; draft: OfferDraft }
  | { type: "withdraw_offer"; offerId: string }
  | {
      type: "accept_offer";
      offerId: string;
      /** DEPOSIT_DUE_HOURS: how long the nights are held for the deposit. */
      depositHours: number;
    }
  | { type: "decline_offer"; offerId: string }
  | { type: "expire_offer"; offerId: string }
  | { type: "confirm_paid" }
  | { type: "expire_deposit" }
  | { type: "cancel"; reason?: string | null };

export type ApplyResult =
  | {
      outcome: "applied";
      from: RequestStatus | null;
      to: RequestStatus;
      /** Whether the change calls for mail (the mail job may look at its events at once). */
      mailed: boolean;
      /** The offer a `send_offer` wrote. */
      offerId?: string;
    }
  /** A move to the status the request already has: nothing written, nothing sent. */
  | { outcome: "unchanged" }
  | {
      outcome: "refused";
      refusal:
        | Refusal
        /** A refusal status without a reason. */
        | "reason_required"
        /** Expiry or a reminder before its time. */
        | "not_due"
        /** A due time that is not after now, or more than DUE_MAX_DAYS ahead. */
        | "out_of_range"
        /** No such estate. */
        | "unknown_estate"
        /** No live offer with this id on the request. */
        | "offer_not_found"
        /** The offer's time ran out before the guest answered. */
        | "offer_expired"
        /** The request has an accepted offer: only cancelling it (or confirming) moves it. */
        | "offer_accepted"
        /** The guest may not cancel: the policy no longer refunds anything, or the stay began. */
        | "cancel_not_allowed";
    }
  /** Confirmed, but imported calendars hold some of the nights: nothing was written. */
  | { outcome: "imported_busy"; importedBusy: [ImportedBusy, ...ImportedBusy[]] };

export const actorKindOf = (actor: Actor): ActorKind => actor.kind;

export const changedByOf = (actor: Actor): { changedBy: string; changedByUserId: string | null } =>
  actor.kind === "staff"
    ? { changedBy: actor.email, changedByUserId: actor.id }
    : { changedBy: actor.kind === "guest" ? "guest" : SYSTEM_ACTOR, changedByUserId: null };

export const eventActorOf = (actor: Actor): EventActor => actor.kind;

/** The due and reminder times of a window of `hours` starting at `from`. */
export function dueTimesOf(from: Date, hours: number): { dueAt: Date; remindAt: Date } {
  return windowFrom(from, hours * 3_600_000);
}

export function windowFrom(from: Date, ms: number): { dueAt: Date; remindAt: Date } {
  return {
    dueAt: new Date(from.getTime() + ms),
    remindAt: new Date(from.getTime() + ms * REMINDER_SHARE),
  };
}

export const guestLanguageOf = (row: { language: string }): Language =>
  isLanguage(row.language) ? row.language : "en";

/**
 * One row of a request's history and the event that says it happened, written together so that
 * neither exists without the other.
 */
export async function record(
  tx: Database,
  current: Pick<GuestRequestRow, "id" | "status">,
  actor: Actor,
  now: Date,
  history: Omit<
    typeof guestRequestStatusHistory.$inferInsert,
    "requestId" | "changedBy" | "changedByUserId" | "changedAt" | "fromStatus"
  > & { fromStatus?: RequestStatus | null },
  event?: { type: EventType; extra?: Record<string, unknown>; internal?: Record<string, unknown> },
): Promise<void> {
  await tx.insert(guestRequestStatusHistory).values({
    fromStatus: current.status,
    ...history,
    requestId: current.id,
    ...changedByOf(actor),
    changedAt: now,
  });
  if (event)
    await recordRequestEvent(tx, {
      ...event,
      requestId: current.id,
      actor: eventActorOf(actor),
      occurredAt: now,
    });
}

/** Writes the new status and version, guarded by the version the caller locked. */
export async function writeStatus(
  tx: Database,
  current: GuestRequestRow,
  to: RequestStatus,
  now: Date,
  extra: Partial<typeof guestRequests.$inferInsert> = {},
): Promise<void> {
  const written = await tx
    .update(guestRequests)
    .set({ status: to, version: current.version + 1, updatedAt: now, ...extra })
    .where(and(eq(guestRequests.id, current.id), eq(guestRequests.version, current.version)))
    .returning({ id: guestRequests.id });
  // The caller holds the row's lock: a different version means a caller forgot to lock it.
  if (written.length === 0) throw new Error(`request ${current.id} changed under its lock`);
}
