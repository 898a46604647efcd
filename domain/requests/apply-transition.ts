import { and, eq, sql } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import {
  calendarFeeds,
  calendarImportAlerts,
  guestRequests,
  properties,
} from "#db/schema/index.ts";
import { translate } from "#i18n/translate.ts";
import type { CollidingEntry } from "../calendar/calendar.schema.ts";
import { findCollisions, findImportedBusy } from "../calendar/collisions.ts";
import type { Nights } from "../calendar/nights.ts";
import {
  holdStay,
  NightsTaken,
  releaseStay,
  retryOnTakenNights,
  stayOf,
} from "../calendar/stays.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { recordRequestEvent } from "../events/request-events.ts";
import { liveOfferOf } from "../offers/ledger.ts";
import { applyOfferTransition, withdrawSentOffer } from "./offer-transitions.ts";
import type { RequestKind } from "./options.ts";
import {
  decide,
  isDueTimeInRange,
  needsReason,
  processOf,
  type TransitionName,
} from "./process.ts";
import {
  type Actor,
  actorKindOf,
  type ApplyResult,
  dueTimesOf,
  type GuestRequestRow,
  guestLanguageOf,
  record,
  REMINDER_SHARE,
  SYSTEM_ACTOR,
  type Transition,
  windowFrom,
  writeStatus,
} from "./transition-writes.ts";

export {
  type Actor,
  type ApplyResult,
  dueTimesOf,
  type GuestRequestRow,
  type NewGuestRequestRow,
  type OfferTransition,
  REMINDER_SHARE,
  SYSTEM_ACTOR,
  type Transition,
} from "./transition-writes.ts";

/**
 * Carries out the request process (process.ts): the one place that writes a request's status,
 * its due times, its history and its events, and that holds or frees its nights. It sends
 * nothing: what follows a change (mail to the guest, staff and owners, webhooks) is a subscriber
 * of the events recorded here (mail-from-events.ts, webhooks/dispatch.ts). Every caller
 * hands in a row it has locked (`SELECT … FOR UPDATE`) in the transaction `tx`, so two
 * instances acting on one request queue on the row and the second sees the first's result.
 */

/**
 * Applies `transition` to the request `current` (locked by the caller in `tx`; null for
 * `submit`) as `actor`, at `now`. Refusals and no-ops write nothing. Throws NightsTaken when
 * the calendar refuses the nights (the transaction must then roll back: see
 * retryOnTakenNights).
 */
export async function applyTransition(
  tx: Database,
  current: GuestRequestRow | null,
  transition: Transition,
  actor: Actor,
  now: Date,
): Promise<ApplyResult> {
  if (transition.type === "submit") return submit(tx, transition, actor, now);
  if (!current) throw new Error("a transition other than submit needs the request's row");
  const chosen = transition.type === "set_status" ? transition.to : undefined;
  const decision = decide(
    current.kind,
    current.status,
    transition.type as TransitionName,
    actorKindOf(actor),
    chosen,
  );
  if (!decision.allowed) return { outcome: "refused", refusal: decision.refusal };
  switch (transition.type) {
    case "set_status":
      if (!decision.changes) return { outcome: "unchanged" };
      return setStatus(tx, current, transition, actor, now);
    case "expire":
      return expire(tx, current, now);
    case "remind":
      return remind(tx, current, now);
    case "set_due":
      return setDue(tx, current, transition, actor, now);
    case "set_stay":
      return setStay(tx, current, transition, actor, now);
    default:
      return applyOfferTransition(tx, current, transition, actor, now, decision.to);
  }
}

async function submit(
  tx: Database,
  transition: Extract<Transition, { type: "submit" }>,
  actor: Actor,
  now: Date,
): Promise<ApplyResult> {
  const { row } = transition;
  const decision = decide(row.kind, null, "submit", actorKindOf(actor));
  if (!decision.allowed) return { outcome: "refused", refusal: decision.refusal };
  const due =
    transition.responseHours === null
      ? { dueAt: null, remindAt: null }
      : dueTimesOf(now, transition.responseHours);
  const [inserted] = await tx
    .insert(guestRequests)
    .values({ ...row, status: decision.to, createdAt: now, updatedAt: now, ...due })
    .returning();
  if (!inserted) throw new Error("the request was not stored");
  // Its event brings the guest's confirmation, staff's notice and the estate owners' mail.
  await record(
    tx,
    inserted,
    actor,
    now,
    { fromStatus: null, toStatus: decision.to },
    { type: "request.created" },
  );
  return { outcome: "applied", from: null, to: decision.to, mailed: true };
}

/**
 * Entering the stay-holding status checks the calendar first: another stay or a block refuses
 * outright (NightsTaken), imported busy nights ask staff to confirm knowingly.
 */
async function checkNightsFree(
  tx: Database,
  current: GuestRequestRow,
  stay: { propertyId: number; nights: Nights },
  confirmOverImported: boolean,
): Promise<Extract<ApplyResult, { outcome: "imported_busy" }> | null> {
  // Another stay or a block refuses outright, whatever imported calendars say: read it first
  // so that staff are never asked to accept a busy time for nights they cannot have.
  const taken = await findCollisions(tx, stay.propertyId, stay.nights, {
    ignoreRequestId: current.id,
  });
  if (taken.length > 0) throw new NightsTaken(stay.propertyId, stay.nights);
  // A sync of the estate's feeds holds its feed's row until it commits: waiting for it here
  // means a busy time it brings is either read now (and warned of) or read by the sync after
  // this stay commits (and mailed), never missed by both.
  await tx
    .select({ id: calendarFeeds.id })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.propertyId, stay.propertyId))
    .for("share");
  const busy = await findImportedBusy(tx, stay.propertyId, stay.nights);
  const [first, ...rest] = busy;
  if (first && !confirmOverImported)
    return { outcome: "imported_busy", importedBusy: [first, ...rest] };
  // Staff confirmed knowingly: a later sync does not tell them of these collisions again.
  if (busy.length > 0)
    await tx
      .insert(calendarImportAlerts)
      .values(
        busy.map((entry) => ({
          feedId: entry.feedId,
          externalUid: entry.externalUid,
          requestId: current.id,
          cause: "confirmed" as const,
        })),
      )
      .onConflictDoNothing();
  return null;
}

async function setStatus(
  tx: Database,
  current: GuestRequestRow,
  transition: Extract<Transition, { type: "set_status" }>,
  actor: Actor,
  now: Date,
): Promise<ApplyResult> {
  const to = transition.to;
  const reason = transition.reason?.trim() || null;
  if (needsReason(current.kind, to) && !reason)
    return { outcome: "refused", refusal: "reason_required" };
  const process = processOf(current.kind);
  // A booking whose offer the guest accepted has money in play: it is cancelled (with its
  // refund worked out), or confirmed, never moved back by hand.
  const live = process.managed.length > 0 ? await liveOfferOf(tx, current.id) : null;
  if (live?.status === "accepted" && !process.holdsStay.includes(to))
    return { outcome: "refused", refusal: "offer_accepted" };
  const stay = stayOf(current);
  const holds = process.holdsStay.includes(to) && stay !== null;
  if (holds) {
    const busy = await checkNightsFree(tx, current, stay, Boolean(transition.confirmOverImported));
    if (busy) return busy;
  }
  // A closed request staff reopen gets its window again from now: without it, a request
  // reopened after its due time would be closed by the next lifecycle run.
  const reopened =
    current.dueAt !== null && !process.open.includes(current.status) && process.open.includes(to);
  const window = reopened
    ? windowFrom(now, (current.dueAt as Date).getTime() - current.createdAt.getTime())
    : null;
  await writeStatus(
    tx,
    current,
    to,
    now,
    window ? { dueAt: window.dueAt, remindAt: window.remindAt, remindedAt: null } : {},
  );
  // The calendar follows the status in the same transaction: a stay-holding status takes the
  // request's nights (refused by the database when taken), any other status frees them.
  if (holds) await holdStay(tx, current.id, stay);
  else await releaseStay(tx, current.id);
  if (live?.status === "sent") await withdrawSentOffer(tx, current.id, now);
  const notify = Boolean(transition.notifyGuest);
  const shared = Boolean(reason && transition.shareReason);
  await record(
    tx,
    current,
    actor,
    now,
    { toStatus: to, reason, reasonShared: shared },
    {
      type: "request.status_changed",
      extra: { previousStatus: current.status },
      // The reason goes no further than the guest's mail, and only when staff share it.
      internal: { notifyGuest: notify, sharedReason: shared ? reason : null },
    },
  );
  return { outcome: "applied", from: current.status, to, mailed: notify };
}

async function expire(tx: Database, current: GuestRequestRow, now: Date): Promise<ApplyResult> {
  if (current.dueAt === null || current.dueAt.getTime() > now.getTime())
    return { outcome: "refused", refusal: "not_due" };
  const to = processOf(current.kind).expiresTo;
  const language = guestLanguageOf(current);
  // The reason is stored as the guest reads it: their status page shows it as written.
  const reason = translate(language, "lifecycle.expiredReason");
  await writeStatus(tx, current, to, now);
  await releaseStay(tx, current.id);
  const system: Actor = { kind: "system" };
  // `request.expired` brings the guest's mail; the status change is said as for any other.
  await record(
    tx,
    current,
    system,
    now,
    { toStatus: to, reason, reasonShared: true },
    {
      type: "request.expired",
      extra: { previousStatus: current.status, dueAt: current.dueAt.toISOString() },
    },
  );
  await recordRequestEvent(tx, {
    type: "request.status_changed",
    requestId: current.id,
    actor: SYSTEM_ACTOR,
    extra: { previousStatus: current.status },
    occurredAt: now,
  });
  return { outcome: "applied", from: current.status, to, mailed: true };
}

async function remind(tx: Database, current: GuestRequestRow, now: Date): Promise<ApplyResult> {
  const due =
    current.remindedAt === null &&
    current.remindAt !== null &&
    current.remindAt.getTime() <= now.getTime() &&
    current.dueAt !== null &&
    current.dueAt.getTime() > now.getTime();
  if (!due) return { outcome: "refused", refusal: "not_due" };
  await tx.update(guestRequests).set({ remindedAt: now }).where(eq(guestRequests.id, current.id));
  // No history row: a reminder changes nothing staff or the guest see on the request.
  await recordRequestEvent(tx, {
    type: "request.reminder_due",
    requestId: current.id,
    actor: SYSTEM_ACTOR,
    internal: { dueAt: (current.dueAt as Date).toISOString() },
    occurredAt: now,
  });
  return { outcome: "applied", from: current.status, to: current.status, mailed: true };
}

async function setDue(
  tx: Database,
  current: GuestRequestRow,
  transition: Extract<Transition, { type: "set_due" }>,
  actor: Actor,
  now: Date,
): Promise<ApplyResult> {
  const { dueAt } = transition;
  if (!isDueTimeInRange(dueAt, now)) return { outcome: "refused", refusal: "out_of_range" };
  // Reminded again three quarters of the way from now to the new due time.
  const remindAt = new Date(now.getTime() + (dueAt.getTime() - now.getTime()) * REMINDER_SHARE);
  await tx
    .update(guestRequests)
    .set({ dueAt, remindAt, remindedAt: null, version: current.version + 1, updatedAt: now })
    .where(eq(guestRequests.id, current.id));
  await record(tx, current, actor, now, { toStatus: current.status, event: "due", dueAt });
  return { outcome: "applied", from: current.status, to: current.status, mailed: false };
}

async function setStay(
  tx: Database,
  current: GuestRequestRow,
  transition: Extract<Transition, { type: "set_stay" }>,
  actor: Actor,
  now: Date,
): Promise<ApplyResult> {
  const { propertyId, nights } = transition;
  const [estate] = await tx
    .select({ id: properties.id })
    .from(properties)
    .where(eq(properties.id, propertyId));
  if (!estate) return { outcome: "refused", refusal: "unknown_estate" };
  // A pending request is checked against the calendar too, so staff learn of a collision now
  // rather than at the confirmation.
  const collisions = await findCollisions(tx, propertyId, nights, { ignoreRequestId: current.id });
  if (collisions.length > 0) throw new NightsTaken(propertyId, nights);
  await tx
    .update(guestRequests)
    .set({
      propertyId,
      stayStart: nights.start,
      stayEnd: nights.end,
      version: sql`${guestRequests.version} + 1`,
      updatedAt: now,
    })
    .where(eq(guestRequests.id, current.id));
  const newEstate = current.propertyId !== propertyId;
  // The owners of a newly named estate hear of the request, as they would of a new one.
  await record(
    tx,
    current,
    actor,
    now,
    {
      toStatus: current.status,
      event: "stay",
      stayPropertyId: propertyId,
      stayStart: nights.start,
      stayEnd: nights.end,
    },
    newEstate ? { type: "request.estate_assigned" } : undefined,
  );
  if (processOf(current.kind).holdsStay.includes(current.status))
    await holdStay(tx, current.id, { propertyId, nights });
  return { outcome: "applied", from: current.status, to: current.status, mailed: newEstate };
}

export type RequestTransitionResult =
  | ApplyResult
  | { outcome: "not_found" }
  /** Someone changed the request since the version the caller read: nothing was written. */
  | { outcome: "conflict" }
  /** The nights are taken by another stay or a block: nothing was written. */
  | { outcome: "collision"; collidesWith: [CollidingEntry, ...CollidingEntry[]] };

/**
 * One transition on one request, in its own transaction: locks the request (of `kind`), checks
 * the caller's `version` when given, applies the transition at the clock's time, and turns the
 * calendar's refusal into `collision` (retryOnTakenNights).
 */
export async function transitionRequest(
  deps: Pick<Deps, "db" | "clock">,
  input: {
    id: string;
    kind: RequestKind;
    version?: number;
    transition: Exclude<Transition, { type: "submit" }>;
    actor: Actor;
  },
): Promise<RequestTransitionResult> {
  return retryOnTakenNights(
    () =>
      withTransaction(deps.db, async (tx): Promise<RequestTransitionResult> => {
        const [current] = await tx
          .select()
          .from(guestRequests)
          .where(and(eq(guestRequests.id, input.id), eq(guestRequests.kind, input.kind)))
          .for("update");
        if (!current) return { outcome: "not_found" };
        if (input.version !== undefined && input.version !== current.version)
          return { outcome: "conflict" };
        return applyTransition(tx, current, input.transition, input.actor, nowOf(deps));
      }),
    (taken) =>
      findCollisions(deps.db, taken.propertyId, taken.nights, { ignoreRequestId: input.id }),
  );
}
