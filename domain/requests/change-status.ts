import { and, eq } from "drizzle-orm";
import { guestRequestNotes, guestRequests } from "#db/schema/index.ts";
import type { Deps } from "../deps.ts";
import type { RequestKind } from "./options.ts";
import { transitionRequest } from "./apply-transition.ts";
import { getRequestDetail, type RequestDetail, type RequestNote } from "../staff/inbox.ts";
import type { StatusChange } from "../staff/inbox.schema.ts";
import type { StaffUser } from "../staff/staff-user.ts";
import type { CollidingEntry, ImportedBusy } from "../calendar/calendar.schema.ts";
import { isUuid } from "../uuid.ts";

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
 * Changes a request's status as one staff member, through the request process: the status and
 * version move on only if the request is still at `change.version` (when given), the history
 * records who, when, from, to and why, and the guest's mail (if asked for) joins the outbox, in
 * one transaction. A second person changing the same request from the same version gets
 * `conflict`, not a silent overwrite. A move to the status the request already has changes
 * nothing and mails no one; it answers the request as it stands.
 */
export async function changeRequestStatus(
  deps: Pick<Deps, "db" | "log" | "clock">,
  input: { id: string; kind: RequestKind; change: StatusChange; actor: StaffUser },
  hooks: { onMailQueued?: () => void } = {},
): Promise<ChangeStatusResult> {
  const { change, actor, kind } = input;
  if (!isUuid(input.id)) return { outcome: "not_found" };
  const result = await transitionRequest(deps, {
    id: input.id,
    kind,
    version: change.version,
    actor: { kind: "staff", id: actor.id, email: actor.email },
    transition: {
      type: "set_status",
      to: change.status,
      reason: change.reason,
      shareReason: change.shareReason,
      notifyGuest: change.notifyGuest,
      confirmOverImported: change.confirmOverImported,
    },
  });
  switch (result.outcome) {
    case "not_found":
    case "collision":
    case "imported_busy":
      return result;
    case "refused":
      // Staff may take any status of the kind from any status: the one refusals left are these.
      return result.refusal === "reason_required"
        ? { outcome: "reason_required" }
        : { outcome: "invalid_status" };
    default:
      break;
  }
  const request = await getRequestDetail(deps, input.id, kind);
  if (!request) return { outcome: "not_found" };
  if (result.outcome === "conflict") return { outcome: "conflict", current: request };
  const mailed = result.outcome === "applied" && result.mailed;
  if (mailed) hooks.onMailQueued?.();
  if (result.outcome === "applied")
    deps.log.info(
      {
        requestId: input.id,
        status: change.status,
        by: actor.id,
        mailed,
        overImported: change.confirmOverImported,
      },
      "request status changed",
    );
  return { outcome: "changed", request, mailed };
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
