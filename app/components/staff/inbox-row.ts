import type { RequestKind, RequestStatus } from "#domain/requests/options.ts";
import type { CollidingEntry, ImportedBusy } from "#domain/calendar/calendar.schema.ts";
import type { RequestMoney } from "#domain/offers/offer.schema.ts";
import type { RequestFacts } from "#domain/staff/request-facts.ts";

/**
 * One row of the inbox table as the page draws it: the inbox's columns, adapted per
 * kind. Option values stay keys (translated when drawn); the country is already a name.
 */
export interface InboxRow extends Omit<RequestFacts, "countryCode"> {
  id: string;
  kind: RequestKind;
  reference: string;
  status: RequestStatus;
  /** The version a status change is made against (a newer one is a conflict). */
  version: number;
  name: string;
  country: string | null;
  email: string;
  phone: string;
  propertyId: number | null;
  createdAt: string;
  /** When the system closes it if still open; null: never. */
  dueAt: string | null;
  /** Open and past its due time. */
  overdue: boolean;
  /** The guest's messages no member of staff has read yet. */
  unreadMessages: number;
  /** The guest's personal data was erased (retention or on request): no name, no contact. */
  erased: boolean;
  /** Where its money stands (offer, deposit, balance, refund); null without an offer in play. */
  money: RequestMoney | null;
  /** Whether the estate's owner agrees (their latest view), null when none given. */
  ownerAgrees: boolean | null;
}

/** What a status change needs to know about the request it changes. */
export interface StatusTarget {
  kind: RequestKind;
  id: string;
  reference: string;
  name: string;
  status: RequestStatus;
  version: number;
  /** Known on the details: the stays and blocks its nights collide with (confirming is refused). */
  collisions?: readonly CollidingEntry[];
  /** Known on the details: busy times of imported calendars on its nights (confirm knowingly). */
  importedBusy?: readonly ImportedBusy[];
}

/** The option group of a kind's tags (`forms.options.{group}.{key}`). */
export function tagGroupOf(kind: RequestKind): string | null {
  if (kind === "booking_request") return "forms.options.bookingType";
  if (kind === "membership") return "forms.options.interests";
  return null;
}
