import type { Deps } from "../deps.ts";
import type { CollidingEntry, StayKind } from "../calendar/calendar.schema.ts";
import type { Nights } from "../calendar/nights.ts";
import { getRequestDetail, type RequestDetail } from "../staff/inbox.ts";
import type { StaffUser } from "../staff/staff-user.ts";
import { transitionRequest } from "./apply-transition.ts";
import { isUuid } from "../uuid.ts";

export type SetStayResult =
  | { outcome: "changed"; request: RequestDetail }
  | { outcome: "not_found" }
  | { outcome: "unknown_estate" }
  | { outcome: "conflict"; current: RequestDetail }
  | { outcome: "collision"; collidesWith: [CollidingEntry, ...CollidingEntry[]] };

/**
 * Staff set the estate and nights a booking request (or property booking) would take: "assign
 * an estate" on a general request, or exact dates for a flexible one. Recorded in the history.
 * A Confirmed request moves its stay in the same transaction, refused (409) if the new nights
 * are taken; a pending one is checked against the calendar too, so staff learn of a collision
 * now rather than at the confirmation.
 */
export async function setRequestStay(
  deps: Pick<Deps, "db" | "log" | "clock">,
  input: {
    id: string;
    kind: StayKind;
    propertyId: number;
    nights: Nights;
    version?: number;
    actor: StaffUser;
  },
): Promise<SetStayResult> {
  const { id, kind, propertyId, nights, actor } = input;
  if (!isUuid(id)) return { outcome: "not_found" };
  const result = await transitionRequest(deps, {
    id,
    kind,
    version: input.version,
    actor: { kind: "staff", id: actor.id, email: actor.email },
    transition: { type: "set_stay", propertyId, nights },
  });
  switch (result.outcome) {
    case "not_found":
    case "collision":
      return result;
    case "refused":
      // A stay kind takes any stay in any status: an unknown estate is the one refusal left.
      return { outcome: "unknown_estate" };
    case "imported_busy":
    case "unchanged":
      throw new Error(`setting a stay cannot end as ${result.outcome}`);
    default:
      break;
  }
  const request = await getRequestDetail(deps, id, kind);
  if (!request) return { outcome: "not_found" };
  if (result.outcome === "conflict") return { outcome: "conflict", current: request };
  deps.log.info({ requestId: id, propertyId, nights, by: actor.id }, "request stay set");
  return { outcome: "changed", request };
}
