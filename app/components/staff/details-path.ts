import type { RequestKind } from "#domain/requests/options.ts";

/** The inbox's address; a request's details are a route nested under it. */
export const INBOX_PATH = "/admin/booking-requests";

/** The `:collection` segment of the details route per kind (the staff API's names). */
export const DETAILS_COLLECTIONS: Record<RequestKind, string> = {
  booking_request: "booking-requests",
  property_booking: "bookings",
  membership: "applications",
};

/** The kind of a `:collection` segment, or null for an unknown one. */
export function kindOfCollection(collection: string): RequestKind | null {
  const found = Object.entries(DETAILS_COLLECTIONS).find(([, name]) => name === collection);
  return found ? (found[0] as RequestKind) : null;
}

/**
 * The details of one request over the inbox, keeping the inbox's search (its filters and page)
 * so that closing them goes back to the same view.
 */
export function detailsPathOf(kind: RequestKind, id: string, search: string): string {
  return `${INBOX_PATH}/${DETAILS_COLLECTIONS[kind]}/${encodeURIComponent(id)}${search}`;
}

/** The inbox with the same search, where closing the details goes. */
export function inboxPathOf(search: string): string {
  return `${INBOX_PATH}${search}`;
}
