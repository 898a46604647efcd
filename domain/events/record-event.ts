import { randomUUID } from "node:crypto";
import type { Database } from "#db/client.ts";
import { domainEvents } from "#db/schema/index.ts";
import type { EventType } from "./event-types.ts";

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
  /** What Castellum's own subscribers need to act on it; never sent to a receiver. */
  internal?: Record<string, unknown>;
  /** When it happened, by the writer's clock (the database's time when not given). */
  occurredAt?: Date;
}

/**
 * Records an event. Call it with the transaction that makes the change: the event then exists
 * if and only if the change committed, and what follows from it (webhooks, mail) is its
 * subscribers' concern.
 */
export async function recordEvent(db: Database, event: DomainEvent): Promise<string> {
  const id = randomUUID();
  await db.insert(domainEvents).values({
    id,
    type: event.type,
    data: event.data,
    contact: event.contact ?? null,
    internal: event.internal ?? null,
    ...(event.occurredAt ? { occurredAt: event.occurredAt } : {}),
  });
  return id;
}
