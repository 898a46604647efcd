/**
 * Nights as the calendar counts them: dates are 'YYYY-MM-DD' strings (no time zone), and a
 * range of nights is [start, end): the check-out day is free for the next arrival. Safe for
 * the browser and the server alike.
 */
import { isIsoDate } from "../requests/dates.ts";

export { isIsoDate };

export interface Nights {
  /** The first night. */
  start: string;
  /** The check-out day: the night of `end` is not included. */
  end: string;
}

/** `days` days after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  const value = new Date(`${date}T00:00:00Z`);
  value.setUTCDate(value.getUTCDate() + days);
  return value.toISOString().slice(0, 10);
}

/** The number of nights from `start` to `end`. */
export function nightsBetween(start: string, end: string): number {
  return Math.round(
    (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000,
  );
}

/**
 * The nights a stay from `startDate` to `endDate` takes. The forms allow an end date equal to
 * the start date; such a stay still takes that one night.
 */
export function stayNights(startDate: string, endDate: string): Nights {
  return { start: startDate, end: endDate > startDate ? endDate : addDays(startDate, 1) };
}

/** Whether two ranges share a night. */
export function overlaps(a: Nights, b: Nights): boolean {
  return a.start < b.end && b.start < a.end;
}

/** The ranges sorted, with those that overlap or touch joined into one. */
export function mergeNights(ranges: readonly Nights[]): Nights[] {
  const sorted = [...ranges].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const merged: Nights[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.start <= last.end) {
      if (range.end > last.end) last.end = range.end;
    } else merged.push({ ...range });
  }
  return merged;
}

/** The first night of `wanted` that one of `taken` holds, or null when all are free. */
export function firstTakenNight(wanted: Nights, taken: readonly Nights[]): string | null {
  let first: string | null = null;
  for (const range of taken) {
    if (!overlaps(wanted, range)) continue;
    const night = range.start > wanted.start ? range.start : wanted.start;
    if (first === null || night < first) first = night;
  }
  return first;
}

/** A PostgreSQL daterange literal for the nights. */
export function toDateRange(nights: Nights): string {
  return `[${nights.start},${nights.end})`;
}

/** Reads PostgreSQL's canonical text of a date range, '[YYYY-MM-DD,YYYY-MM-DD)'. */
export function fromDateRange(text: string): Nights {
  const match = /^\[(\d{4}-\d{2}-\d{2}),(\d{4}-\d{2}-\d{2})\)$/.exec(text);
  if (!match) throw new Error(`not a bounded date range: ${text}`);
  return { start: match[1]!, end: match[2]! };
}
