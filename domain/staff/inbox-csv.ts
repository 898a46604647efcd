import { countryName, type Translate } from "../requests/summary.ts";
import { STATUS_KEYS } from "../requests/options.ts";
import type { Deps } from "../deps.ts";
import type { Language } from "#i18n/config.ts";
import { type InboxItem, streamInboxBatches } from "./inbox.ts";
import type { InboxFilter } from "./inbox.schema.ts";
import { nameEstates } from "./estate-names.ts";
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

/**
 * One request as CSV cells, in CSV_COLUMNS order, each made safe for spreadsheets (csvCell).
 * `estateNames` names the estates in the export's language (nameEstates); without a name there,
 * the estate is named as the guest read it.
 */
export function csvRowOf(
  item: InboxItem,
  language: string,
  t: Translate,
  estateNames: Record<number, string> = {},
): string[] {
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
    property:
      (item.propertyId !== null ? estateNames[item.propertyId] : undefined) ??
      facts.propertyName ??
      "",
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

/**
 * Every request matching the filter as CSV rows, in page order: a batch of requests, then their
 * estates' names in the reader's language in one statement per batch.
 */
export async function* streamInboxCsv(
  deps: Pick<Deps, "db">,
  filter: InboxFilter,
  language: Language,
  t: Translate,
): AsyncGenerator<string[]> {
  for await (const batch of streamInboxBatches(deps, filter)) {
    const names = await nameEstates(deps, {
      language,
      ids: batch.map((item) => item.propertyId),
    });
    for (const item of batch) yield csvRowOf(item, language, t, names);
  }
}
