import { z } from "zod";
import { isStorableText, UNSTORABLE_TEXT } from "../storable-text.ts";
import { AMENITY_KEYS, REGIONS } from "./catalogue-keys.ts";

/** Results per page of the catalogue (issue 3: keyset pages of 24). */
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
 */
export const CatalogueFilterSchema = z.object({
  q: z.preprocess(
    (value) => (typeof value === "string" ? value.trim() || undefined : value),
    z.string().max(100, "errors.searchTooLong").refine(isStorableText, UNSTORABLE_TEXT).optional(),
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
  after: cursor,
  before: cursor,
  /** Results per page (API clients; the catalogue page always shows CATALOGUE_PAGE_SIZE). */
  limit: optionalInt(1, CATALOGUE_MAX_PAGE_SIZE),
});
export type CatalogueFilter = z.infer<typeof CatalogueFilterSchema>;

/** The filter fields (not the page cursors) that a query string sets. */
export function hasFilters(filter: CatalogueFilter): boolean {
  return Boolean(
    filter.q ||
    filter.region ||
    filter.guests ||
    filter.bedrooms ||
    filter.amenities?.length ||
    filter.members,
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
