import type { RequestKind } from "../requests/options.ts";

/**
 * Where the staff API keeps each kind of request, under /api: every kind is read and changed
 * under the path that creates it (spec point 7 names /api/booking-requests; the others follow
 * the same shape). Shared by the server's routes, the OpenAPI document and the staff pages.
 */
export const STAFF_COLLECTIONS: Record<RequestKind, string> = {
  booking_request: "/booking-requests",
  property_booking: "/bookings",
  membership: "/membership/applications",
};
