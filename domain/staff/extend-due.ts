import { and, eq, sql } from "drizzle-orm";
import { withTransaction } from "../../db/client.ts";
import { guestRequests, guestRequestStatusHistory } from "../../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { REMINDER_SHARE, OPEN_STATUSES } from "../requests/lifecycle.ts";
import type { RequestKind } from "../requests/options.ts";
import { getRequestDetail, isUuid, type RequestDetail } from "./inbox.ts";
import type { StaffUser } from "./staff-user.ts";

export type ExtendDueResult =
  | { outcome: "changed"; request: RequestDetail }
  | { outcome: "not_found" }
  /** The new due time is not after now. */
  | { outcome: "not_future" }
  /** The request is no longer waiting for an answer (answered, or closed by the system). */
  | { outcome: "closed"; current: RequestDetail }
  /** Someone changed the request since `version`: nothing was written. */
  | { outcome: "conflict"; current: RequestDetail };

/**
 * Moves an open request's due time, as one staff member: in one transaction the due
 * time, a new reminder time (three quarters of the way from now to the new due time, and not yet
 * sent) and a `due` row in the history naming who and the new time. The row is locked first, so
 * the lifecycle job either expired the request before (the change is refused as `closed`) or
 * sees the new due time after.
 */
export async function extendRequestDue(
  deps: Pick<Deps, "db">,
  input: {
    id: string;
    kind: RequestKind;
    dueAt: Date;
    version?: number;
    actor: StaffUser;
    now?: Date;
  },
): Promise<ExtendDueResult> {
  if (!isUuid(input.id)) return { outcome: "not_found" };
  const now = input.now ?? new Date();
  if (input.dueAt.getTime() <= now.getTime()) return { outcome: "not_future" };
  const open = OPEN_STATUSES[input.kind === "membership" ? "membership" : "booking"];
  const result = await withTransaction(deps.db, async (db) => {
    const [current] = await db
      .select()
      .from(guestRequests)
      .where(and(eq(guestRequests.id, input.id), eq(guestRequests.kind, input.kind)))
      .for("update");
    if (!current) return "not_found" as const;
    if (input.version !== undefined && input.version !== current.version)
      return "conflict" as const;
    if (!open.includes(current.status)) return "closed" as const;
    const remindAt = new Date(
      now.getTime() + (input.dueAt.getTime() - now.getTime()) * REMINDER_SHARE,
    );
    await db
      .update(guestRequests)
      .set({
        dueAt: input.dueAt,
        remindAt,
        remindedAt: null,
        version: sql`${guestRequests.version} + 1`,
        updatedAt: now,
      })
      .where(eq(guestRequests.id, current.id));
    await db.insert(guestRequestStatusHistory).values({
      requestId: current.id,
      fromStatus: current.status,
      toStatus: current.status,
      changedBy: input.actor.email,
      changedByUserId: input.actor.id,
      event: "due",
      dueAt: input.dueAt,
      changedAt: now,
    });
    return "changed" as const;
  });
  if (result === "not_found") return { outcome: "not_found" };
  const request = await getRequestDetail(deps, input.id, input.kind);
  if (!request) return { outcome: "not_found" };
  if (result === "changed") return { outcome: "changed", request };
  return { outcome: result, current: request };
}
