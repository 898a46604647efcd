import { randomUUID } from "node:crypto";
import type { Database } from "#db/client.ts";
import { domainEvents } from "#db/schema/index.ts";

/** The events systems outside Castellum can subscribe to. */
export const EVENT_TYPES = [
  "request.created",
  "request.status_changed",
  "request.expired",
  "request.message_received",
  "stay.confirmed",
  "block.changed",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface DomainEvent {
  type: EventType;
  /**
   * What happened, without guest contact details. For request events: `collection`, `id`,
   * `reference`, `status` (and `previousStatus` for a change), `propertyId`/`propertySlug` when
   * the request concerns an estate, `stayStart`/`stayEnd` when known, and `actor`
   * ("guest", "system", or "staff:<email>"/"owner").
   */
  data: Record<string, unknown>;
  /** Guest contact details (name, email, phone), sent only where an admin allowed them. */
  contact?: Record<string, unknown>;
}

/**
 * Records an event. Call it with the transaction that makes the change: the event then exists
 * if and only if the change committed, and its delivery is the dispatcher's concern.
 */
export async function recordEvent(db: Database, event: DomainEvent): Promise<string> {
  const id = randomUUID();
  await db.insert(domainEvents).values({
    id,
    type: event.type,
    data: event.data,
    contact: event.contact ?? null,
  });
  return id;
}
