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
 * The earliest date a form accepts. Somewhere on Earth it is still yesterday (UTC): the server
 * cannot know the guest's zone, so it allows that day; the browser's picker starts at today.
 */
export function earliestBookableDate(now = new Date()): string {
  const date = new Date(now.getTime() - 24 * 60 * 60 * 1000 - 12 * 60 * 60 * 1000);
  return date.toISOString().slice(0, 10);
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
