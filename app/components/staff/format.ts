import { dayDigits } from "#domain/requests/summary.ts";
/**
 * Dates of the staff area. Calendar dates ('YYYY-MM-DD') and instants are both shown in UTC,
 * so the server's and the browser's renderings agree (no hydration mismatch) and two members of
 * staff in different places read the same day.
 */

function parse(value: string): Date | null {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const dayOf = (locale: string): Intl.DateTimeFormatOptions => ({
  month: "short",
  day: dayDigits(locale),
  year: "numeric",
});

function format(
  value: string | null | undefined,
  locale: string,
  options: Intl.DateTimeFormatOptions,
): string {
  const date = value ? parse(value) : null;
  if (!date) return "";
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" }).format(date);
}

/** 'MMM dd, yyyy' in the page's language, e.g. "Mar 05, 2026". */
export function formatDay(value: string | null | undefined, locale: string): string {
  return format(value, locale, dayOf(locale));
}

/** A moment with its time, e.g. "Mar 05, 2026, 14:05 UTC". */
export function formatMoment(value: string | null | undefined, locale: string): string {
  return format(value, locale, {
    ...dayOf(locale),
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  });
}

/** A week's first day on the chart's axis, e.g. "Mar 2". */
export function formatWeek(value: string, locale: string): string {
  return format(value, locale, { month: "short", day: "numeric" }) || value;
}
