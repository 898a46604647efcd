/** Calendar dates as the forms send them: 'YYYY-MM-DD', compared as strings. */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** The date of `date` in the local time zone of whoever runs this (the browser: the guest's). */
export function localIsoDate(date = new Date()): string {
  const month = String(date.getMonth() + 1).padStart(2, "0");
  const day = String(date.getDate()).padStart(2, "0");
  return `${date.getFullYear()}-${month}-${day}`;
}

/**
 * The earliest date a form accepts: today where the day started last (UTC-12). The server
 * cannot know the guest's zone, so it takes the earliest "today" on Earth; the browser's picker
 * starts at the guest's own today, which is never earlier.
 */
export function earliestBookableDate(now = new Date()): string {
  return new Date(now.getTime() - 12 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** Today's date in UTC: what the server renders before the browser knows the guest's zone. */
export function utcToday(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The last date of the property booking window, `horizonMonths` after today (UTC). The page's
 * date pickers stop here and the schema accepts up to here: one rule for both.
 */
export function lastBookableDate(horizonMonths: number, now = new Date()): string {
  return addMonths(utcToday(now), horizonMonths);
}

/** `months` calendar months after `from` (day clamped to the month's end). */
export function addMonths(from: string, months: number): string {
  const [year, month, day] = from.split("-").map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}
