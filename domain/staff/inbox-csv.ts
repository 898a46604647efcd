import { countryName, type Translate } from "../requests/summary.ts";
import { STATUS_KEYS } from "../requests/options.ts";
import type { InboxItem } from "./inbox.ts";

/** The export's columns, in order; each header is `staff.columns.{column}` in the staff's language. */
export const CSV_COLUMNS = [
  "reference",
  "status",
  "submitted",
  "firstName",
  "lastName",
  "email",
  "phone",
  "country",
  "memberStatus",
  "property",
  "checkIn",
  "checkOut",
  "adults",
  "children",
  "guests",
  "bookingType",
  "language",
] as const;

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, and the tab or carriage return that
 * some programs strip first) is prefixed with an apostrophe, so guest input stays text (CSV
 * injection). Everything else goes out as it is; the CSV writer quotes what needs quoting.
 */
export function spreadsheetSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** One request as CSV cells, in CSV_COLUMNS order. */
export function csvRowOf(item: InboxItem, language: string, t: Translate): string[] {
  const d = item.details;
  const text = (key: string) => (typeof d[key] === "string" ? (d[key] as string) : "");
  const number = (key: string) => (typeof d[key] === "number" ? String(d[key]) : "");
  const list = (key: string) => (Array.isArray(d[key]) ? (d[key] as string[]) : []);
  const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
    reference: item.reference,
    status: t(`staff.statuses.${STATUS_KEYS[item.status]}`),
    submitted: item.createdAt,
    firstName: item.firstName,
    lastName: item.lastName,
    email: item.email,
    phone: item.phone,
    country: text("countryOfResidence") ? countryName(text("countryOfResidence"), language) : "",
    memberStatus: item.memberStatus ? t(`forms.options.memberStatus.${item.memberStatus}`) : "",
    property: text("propertyName"),
    checkIn: text("checkInDate") || text("startDate"),
    checkOut: text("checkOutDate") || text("endDate"),
    adults: number("adults"),
    children: number("children"),
    guests: number("estimatedGuests") || number("numberOfGuests"),
    bookingType: list("bookingType")
      .map((type) => t(`forms.options.bookingType.${type}`))
      .join(", "),
    language: item.language,
  };
  return CSV_COLUMNS.map((column) => spreadsheetSafe(cells[column]));
}
