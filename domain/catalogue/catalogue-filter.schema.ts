import { z } from "zod";
import { nightsBetween } from "../calendar/nights.ts";
import { earliestBookableDate, isIsoDate, lastBookableDate } from "../requests/dates.ts";
import { FORM_LIMITS } from "../requests/options.ts";
import { isStorableText, UNSTORABLE_TEXT } from "../storable-text.ts";
import {
  AMENITY_KEYS,
  CATALOGUE_MAX_STAY_NIGHTS,
  REGIONS,
  STAY_DATE_FIELDS,
} from "./catalogue-keys.ts";

export { CATALOGUE_MAX_STAY_NIGHTS, STAY_DATE_FIELDS };

/** Results per page of the catalogue (keyset pages of 24). */
export const CATALOGUE_PAGE_SIZE = 24;

/** The most results an API client may ask for in one page (`limit`). */
export const CATALOGUE_MAX_PAGE_SIZE = 100;

/**
 * Where a keyset page starts: after (or before) an estate id in catalogue order, or, for a text
 * search ordered by relevance, after an estate's score and id. In the URL: `123` or `456~123`.
 */
export interface CatalogueCursor {
  id: number;
  /** The relevance score (an integer) when the results are ordered by relevance. */
  score?: number;
}

/** The URL form of a cursor. */
export function formatCursor(cursor: CatalogueCursor): string {
  return cursor.score === undefined ? String(cursor.id) : `${cursor.score}~${cursor.id}`;
}

const cursor = z.preprocess(
  (value) =>
    value === "" || value === null ? undefined : typeof value === "number" ? String(value) : value,
  z
    .string()
    .regex(/^(?:\d{1,10}~)?\d{1,10}$/)
    .transform((value, context): CatalogueCursor => {
      const [first, second] = value.split("~").map(Number) as [number, number | undefined];
      const cursor = second === undefined ? { id: first } : { id: second, score: first };
      if (cursor.id < 1 || cursor.id > 2_000_000_000 || (cursor.score ?? 0) > 2_000_000_000)
        context.addIssue({ code: "custom", message: "Invalid cursor" });
      return cursor;
    })
    .optional(),
);

const optionalInt = (min: number, max: number) =>
  z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    z.coerce.number().int().min(min).max(max).optional(),
  );

/** A check-in or check-out date in the URL: 'YYYY-MM-DD' (an empty value is left out). */
const stayDate = z.preprocess(
  (value) => (value === "" || value === null ? undefined : value),
  z
    .string()
    .refine(isIsoDate, "catalogueDates.errors.invalidDate")
    .meta({ format: "date" })
    .optional(),
);

/**
 * The rules that join the two dates: both or neither, check-out after check-in, check-in not
 * before the earliest "today" on Earth (UTC-12, as the booking forms), neither past the booking
 * horizon (the property booking form's rule and message: a search for dates nobody may book
 * finds nothing bookable), at most CATALOGUE_MAX_STAY_NIGHTS nights. Each issue names the field
 * a person must change. Given to `superRefine` of every schema that carries the dates (a spread
 * `.shape` loses it).
 */
export function checkStayDates(
  value: { checkIn?: string; checkOut?: string },
  context: z.RefinementCtx,
  horizonMonths: number = FORM_LIMITS.bookingHorizonMonths,
): void {
  const { checkIn, checkOut } = value;
  if (checkIn === undefined && checkOut === undefined) return;
  // A value that is no date has its own error already (zod runs this despite field issues).
  if ([checkIn, checkOut].some((date) => date !== undefined && !isIsoDate(date))) return;
  if (checkIn === undefined || checkOut === undefined) {
    context.addIssue({
      code: "custom",
      path: [checkIn === undefined ? "checkIn" : "checkOut"],
      message: "catalogueDates.errors.bothDates",
    });
    return;
  }
  if (checkIn < earliestBookableDate())
    context.addIssue({
      code: "custom",
      path: ["checkIn"],
      message: "catalogueDates.errors.checkInPast",
    });
  const lastDate = lastBookableDate(horizonMonths);
  for (const field of STAY_DATE_FIELDS)
    if (value[field]! > lastDate)
      context.addIssue({ code: "custom", path: [field], message: "validation.dateBeyondWindow" });
  if (checkOut <= checkIn)
    context.addIssue({
      code: "custom",
      path: ["checkOut"],
      message: "catalogueDates.errors.checkOutOrder",
    });
  else if (nightsBetween(checkIn, checkOut) > CATALOGUE_MAX_STAY_NIGHTS)
    context.addIssue({
      code: "custom",
      path: ["checkOut"],
      message: "catalogueDates.errors.stayTooLong",
      params: { max: CATALOGUE_MAX_STAY_NIGHTS },
    });
}

/** One value, or a list given as repeated parameters or comma-separated. */
const list = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => {
    if (value === undefined || value === null || value === "") return undefined;
    const values = Array.isArray(value) ? value : [value];
    return values.flatMap((v) => String(v).split(",")).filter(Boolean);
  }, z.array(item).max(12).optional());

/**
 * The catalogue's search and filters, as they appear in the URL of /castles and of
 * GET /api/castles. Unknown parameters are ignored; invalid values are errors (translation keys).
 * `horizonMonths` is the booking window the dates must fall in (the configured one on pages).
 */
export const catalogueFilterSchema = (horizonMonths: number = FORM_LIMITS.bookingHorizonMonths) =>
  z
    .object({
      q: z.preprocess(
        (value) => (typeof value === "string" ? value.trim() || undefined : value),
        z
          .string()
          .max(100, "errors.searchTooLong")
          .refine(isStorableText, UNSTORABLE_TEXT)
          .optional(),
      ),
      region: z.preprocess(
        (v) => (v === "" ? undefined : v),
        z.enum(REGIONS, { message: "errors.invalidRegion" }).optional(),
      ),
      guests: optionalInt(1, 200),
      bedrooms: optionalInt(1, 80),
      amenities: list(z.enum(AMENITY_KEYS, { message: "errors.invalidAmenity" })),
      members: z.preprocess(
        (value) => (value === "" || value === undefined ? undefined : value),
        z
          .enum(["1", "true", "0", "false"])
          .transform((v) => v === "1" || v === "true")
          .optional(),
      ),
      /** The first night of the stay: only estates free for every night [checkIn, checkOut). */
      checkIn: stayDate,
      /** The check-out day (the night of checkOut is not part of the stay). */
      checkOut: stayDate,
      after: cursor,
      before: cursor,
      /** Results per page (API clients; the catalogue page always shows CATALOGUE_PAGE_SIZE). */
      limit: optionalInt(1, CATALOGUE_MAX_PAGE_SIZE),
    })
    .superRefine((value, context) => checkStayDates(value, context, horizonMonths));

export const CatalogueFilterSchema = catalogueFilterSchema();
export type CatalogueFilter = z.infer<typeof CatalogueFilterSchema>;

/** The filter fields (not the page cursors) that a query string sets. */
export function hasFilters(filter: CatalogueFilter): boolean {
  return Boolean(
    filter.q ||
    filter.region ||
    filter.guests ||
    filter.bedrooms ||
    filter.amenities?.length ||
    filter.members ||
    filter.checkIn,
  );
}

/** Reads a filter from URL search parameters (repeated keys become lists). */
export function filterInputFromSearchParams(params: URLSearchParams): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    input[key] = values.length > 1 ? values : values[0];
  }
  return input;
}

/** What a page makes of a URL's filter: the filter to search with, and what it left out. */
export interface ReadFilter {
  filter: CatalogueFilter;
  /** The dates' errors (translation keys), by field: the fields show them. */
  dateErrors: Partial<Record<(typeof STAY_DATE_FIELDS)[number], string>>;
  /** The dates as the URL gave them (for the fields), when each is a real date. */
  dates: Partial<Record<(typeof STAY_DATE_FIELDS)[number], string>>;
  /** Some other filter was not understood: the page searches without any filter, and says so. */
  hasInvalidFilter: boolean;
}

/**
 * Reads the catalogue page's filter from its URL input. Dates that break their rules are left
 * out with an error for their fields, and the other filters still apply (a guest who picked a
 * check-out before the check-in sees the region they chose); any other invalid value drops
 * every filter, with a notice, as a hand-edited URL did before.
 */
export function readCatalogueFilter(
  input: Record<string, unknown>,
  horizonMonths: number = FORM_LIMITS.bookingHorizonMonths,
): ReadFilter {
  const schema = catalogueFilterSchema(horizonMonths);
  const dates: ReadFilter["dates"] = {};
  for (const field of STAY_DATE_FIELDS) {
    const value = input[field];
    if (typeof value === "string" && isIsoDate(value)) dates[field] = value;
  }
  const parsed = schema.safeParse(input);
  if (parsed.success)
    return { filter: parsed.data, dateErrors: {}, dates, hasInvalidFilter: false };
  const dateErrors: ReadFilter["dateErrors"] = {};
  for (const issue of parsed.error.issues) {
    const field = STAY_DATE_FIELDS.find((name) => name === issue.path[0]);
    if (field && !dateErrors[field]) dateErrors[field] = issue.message;
  }
  const { checkIn: _checkIn, checkOut: _checkOut, ...withoutDates } = input;
  const retried = schema.safeParse(withoutDates);
  // Other values are wrong too (the object's date rules run only once its fields parse).
  if (!retried.success) return { filter: {}, dateErrors, dates, hasInvalidFilter: true };
  return { filter: retried.data, dateErrors, dates, hasInvalidFilter: false };
}

/** A stay's dates carried from one page to the next: the first night and the check-out day. */
export interface StayDates {
  checkIn: string;
  checkOut: string;
}

const StayDatesSchema = (horizonMonths: number) =>
  z
    .object({ checkIn: stayDate, checkOut: stayDate })
    .superRefine((value, context) => checkStayDates(value, context, horizonMonths));

/**
 * The stay's dates a page was given in its URL (`checkIn`, `checkOut`), when both are there and
 * keep the search's rules; otherwise none: dates carried from /castles only start a form, so
 * broken ones are dropped without a word.
 */
export function readStayDates(
  params: URLSearchParams,
  horizonMonths: number = FORM_LIMITS.bookingHorizonMonths,
): StayDates | null {
  const parsed = StayDatesSchema(horizonMonths).safeParse({
    checkIn: params.get("checkIn") ?? undefined,
    checkOut: params.get("checkOut") ?? undefined,
  });
  const { checkIn, checkOut } = parsed.success ? parsed.data : {};
  return checkIn && checkOut ? { checkIn, checkOut } : null;
}

/** The query string that carries a stay's dates to the next page (empty without them). */
export function staySearchOf(stay: StayDates | null | undefined): string {
  return stay ? `?${new URLSearchParams({ checkIn: stay.checkIn, checkOut: stay.checkOut })}` : "";
}
