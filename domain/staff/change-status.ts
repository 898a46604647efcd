import { and, eq, sql } from "drizzle-orm";
import { withTransaction } from "../../db/client.ts";
import {
  calendarFeeds,
  calendarImportAlerts,
  guestRequestNotes,
  guestRequests,
  guestRequestStatusHistory,
} from "../../db/schema/index.ts";
import { isLanguage } from "../../i18n/config.ts";
import type { Deps } from "../deps.ts";
import { recordRequestEvent } from "../events/request-events.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { renderStatusChange } from "../mail/templates.ts";
import { REFUSAL_STATUSES, type RequestKind, statusesOf } from "../requests/options.ts";
import { OPEN_STATUSES } from "../requests/lifecycle-statuses.ts";
import { getRequestDetail, isUuid, type RequestDetail, type RequestNote } from "./inbox.ts";
import type { StatusChange } from "./inbox.schema.ts";
import type { StaffUser } from "./staff-user.ts";
import type { CollidingEntry, ImportedBusy } from "../calendar/calendar.schema.ts";
import { findCollisions, findImportedBusy } from "../calendar/collisions.ts";
import {
  holdStay,
  NightsTaken,
  releaseStay,
  retryOnTakenNights,
  stayOf,
} from "../calendar/stays.ts";

export type ChangeStatusResult =
  | { outcome: "changed"; request: RequestDetail; mailed: boolean }
  | { outcome: "not_found" }
  /** The status is not one requests of this kind can have. */
  | { outcome: "invalid_status" }
  /** Rejected and Declined need a reason. */
  | { outcome: "reason_required" }
  /** Someone changed the request since `version`: nothing was written. */
  | { outcome: "conflict"; current: RequestDetail }
  /** Confirmed, but its nights are taken by a stay or block of the estate: nothing was written. */
  | { outcome: "collision"; collidesWith: [CollidingEntry, ...CollidingEntry[]] }
  /**
   * Confirmed, but imported calendars hold some of the nights and `confirmOverImported` was not
   * given: nothing was written.
   */
  | { outcome: "imported_busy"; importedBusy: [ImportedBusy, ...ImportedBusy[]] };

/**
 * Changes a request's status as one staff member. In one transaction: the status and version
 * move on only if the request is still at `change.version` (when given), the history records
 * who, when, from, to and why, and the guest's mail (if asked for) joins the outbox. A second
 * person changing the same request from the same version gets `conflict`, not a silent overwrite.
 */
export async function changeRequestStatus(
  deps: Pick<Deps, "db" | "log">,
  input: { id: string; kind: RequestKind; change: StatusChange; actor: StaffUser },
  hooks: { onMailQueued?: () => void } = {},
): Promise<ChangeStatusResult> {
  const { change, actor, kind } = input;
  if (!isUuid(input.id)) return { outcome: "not_found" };
  if (!statusesOf(kind).includes(change.status)) return { outcome: "invalid_status" };
  const reason = change.reason?.trim() || null;
  if (REFUSAL_STATUSES.includes(change.status) && !reason) return { outcome: "reason_required" };

  const result = await retryOnTakenNights(
    () =>
      withTransaction(deps.db, async (db) => {
        // Locks the row: concurrent changes to one request queue here and see each other's version.
        const [current] = await db
          .select()
          .from(guestRequests)
          .where(and(eq(guestRequests.id, input.id), eq(guestRequests.kind, kind)))
          .for("update");
        if (!current) return { outcome: "not_found" } as const;
        if (change.version !== undefined && change.version !== current.version)
          return { outcome: "conflict" } as const;
        const stay = stayOf(current);
        const confirming = change.status === "Confirmed" && current.status !== "Confirmed";
        if (confirming && stay) {
          // Another stay or a block refuses outright, whatever imported calendars say: read it
          // first so that staff are never asked to accept a busy time for nights they cannot have.
          const taken = await findCollisions(db, stay.propertyId, stay.nights, {
            ignoreRequestId: current.id,
          });
          if (taken.length > 0) throw new NightsTaken(stay.propertyId, stay.nights);
          // A sync of the estate's feeds holds its feed's row until it commits: waiting for it
          // here means a busy time it brings is either read now (and warned of) or read by the
          // sync after this stay commits (and mailed), never missed by both.
          await db
            .select({ id: calendarFeeds.id })
            .from(calendarFeeds)
            .where(eq(calendarFeeds.propertyId, stay.propertyId))
            .for("share");
          const busy = await findImportedBusy(db, stay.propertyId, stay.nights);
          const [first, ...rest] = busy;
          if (first && !change.confirmOverImported)
            return {
              outcome: "imported_busy" as const,
              importedBusy: [first, ...rest] as [ImportedBusy, ...ImportedBusy[]],
            };
          // Staff confirmed knowingly: a later sync does not tell them of these collisions again.
          if (busy.length > 0)
            await db
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
        }
        // A closed request staff reopen gets its window again from now: without it, a
        // request reopened after its due time would be closed by the next lifecycle run.
        const open = OPEN_STATUSES[kind === "membership" ? "membership" : "booking"];
        const reopened =
          current.dueAt !== null && !open.includes(current.status) && open.includes(change.status);
        const window = sql`(${guestRequests.dueAt} - ${guestRequests.createdAt})`;
        await db
          .update(guestRequests)
          .set({
            status: change.status,
            version: sql`${guestRequests.version} + 1`,
            updatedAt: sql`now()`,
            ...(reopened
              ? {
                  dueAt: sql`now() + ${window}`,
                  remindAt: sql`now() + ${window} * 0.75`,
                  remindedAt: null,
                }
              : {}),
          })
          .where(eq(guestRequests.id, current.id));
        // The calendar follows the status in the same transaction: Confirmed takes the request's
        // nights (refused by the database when taken), any other status frees them.
        if (change.status === "Confirmed" && stay) {
          await holdStay(db, current.id, stay);
        } else if (change.status !== "Confirmed") await releaseStay(db, current.id);
        await db.insert(guestRequestStatusHistory).values({
          requestId: current.id,
          fromStatus: current.status,
          toStatus: change.status,
          changedBy: actor.email,
          changedByUserId: actor.id,
          reason,
          reasonShared: Boolean(reason && change.shareReason),
        });
        if (current.status !== change.status)
          await recordRequestEvent(db, {
            type: "request.status_changed",
            requestId: current.id,
            actor: "staff",
            extra: { previousStatus: current.status },
          });
        if (change.notifyGuest) {
          const language = isLanguage(current.language) ? current.language : "en";
          await enqueueMail(db, [
            {
              template: `${kind}.status`,
              recipient: current.email,
              requestId: current.id,
              ...renderStatusChange(
                {
                  kind,
                  reference: current.reference,
                  language,
                  firstName: current.firstName,
                  lastName: current.lastName,
                  email: current.email,
                  details: current.details,
                },
                { status: change.status, reason: change.shareReason ? reason : null },
                null,
              ),
            },
          ]);
        }
        return { outcome: "changed" } as const;
      }),
    (taken) =>
      findCollisions(deps.db, taken.propertyId, taken.nights, { ignoreRequestId: input.id }),
  );

  if (
    result.outcome === "not_found" ||
    result.outcome === "collision" ||
    result.outcome === "imported_busy"
  )
    return result;
  const request = await getRequestDetail(deps, input.id, kind);
  if (!request) return { outcome: "not_found" };
  if (result.outcome === "conflict") return { outcome: "conflict", current: request };
  if (change.notifyGuest) hooks.onMailQueued?.();
  deps.log.info(
    {
      requestId: input.id,
      status: change.status,
      by: actor.id,
      mailed: change.notifyGuest,
      overImported: change.confirmOverImported,
    },
    "request status changed",
  );
  return { outcome: "changed", request, mailed: change.notifyGuest };
}

/** Adds an internal note to a request; null when the request does not exist. */
export async function addRequestNote(
  deps: Pick<Deps, "db">,
  input: { id: string; kind: RequestKind; body: string; author: StaffUser },
): Promise<RequestNote | null> {
  if (!isUuid(input.id)) return null;
  const [request] = await deps.db
    .select({ id: guestRequests.id })
    .from(guestRequests)
    .where(and(eq(guestRequests.id, input.id), eq(guestRequests.kind, input.kind)));
  if (!request) return null;
  const [note] = await deps.db
    .insert(guestRequestNotes)
    .values({
      requestId: request.id,
      authorId: input.author.id,
      authorName: input.author.displayName,
      body: input.body,
    })
    .returning();
  if (!note) return null;
  return {
    id: note.id,
    authorName: note.authorName,
    body: note.body,
    createdAt: note.createdAt.toISOString(),
  };
}
