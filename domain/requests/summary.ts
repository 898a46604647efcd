import countryNames from "./country-names.json" with { type: "json" };
import type { RequestKind } from "./options.ts";

/** A translation function: i18next's `t` in the browser, `translate` bound to a language on the server. */
export type Translate = (key: string, params?: Record<string, unknown>) => string;

export interface SummaryRow {
  label: string;
  value: string;
}

type Details = Record<string, unknown>;

/**
 * The rows a guest (status page, confirmation mail) and staff (notification) see for a stored
 * request, in one language. Values are plain text: whoever renders them escapes them.
 */
export function summarizeRequest(
  kind: RequestKind,
  details: Details,
  language: string,
  t: Translate,
): SummaryRow[] {
  const text = (key: string) => (typeof details[key] === "string" ? (details[key] as string) : "");
  const list = (key: string) => (Array.isArray(details[key]) ? (details[key] as string[]) : []);
  const date = (key: string) => formatDate(text(key), language);
  const yesNo = (key: string) => t(details[key] === true ? "forms.yes" : "forms.no");
  const option = (group: string, key: string) =>
    text(key) ? t(`forms.options.${group}.${text(key)}`) : "";
  const options = (group: string, key: string) =>
    list(key)
      .map((value) => t(`${group}.${value}`))
      .join(", ");
  const field = (name: string) => t(`forms.fields.${name}`);
  const rows: SummaryRow[] = [];
  const add = (label: string, value: string | number) => {
    const shown = String(value).trim();
    if (shown) rows.push({ label, value: shown });
  };

  if (kind === "booking_request") {
    add(field("name"), `${text("firstName")} ${text("lastName")}`);
    add(field("email"), text("email"));
    add(field("phoneNumber"), text("phoneNumber"));
    add(field("countryOfResidence"), countryName(text("countryOfResidence"), language));
    add(field("memberStatus"), option("memberStatus", "memberStatus"));
    add(field("bookingType"), options("forms.options.bookingType", "bookingType"));
    add(field("dates"), `${date("checkInDate")} – ${date("checkOutDate")}`);
    add(field("flexibleDates"), yesNo("flexibleDates"));
    add(field("estimatedGuests"), Number(details.estimatedGuests ?? 0));
    add(field("adults"), Number(details.adults ?? 0));
    add(field("children"), Number(details.children ?? 0));
    add(field("bedroomsRequired"), Number(details.bedroomsRequired ?? 0));
    add(field("preferredRegion"), options("regions", "preferredRegion"));
    add(field("preferredAmenities"), options("amenities", "preferredAmenities"));
    add(
      field("requestedServices"),
      options("forms.options.requestedServices", "requestedServices"),
    );
    add(field("experienceStyle"), options("forms.options.experienceStyle", "experienceStyle"));
    add(field("privacyPriority"), yesNo("privacyPriority"));
    add(field("fullExclusivityNeeded"), yesNo("fullExclusivityNeeded"));
    add(field("bookingGoal"), text("bookingGoal"));
    add(field("heardAboutCastellum"), option("heardAboutCastellum", "heardAboutCastellum"));
    add(field("specialRequests"), text("specialRequests"));
  } else if (kind === "property_booking") {
    add(field("property"), text("propertyName"));
    add(field("name"), `${text("firstName")} ${text("lastName")}`);
    add(field("email"), text("email"));
    add(field("phone"), text("phone"));
    add(field("dates"), `${date("startDate")} – ${date("endDate")}`);
    if (details.dateMode === "flexible")
      add(
        field("flexibilityDays"),
        t("forms.flexibleBy", { count: Number(details.flexibilityDays ?? 0) }),
      );
    add(field("numberOfGuests"), Number(details.numberOfGuests ?? 0));
    add(field("castellumStatus"), option("castellumStatus", "castellumStatus"));
    add(field("paymentMethod"), option("paymentMethod", "paymentMethod"));
    add(field("specialRequests"), text("specialRequests"));
  } else {
    add(field("name"), `${option("title", "title")} ${text("firstName")} ${text("lastName")}`);
    add(field("gender"), option("gender", "gender"));
    add(field("email"), text("email"));
    add(field("otherClubMemberships"), text("otherClubMemberships"));
    add(field("linkedinProfile"), text("linkedinProfile"));
    add(field("instagramHandle"), text("instagramHandle"));
    add(field("xHandle"), text("xHandle"));
    add(field("interests"), options("forms.options.interests", "interests"));
    add(field("reasonToJoin"), text("reasonToJoin"));
  }
  return rows;
}

/** The ~195 countries in `language`, sorted for that language (the form's list). */
export function countryOptions(language: string): { value: string; label: string }[] {
  const names =
    (countryNames as Record<string, Record<string, string>>)[language] ?? countryNames.en;
  const collator = new Intl.Collator(language);
  return Object.entries(names)
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => collator.compare(a.label, b.label));
}

export function countryName(code: string, language: string): string {
  const names = countryNames as Record<string, Record<string, string>>;
  return names[language]?.[code] ?? names.en?.[code] ?? code;
}

/** 'YYYY-MM-DD' as a long date in `language` (calendar dates: no time zone shift). */
export function formatDate(value: string, language: string): string {
  if (!value) return "";
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" }).format(date);
}
