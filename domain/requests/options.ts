/**
 * The fixed choices of the three guest forms. Plain data without zod, so pages
 * can list the options; labels are translation keys under `forms.options.*`.
 */
export { AMENITY_KEYS, REGIONS } from "../catalogue/catalogue-keys.ts";

export const MEMBER_STATUSES = ["silver", "gold", "platinum", "nonMember"] as const;
export const BOOKING_TYPES = [
  "weekend",
  "week",
  "month",
  "special",
  "wedding",
  "corporate",
  "family",
  "romantic",
] as const;
export const REQUESTED_SERVICES = [
  "chef",
  "housekeeping",
  "concierge",
  "transport",
  "childcare",
  "butler",
  "security",
  "catering",
] as const;
export const EXPERIENCE_STYLES = [
  "relaxation",
  "adventure",
  "cultural",
  "luxury",
  "family",
  "romantic",
  "business",
  "celebration",
] as const;
export const HEARD_ABOUT = ["memberReferral", "socialMedia", "press", "other"] as const;

export const DATE_MODES = ["exact", "flexible"] as const;
/** {brand}Status of the property booking: '$CASL holder', '$MOAT holder', VIP Member, Investor. */
export const CASTELLUM_STATUSES = ["caslHolder", "moatHolder", "vipMember", "investor"] as const;
export const PAYMENT_METHODS = ["casl", "usd", "eur", "gbp"] as const;

export const TITLES = ["mr", "mrs", "ms", "dr", "prof", "other"] as const;
export const GENDERS = ["male", "female", "nonBinary", "preferNotToSay"] as const;
export const INTERESTS = [
  "artDesign",
  "dance",
  "film",
  "musicDjs",
  "technology",
  "wellnessBeauty",
  "cigars",
  "familyEntertainment",
  "food",
  "politics",
  "theatre",
  "wineSpirits",
  "countryPursuits",
  "fashion",
  "literature",
  "sport",
  "travel",
  "yoga",
] as const;

/** The forms' minimum lengths and other limits (decisions.md). */
export const FORM_LIMITS = {
  nameMin: 2,
  phoneMin: 5,
  bookingGoalMin: 10,
  reasonMin: 50,
  flexibilityDaysMax: 30,
  /** Caps that keep one request's text reasonable; longer input is refused, never cut. */
  shortTextMax: 100,
  emailMax: 254,
  phoneMax: 40,
  handleMax: 200,
  longTextMax: 2000,
  countMax: 500,
  /** Default booking window of a property booking, in months from today (BOOKING_HORIZON_MONTHS). */
  bookingHorizonMonths: 18,
} as const;

/** Redirect after a successful general request or membership application. */
export const SUCCESS_REDIRECT_MS = 2000;

/** Statuses of booking requests and property bookings, in workflow order. */
export const BOOKING_STATUSES = [
  "New",
  "Contacted",
  "In progress",
  "Offered",
  "Awaiting deposit",
  "Confirmed",
  "Rejected",
  "Cancelled",
] as const;
/** Statuses of membership applications (decisions.md, "Beyond the spec"). */
export const MEMBERSHIP_STATUSES = [
  "New",
  "Contacted",
  "In review",
  "Accepted",
  "Declined",
] as const;
/** Every status any request can have. */
export const REQUEST_STATUSES = [
  ...BOOKING_STATUSES,
  ...MEMBERSHIP_STATUSES.filter((status) => status !== "New" && status !== "Contacted"),
] as unknown as readonly [
  "New",
  "Contacted",
  "In progress",
  "Offered",
  "Awaiting deposit",
  "Confirmed",
  "Rejected",
  "Cancelled",
  "In review",
  "Accepted",
  "Declined",
];
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const REQUEST_KINDS = ["booking_request", "property_booking", "membership"] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** The statuses a request of this kind may take. */
export function statusesOf(kind: RequestKind): readonly RequestStatus[] {
  return kind === "membership" ? MEMBERSHIP_STATUSES : BOOKING_STATUSES;
}

/** Statuses whose change the guest hears about by default (staff may untick it). */
export const NOTIFY_GUEST_BY_DEFAULT: readonly RequestStatus[] = [
  "Confirmed",
  "Rejected",
  "Accepted",
  "Declined",
];

/** Translation key of each status (`staff.statuses.*`, `mail.statuses.*`). */
export const STATUS_KEYS: Record<RequestStatus, string> = {
  New: "new",
  Contacted: "contacted",
  "In progress": "inProgress",
  Offered: "offered",
  "Awaiting deposit": "awaitingDeposit",
  Confirmed: "confirmed",
  Rejected: "rejected",
  Cancelled: "cancelled",
  "In review": "inReview",
  Accepted: "accepted",
  Declined: "declined",
};
