import { LANGUAGE_TAGS, type Language } from "#i18n/config.ts";
import { addDays } from "#domain/calendar/nights.ts";
import { addMonths } from "#domain/requests/dates.ts";

/**
 * The dates behind the month grids (month-grid.tsx): which weekday a week starts on in each
 * language, the weeks of a month, the names Intl gives days and months, and where a key moves
 * the focus. Dates are 'YYYY-MM-DD' and months 'YYYY-MM', computed in UTC (no time zones).
 */

/** ISO weekday: 1 is Monday, 7 is Sunday. */
export type IsoWeekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/**
 * The locale whose week each language's calendars follow: a European network's English is
 * British (weeks from Monday, as the staff overview counts them), not the US default Intl
 * gives plain `en`.
 */
export const WEEK_LOCALES: Record<Language, string> = {
  en: "en-GB",
  fr: "fr-FR",
  it: "it-IT",
  zh: "zh-CN",
};

/**
 * The first day of the week where Intl cannot say (Firefox has neither `getWeekInfo` nor
 * `weekInfo`): what Intl says for WEEK_LOCALES.
 */
export const WEEK_START_FALLBACK: Record<Language, IsoWeekday> = { en: 1, fr: 1, it: 1, zh: 1 };

interface WeekInfo {
  firstDay: number;
}
type LocaleWithWeekInfo = Intl.Locale & { getWeekInfo?(): WeekInfo; weekInfo?: WeekInfo };

/** What Intl knows of a locale's week (Chromium and Node: `getWeekInfo()`; Safari: `weekInfo`). */
export function intlWeekInfo(tag: string): WeekInfo | undefined {
  try {
    const locale = new Intl.Locale(tag) as LocaleWithWeekInfo;
    return locale.getWeekInfo?.() ?? locale.weekInfo;
  } catch {
    return undefined;
  }
}

/** The weekday a week starts on in `language`, as its week's locale (WEEK_LOCALES) starts it. */
export function weekStartOf(
  language: Language,
  readWeekInfo: (tag: string) => WeekInfo | undefined = intlWeekInfo,
): IsoWeekday {
  const firstDay = readWeekInfo(WEEK_LOCALES[language])?.firstDay;
  return typeof firstDay === "number" &&
    Number.isInteger(firstDay) &&
    firstDay >= 1 &&
    firstDay <= 7
    ? (firstDay as IsoWeekday)
    : WEEK_START_FALLBACK[language];
}

/** The ISO weekday of a date. */
export function isoWeekdayOf(date: string): IsoWeekday {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return (day === 0 ? 7 : day) as IsoWeekday;
}

/** How many days `date` is after the start of its week. */
function dayOfWeek(date: string, weekStart: IsoWeekday): number {
  return (isoWeekdayOf(date) - weekStart + 7) % 7;
}

/** The first day of a month 'YYYY-MM'. */
export function firstOfMonth(month: string): string {
  return `${month}-01`;
}

/** The last day of a month 'YYYY-MM'. */
export function lastOfMonth(month: string): string {
  return addDays(firstOfMonth(addMonthsToMonth(month, 1)), -1);
}

/** The month `count` months after `month` (negative: before). */
export function addMonthsToMonth(month: string, count: number): string {
  return addMonths(firstOfMonth(month), count).slice(0, 7);
}

/** The month of a date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/**
 * The weeks of a month as rows of seven, starting on `weekStart`; days of the neighbouring
 * months are null (each grid shows its own month only).
 */
export function monthWeeks(month: string, weekStart: IsoWeekday): (string | null)[][] {
  const first = firstOfMonth(month);
  const last = lastOfMonth(month);
  const weeks: (string | null)[][] = [];
  let week: (string | null)[] = Array.from({ length: dayOfWeek(first, weekStart) }, () => null);
  for (let date = first; date <= last; date = addDays(date, 1)) {
    week.push(date);
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  return weeks;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** One cached formatter per language and options (they are costly to make). */
function formatter(language: Language, options: Intl.DateTimeFormatOptions) {
  const key = `${language}:${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(LANGUAGE_TAGS[language], { ...options, timeZone: "UTC" });
    formats.set(key, format);
  }
  return format;
}

const utc = (date: string) => new Date(`${date}T00:00:00Z`);

/** The week's days in order from `weekStart`, each with its short and full name. */
export function weekdayNames(
  language: Language,
  weekStart: IsoWeekday,
): { short: string; long: string }[] {
  // 2024-01-01 was a Monday: ISO weekday d falls on 2024-01-0d.
  return Array.from({ length: 7 }, (_, i) => {
    const date = utc(`2024-01-0${((weekStart - 1 + i) % 7) + 1}`);
    return {
      short: formatter(language, { weekday: "short" }).format(date),
      long: formatter(language, { weekday: "long" }).format(date),
    };
  });
}

/** A month's title: "May 2027", "mai 2027", "2027年5月". */
export function monthTitle(month: string, language: Language): string {
  return formatter(language, { month: "long", year: "numeric" }).format(utc(firstOfMonth(month)));
}

/** A day in full: "Saturday, May 1, 2027", "samedi 1 mai 2027", "2027年5月1日星期六". */
export function fullDate(date: string, language: Language): string {
  return formatter(language, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
  }).format(utc(date));
}

/** A day as a sentence names it: "May 1, 2027", "1 mai 2027", "2027年5月1日". */
export function longDate(date: string, language: Language): string {
  return formatter(language, { dateStyle: "long" }).format(utc(date));
}

/**
 * What a screen reader says of a day: its full date, then its state ("unavailable"), joined
 * as the language punctuates a list ("Saturday, May 1, 2027, unavailable";
 * "2027年5月1日星期六，不可预订").
 */
export function dayLabel(date: string, language: Language, state: string): string {
  const day = fullDate(date, language);
  if (!state) return day;
  return language === "zh" ? `${day}，${state}` : `${day}, ${state}`;
}

/** The keys that move the focus in a grid, and where each goes from `date`. */
export function movedDate(
  date: string,
  key: string,
  weekStart: IsoWeekday,
  isShift = false,
): string | null {
  switch (key) {
    case "ArrowLeft":
      return addDays(date, -1);
    case "ArrowRight":
      return addDays(date, 1);
    case "ArrowUp":
      return addDays(date, -7);
    case "ArrowDown":
      return addDays(date, 7);
    // The start or end of the week's row: never past the month's edge, as the row shows it.
    case "Home":
      return clampDate(
        addDays(date, -dayOfWeek(date, weekStart)),
        firstOfMonth(monthOf(date)),
        date,
      );
    case "End":
      return clampDate(
        addDays(date, 6 - dayOfWeek(date, weekStart)),
        date,
        lastOfMonth(monthOf(date)),
      );
    // The same day of the previous or next month (clamped to its end); with Shift, a year.
    case "PageUp":
      return addMonths(date, isShift ? -12 : -1);
    case "PageDown":
      return addMonths(date, isShift ? 12 : 1);
    default:
      return null;
  }
}

/** `date` held within [first, last]. */
export function clampDate(date: string, first: string, last: string): string {
  return date < first ? first : date > last ? last : date;
}
