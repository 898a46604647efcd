import type { RequestKind, RequestStatus } from "../../../domain/requests/options.ts";

/**
 * One row of the inbox table as the page draws it: the columns of spec point 2, adapted per
 * kind. Option values stay keys (translated when drawn); the country is already a name.
 */
export interface InboxRow {
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
  /** Member status key (`forms.options.memberStatus.*`), booking requests only. */
  memberStatus: string | null;
  propertyName: string | null;
  propertyId: number | null;
  checkIn: string | null;
  checkOut: string | null;
  guests: { total: number; adults: number | null; children: number | null } | null;
  /** Booking types (booking requests) or interests (membership), as option keys. */
  tags: string[];
  createdAt: string;
}

/** What a status change needs to know about the request it changes. */
export interface StatusTarget {
  kind: RequestKind;
  id: string;
  reference: string;
  name: string;
  status: RequestStatus;
  version: number;
}

/** The option group of a kind's tags (`forms.options.{group}.{key}`). */
export function tagGroupOf(kind: RequestKind): string | null {
  if (kind === "booking_request") return "forms.options.bookingType";
  if (kind === "membership") return "forms.options.interests";
  return null;
}
