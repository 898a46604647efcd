import { countryName, type Translate } from "../requests/summary.ts";
import { STATUS_KEYS } from "../requests/options.ts";
import type { InboxItem } from "./inbox.ts";
import { requestFactsOf } from "./request-facts.ts";
import { csvCell } from "../csv/safe-csv.ts";

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

/** One request as CSV cells, in CSV_COLUMNS order, each made safe for spreadsheets (csvCell). */
export function csvRowOf(item: InboxItem, language: string, t: Translate): string[] {
  const facts = requestFactsOf(item);
  const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
    reference: item.reference,
    status: t(`staff.statuses.${STATUS_KEYS[item.status]}`),
    submitted: item.createdAt,
    firstName: item.firstName,
    lastName: item.lastName,
    email: item.email,
    phone: item.phone,
    country: facts.countryCode ? countryName(facts.countryCode, language) : "",
    memberStatus: facts.memberStatus ? t(`forms.options.memberStatus.${facts.memberStatus}`) : "",
    property: facts.propertyName ?? "",
    checkIn: facts.checkIn ?? "",
    checkOut: facts.checkOut ?? "",
    adults: facts.guests?.adults?.toString() ?? "",
    children: facts.guests?.children?.toString() ?? "",
    guests: facts.guests?.total.toString() ?? "",
    bookingType:
      item.kind === "booking_request"
        ? facts.tags.map((type) => t(`forms.options.bookingType.${type}`)).join(", ")
        : "",
    language: item.language,
  };
  return CSV_COLUMNS.map((column) => csvCell(cells[column]));
}
