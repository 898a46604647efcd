import type { RequestKind, RequestStatus } from "../requests/options.ts";
import { PROCESSES } from "../requests/process.ts";

/**
 * The owner in the loop's shared constants, free of the database so the
 * contract and the dashboard can import them.
 */

/** The two kinds of request that concern an estate, under their staff collection names. */
export const OWNER_REQUEST_COLLECTIONS = {
  bookings: "property_booking",
  "booking-requests": "booking_request",
} as const satisfies Record<string, Exclude<RequestKind, "membership">>;
export type OwnerRequestCollection = keyof typeof OWNER_REQUEST_COLLECTIONS;

/** The collection of a request of either kind. */
export const COLLECTION_OF_KIND: Record<string, OwnerRequestCollection> = {
  property_booking: "bookings",
  booking_request: "booking-requests",
};

/** The statuses on which an owner's view still matters: staff have not decided yet. */
export const PENDING_STATUSES: readonly RequestStatus[] = PROCESSES.booking.open;

/** The longest note an owner may add to a view. */
export const OWNER_VIEW_NOTE_MAX_LENGTH = 1000;

/** How many requests the list shows, newest first. */
export const OWNER_REQUESTS_LIMIT = 200;

/**
 * Whether the request's nights are free on the estate's calendar: `held` when the request is
 * confirmed and holds them, `free` or `taken` (by a confirmed stay or a block) for a pending
 * one, `null` when it has no nights or is closed.
 */
export type NightsState = "free" | "taken" | "held" | null;
