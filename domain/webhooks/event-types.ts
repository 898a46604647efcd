import type { EventType } from "../events/record-event.ts";

/**
 * The event types an endpoint may subscribe to, for the browser (the admin page, the
 * contract): record-event.ts holds the same list but imports the database. The two checks
 * below fail the type check the moment the lists differ.
 */
export const WEBHOOK_EVENT_TYPES = [
  "request.created",
  "request.status_changed",
  "request.expired",
  "request.message_received",
  "stay.confirmed",
  "block.changed",
] as const satisfies readonly EventType[];

type Listed = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Every EventType is listed (a missing one makes this `false`, and the line below fail). */
const everyTypeListed: EventType extends Listed ? true : false = true;
void everyTypeListed;
