import { type RequestStatus, STATUS_KEYS } from "#domain/requests/options.ts";

/**
 * The spec's status colours (point 4): New blue, Contacted yellow, In progress orange,
 * Confirmed green, Rejected red; membership's In review, Accepted and Declined take the colour
 * of the same step. Muted tones (brand.md), and never the only carrier: the name is always
 * written beside the colour.
 */
export type StatusTone = "blue" | "yellow" | "orange" | "green" | "red";

/** The tones in workflow order (the weekly chart stacks its bands in this order). */
export const STATUS_TONE_ORDER: readonly StatusTone[] = [
  "blue",
  "yellow",
  "orange",
  "green",
  "red",
];

export const STATUS_TONES: Record<RequestStatus, StatusTone> = {
  New: "blue",
  Contacted: "yellow",
  "In progress": "orange",
  "In review": "orange",
  Offered: "orange",
  "Awaiting deposit": "orange",
  Confirmed: "green",
  Accepted: "green",
  Rejected: "red",
  Declined: "red",
  Cancelled: "red",
};

/** Badge and card classes per tone: dark text on a light tint (AA contrast in every pair). */
export const TONE_CLASSES: Record<StatusTone, { badge: string; card: string; dot: string }> = {
  blue: {
    badge: "border-blue-300 bg-blue-50 text-blue-900",
    card: "border-blue-300 bg-blue-50 text-blue-950",
    dot: "bg-blue-700",
  },
  yellow: {
    badge: "border-yellow-400 bg-yellow-50 text-yellow-900",
    card: "border-yellow-400 bg-yellow-50 text-yellow-950",
    dot: "bg-yellow-600",
  },
  orange: {
    badge: "border-orange-300 bg-orange-50 text-orange-900",
    card: "border-orange-300 bg-orange-50 text-orange-950",
    dot: "bg-orange-600",
  },
  green: {
    badge: "border-green-300 bg-green-50 text-green-900",
    card: "border-green-300 bg-green-50 text-green-950",
    dot: "bg-green-700",
  },
  red: {
    badge: "border-red-300 bg-red-50 text-red-900",
    card: "border-red-300 bg-red-50 text-red-950",
    dot: "bg-red-700",
  },
};

/** Fills of the weekly chart's bars, muted versions of the same hues. */
export const TONE_FILLS: Record<StatusTone, string> = {
  blue: "#3E6A9E",
  yellow: "#C9A43A",
  orange: "#C0692E",
  green: "#4F7D57",
  red: "#9C3B3F",
};

/** The translation key of a status's name. */
export function statusLabelKey(status: RequestStatus): string {
  return `staff.statuses.${STATUS_KEYS[status]}`;
}
