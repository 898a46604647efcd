import type { Deps } from "../deps.ts";
import { nowOf } from "../clock.ts";
import { transitionRequest } from "./apply-transition.ts";
import type { RequestKind } from "./options.ts";
import { isDueTimeInRange } from "./process.ts";
import { getRequestDetail, type RequestDetail } from "../staff/inbox.ts";
import { isUuid } from "../uuid.ts";
import type { StaffUser } from "../staff/staff-user.ts";

export type ExtendDueResult =
  | { outcome: "changed"; request: RequestDetail }
  | { outcome: "not_found" }
  /** The new due time is not after now, or more than DUE_MAX_DAYS ahead. */
  | { outcome: "out_of_range" }
  /** The request is no longer waiting for an answer (answered, or closed by the system). */
  | { outcome: "closed"; current: RequestDetail }
  /** Someone changed the request since `version`: nothing was written. */
  | { outcome: "conflict"; current: RequestDetail };

/**
 * Moves an open request's due time, as one staff member, through the request process: in one
 * transaction the due time, a new reminder time (three quarters of the way from now to the new
 * due time, and not yet sent) and a `due` row in the history naming who and the new time. The
 * row is locked first, so the lifecycle job either expired the request before (the change is
 * refused as `closed`) or sees the new due time after.
 */
export async function extendRequestDue(
  deps: Pick<Deps, "db" | "clock">,
  input: {
    id: string;
    kind: RequestKind;
    dueAt: Date;
    version?: number;
    actor: StaffUser;
  },
): Promise<ExtendDueResult> {
  if (!isUuid(input.id)) return { outcome: "not_found" };
  // Refused before the row is read: a time out of range is a mistake whatever the request's state.
  if (!isDueTimeInRange(input.dueAt, nowOf(deps))) return { outcome: "out_of_range" };
  const result = await transitionRequest(deps, {
    id: input.id,
    kind: input.kind,
    version: input.version,
    actor: { kind: "staff", id: input.actor.id, email: input.actor.email },
    transition: { type: "set_due", dueAt: input.dueAt },
  });
  if (result.outcome === "not_found") return { outcome: "not_found" };
  if (result.outcome === "refused" && result.refusal === "out_of_range")
    return { outcome: "out_of_range" };
  const request = await getRequestDetail(deps, input.id, input.kind);
  if (!request) return { outcome: "not_found" };
  if (result.outcome === "applied") return { outcome: "changed", request };
  if (result.outcome === "conflict") return { outcome: "conflict", current: request };
  // The process moves the due time of an open request only.
  return { outcome: "closed", current: request };
}
