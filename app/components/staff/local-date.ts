/**
 * Calendar dates written the way the page's language writes them, for the inbox's date filters.
 * A native `<input type="date">` follows the browser's locale, not the page's (a Chinese page
 * in an American browser asks for mm/dd/yyyy), so the filters are text fields in the page's
 * order (en: 12/25/2026; fr, it: 25/12/2026; zh: 2026/12/25) that also take ISO dates.
 */

type Part = "day" | "month" | "year";

/** The order of day, month and year in `language`'s numeric dates. */
export function datePartOrder(language: string): Part[] {
  const parts = new Intl.DateTimeFormat(language, {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    timeZone: "UTC",
  }).formatToParts(new Date(Date.UTC(2026, 11, 25)));
  return parts
    .map((part) => part.type)
    .filter((type): type is Part => type === "day" || type === "month" || type === "year");
}

/** 'YYYY-MM-DD' as `language` writes it with digits and slashes (12/25/2026, 2026/12/25). */
export function formatLocalDate(iso: string | undefined, language: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso ?? "");
  if (!match) return iso ?? "";
  const [, year, month, day] = match;
  const value: Record<Part, string> = { year: year!, month: month!, day: day! };
  return datePartOrder(language)
    .map((part) => value[part])
    .join("/");
}

/**
 * What a person typed, read in `language`'s order ('25/12/2026', '25.12.2026', '2026年12月25日'),
 * or an ISO date, as 'YYYY-MM-DD'; null when it is no real date. Empty stays empty.
 */
export function parseLocalDate(text: string, language: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return "";
  const numbers = trimmed.match(/\d+/g) ?? [];
  if (numbers.length !== 3) return null;
  const order: Part[] = /^\d{4}\D/.test(trimmed)
    ? ["year", "month", "day"]
    : datePartOrder(language);
  const value = Object.fromEntries(
    order.map((part, index) => [part, Number(numbers[index])]),
  ) as Record<Part, number>;
  if (value.year < 1000 || value.year > 9999) return null;
  const date = new Date(Date.UTC(value.year, value.month - 1, value.day));
  if (
    date.getUTCFullYear() !== value.year ||
    date.getUTCMonth() !== value.month - 1 ||
    date.getUTCDate() !== value.day
  )
    return null;
  return date.toISOString().slice(0, 10);
}
