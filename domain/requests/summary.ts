import countryNames from "./country-names.json" with { type: "json" };
import type { RequestKind } from "./options.ts";

/** A translation function: i18next's `t` in the browser, `translate` bound to a language on the server. */
export type Translate = (key: string, params?: Record<string, unknown>) => string;

export interface SummaryRow {
  /** The field's name (its `forms.fields.*` label key): stable whatever the language. */
  key: string;
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
  const date = (key: string) => formatShortDate(text(key), language);
  const yesNo = (key: string) => t(details[key] === true ? "forms.yes" : "forms.no");
  const option = (group: string, key: string) =>
    text(key) ? t(`forms.options.${group}.${text(key)}`) : "";
  const options = (group: string, key: string) =>
    list(key)
      .map((value) => t(`${group}.${value}`))
      .join(", ");
  const rows: SummaryRow[] = [];
  /** A row for the field `key`, labelled `forms.fields.{key}`; empty values are left out. */
  const add = (key: string, value: string | number) => {
    const shown = String(value).trim();
    if (shown) rows.push({ key, label: t(`forms.fields.${key}`), value: shown });
  };

  if (kind === "booking_request") {
    add("name", `${text("firstName")} ${text("lastName")}`);
    add("email", text("email"));
    add("phoneNumber", text("phoneNumber"));
    add("countryOfResidence", countryName(text("countryOfResidence"), language));
    add("memberStatus", option("memberStatus", "memberStatus"));
    add("bookingType", options("forms.options.bookingType", "bookingType"));
    add("checkInDate", date("checkInDate"));
    add("checkOutDate", date("checkOutDate"));
    add("flexibleDates", yesNo("flexibleDates"));
    add("estimatedGuests", Number(details.estimatedGuests ?? 0));
    add("adults", Number(details.adults ?? 0));
    add("children", Number(details.children ?? 0));
    add("bedroomsRequired", Number(details.bedroomsRequired ?? 0));
    add("preferredRegion", options("regions", "preferredRegion"));
    add("preferredAmenities", options("amenities", "preferredAmenities"));
    add("requestedServices", options("forms.options.requestedServices", "requestedServices"));
    add("experienceStyle", options("forms.options.experienceStyle", "experienceStyle"));
    add("privacyPriority", yesNo("privacyPriority"));
    add("fullExclusivityNeeded", yesNo("fullExclusivityNeeded"));
    add("bookingGoal", text("bookingGoal"));
    add("heardAboutCastellum", option("heardAboutCastellum", "heardAboutCastellum"));
    add("specialRequests", text("specialRequests"));
  } else if (kind === "property_booking") {
    add("property", text("propertyName"));
    add("name", `${text("firstName")} ${text("lastName")}`);
    add("email", text("email"));
    add("phone", text("phone"));
    add("startDate", date("startDate"));
    add("endDate", date("endDate"));
    if (details.dateMode === "flexible")
      add(
        "flexibilityDays",
        t("forms.flexibleBy", { count: Number(details.flexibilityDays ?? 0) }),
      );
    add("numberOfGuests", Number(details.numberOfGuests ?? 0));
    add("castellumStatus", option("castellumStatus", "castellumStatus"));
    add("paymentMethod", option("paymentMethod", "paymentMethod"));
    add("specialRequests", text("specialRequests"));
  } else {
    add("name", `${option("title", "title")} ${text("firstName")} ${text("lastName")}`);
    add("gender", option("gender", "gender"));
    add("email", text("email"));
    add("otherClubMemberships", text("otherClubMemberships"));
    add("linkedinProfile", text("linkedinProfile"));
    add("instagramHandle", text("instagramHandle"));
    add("xHandle", text("xHandle"));
    add("interests", options("forms.options.interests", "interests"));
    add("reasonToJoin", text("reasonToJoin"));
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

/**
 * 'YYYY-MM-DD' as 'MMM dd, yyyy' in `language` ("Dec 25, 2026", "25 déc. 2026",
 * "2026年12月25日"); calendar dates: no time zone shift.
 */
/**
 * English dates keep the spec's two-digit day ("Feb 05, 2027"); the other languages write the
 * day as their readers do ("5 févr. 2027", 2027年2月5日, never 2月05日).
 */
export const dayDigits = (language: string): "2-digit" | "numeric" =>
  language.startsWith("en") ? "2-digit" : "numeric";

export function formatShortDate(value: string, language: string): string {
  if (!value) return "";
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(language, {
    year: "numeric",
    month: "short",
    day: dayDigits(language),
    timeZone: "UTC",
  }).format(date);
}

/** 'YYYY-MM-DD' as a long date in `language` (calendar dates: no time zone shift). */
export function formatDate(value: string, language: string): string {
  if (!value) return "";
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" }).format(date);
}
