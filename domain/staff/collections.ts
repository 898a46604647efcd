import type { RequestKind } from "../requests/options.ts";

/**
 * Where the staff API keeps each kind of request, under /api: every kind is read and changed
 * under the path that creates it (/api/booking-requests; the others follow
 * the same shape). Shared by the server's routes, the OpenAPI document and the staff pages.
 */
export const STAFF_COLLECTIONS: Record<RequestKind, string> = {
  booking_request: "/booking-requests",
  property_booking: "/bookings",
  membership: "/membership/applications",
};

/** The `:collection` segment of the staff area's details route per kind. */
const DETAILS_SEGMENTS: Record<RequestKind, string> = {
  booking_request: "booking-requests",
  property_booking: "bookings",
  membership: "applications",
};

/**
 * The address of one request's details in the staff inbox (staff mails link straight
 * to it), the inbox behind it showing the request's kind. Matches app/components/staff/
 * details-path.ts, which the pages use.
 */
export function staffDetailsUrl(publicUrl: string, kind: RequestKind, id: string): string {
  const search = kind === "booking_request" ? "" : `?kind=${kind}`;
  return `${publicUrl}/admin/booking-requests/${DETAILS_SEGMENTS[kind]}/${encodeURIComponent(id)}${search}`;
}
