import { countryName } from "../../../domain/requests/summary.ts";
import type { InboxItem } from "../../../domain/staff/inbox.ts";
import type { Language } from "../../../i18n/config.ts";
import type { InboxRow } from "../../components/staff/inbox-row.ts";

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() ? value : null;
const count = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;
const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];

/**
 * An inbox item as a table row: only what the columns show travels to the browser (the page's
 * data is sent twice, in the HTML and for hydration), with the country already named.
 */
export function toInboxRow(item: InboxItem, language: Language): InboxRow {
  const details = item.details;
  const base = {
    id: item.id,
    kind: item.kind,
    reference: item.reference,
    status: item.status,
    version: item.version,
    name: `${item.firstName} ${item.lastName}`.trim(),
    email: item.email,
    phone: item.phone,
    memberStatus: null,
    propertyName: null,
    propertyId: item.propertyId,
    country: null,
    checkIn: null,
    checkOut: null,
    guests: null,
    tags: [],
    createdAt: item.createdAt,
  } satisfies InboxRow;
  if (item.kind === "booking_request") {
    const country = text(details.countryOfResidence);
    return {
      ...base,
      country: country ? countryName(country, language) : null,
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
  }
  if (item.kind === "property_booking")
    return {
      ...base,
      propertyName: text(details.propertyName),
      checkIn: text(details.startDate),
      checkOut: text(details.endDate),
      guests: { total: count(details.numberOfGuests) ?? 0, adults: null, children: null },
    };
  return { ...base, tags: list(details.interests) };
}
