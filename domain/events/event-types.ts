/**
 * The kinds of event Castellum records (browser-safe: the admin page and the contracts read the
 * first list).
 */

/** What systems outside Castellum may subscribe to by webhook. */
export const WEBHOOK_EVENT_TYPES = [
  "request.created",
  "request.status_changed",
  "request.expired",
  "request.message_received",
  "stay.confirmed",
  "block.changed",
  "offer.sent",
  "offer.accepted",
  "offer.declined",
  "offer.expired",
  "payment.recorded",
  "booking.cancelled",
  "guest.erased",
] as const;

/**
 * What only Castellum's own subscribers follow: steps of a request that call for mail but are
 * no news to an outside system (a reminder to staff, an estate newly named on a request, a staff
 * message to the guest, an imported busy time over a confirmed stay).
 */
export const INTERNAL_EVENT_TYPES = [
  "request.reminder_due",
  "request.estate_assigned",
  "request.message_sent",
  "calendar.import_collision",
  "payment.balance_reminder_due",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type InternalEventType = (typeof INTERNAL_EVENT_TYPES)[number];
export type EventType = WebhookEventType | InternalEventType;
