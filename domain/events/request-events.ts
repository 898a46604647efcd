import { eq } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { guestRequests, properties } from "#db/schema/index.ts";
import type { RequestKind } from "../requests/options.ts";
import type { EventType } from "./event-types.ts";
import { recordEvent } from "./record-event.ts";

/** A request kind as events name it: the collection slug of the staff API. */
export const EVENT_COLLECTIONS: Record<RequestKind, string> = {
  booking_request: "booking-requests",
  property_booking: "bookings",
  membership: "memberships",
};

export type EventActor = "guest" | "system" | "staff" | "owner";

/**
 * Records an event about a request, read as it stands in `tx` (call it after the change):
 * `data` holds collection, id, reference, status, the estate (id and slug) and the nights when
 * known, and the actor; `contact` the guest's name, email and phone, which only endpoints an
 * admin allowed receive. Answers the event's id, or null when there is no such request.
 */
export async function recordRequestEvent(
  tx: Database,
  input: {
    type: EventType;
    requestId: string;
    actor: EventActor;
    extra?: Record<string, unknown>;
    /** For Castellum's own subscribers only (see DomainEvent.internal). */
    internal?: Record<string, unknown>;
    occurredAt?: Date;
  },
): Promise<string | null> {
  const [request] = await tx
    .select({
      kind: guestRequests.kind,
      reference: guestRequests.reference,
      status: guestRequests.status,
      propertyId: guestRequests.propertyId,
      propertySlug: properties.slug,
      stayStart: guestRequests.stayStart,
      stayEnd: guestRequests.stayEnd,
      firstName: guestRequests.firstName,
      lastName: guestRequests.lastName,
      email: guestRequests.email,
      phone: guestRequests.phone,
      erasedAt: guestRequests.erasedAt,
    })
    .from(guestRequests)
    .leftJoin(properties, eq(properties.id, guestRequests.propertyId))
    .where(eq(guestRequests.id, input.requestId));
  if (!request) return null;
  return recordEvent(tx, {
    type: input.type,
    data: {
      collection: EVENT_COLLECTIONS[request.kind],
      id: input.requestId,
      reference: request.reference,
      status: request.status,
      ...(request.propertyId !== null
        ? { propertyId: request.propertyId, propertySlug: request.propertySlug }
        : {}),
      ...(request.stayStart && request.stayEnd
        ? { stayStart: request.stayStart, stayEnd: request.stayEnd }
        : {}),
      actor: input.actor,
      ...input.extra,
    },
    // Once the guest's data is erased there is no contact to carry.
    contact: request.erasedAt
      ? undefined
      : {
          firstName: request.firstName,
          lastName: request.lastName,
          email: request.email,
          ...(request.phone ? { phone: request.phone } : {}),
        },
    internal: input.internal,
    occurredAt: input.occurredAt,
  });
}
