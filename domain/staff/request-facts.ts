import type { InboxItem } from "./inbox.ts";

/**
 * The facts the inbox shows of a request, read out of its stored form once for every kind:
 * the table's columns and the CSV export take them from here. Option values stay keys
 * (translated where they are shown); the country is its ISO code.
 */
export interface RequestFacts {
  countryCode: string | null;
  /** Member status key (`forms.options.memberStatus.*`), booking requests only. */
  memberStatus: string | null;
  propertyName: string | null;
  checkIn: string | null;
  checkOut: string | null;
  guests: { total: number; adults: number | null; children: number | null } | null;
  /** Booking types (booking requests) or interests (membership), as option keys. */
  tags: string[];
}

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() ? value : null;
const count = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;
const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];

export function requestFactsOf(item: InboxItem): RequestFacts {
  const details = item.details;
  const none: RequestFacts = {
    countryCode: null,
    memberStatus: null,
    propertyName: null,
    checkIn: null,
    checkOut: null,
    guests: null,
    tags: [],
  };
  if (item.kind === "booking_request")
    return {
      ...none,
      countryCode: text(details.countryOfResidence),
      memberStatus: item.memberStatus ?? text(details.memberStatus),
      checkIn: text(details.checkInDate),
      checkOut: text(details.checkOutDate),
      guests: {
        total:
          count(details.estimatedGuests) ??
          (count(details.adults) ?? 0) + (count(details.children) ?? 0),
        adults: count(details.adults),
        children: count(details.children),
      },
      tags: list(details.bookingType),
    };
  if (item.kind === "property_booking")
    return {
      ...none,
      propertyName: text(details.propertyName),
      checkIn: text(details.startDate),
      checkOut: text(details.endDate),
      guests: { total: count(details.numberOfGuests) ?? 0, adults: null, children: null },
    };
  return { ...none, tags: list(details.interests) };
}
