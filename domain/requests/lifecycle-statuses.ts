import type { RequestStatus } from "./options.ts";

/**
 * The statuses in which a request is still waiting for staff: at its due time the
 * lifecycle job closes a request in one of these. Without database code, for the pages too.
 */
export const OPEN_STATUSES: Record<"booking" | "membership", readonly RequestStatus[]> = {
  booking: ["New", "Contacted", "In progress"],
  membership: ["New", "Contacted", "In review"],
};
