import { z } from "zod";
import {
  CURRENCIES,
  isHttpUrl,
  isPhoneNumber,
  OWNER_LIMITS,
  POSTAL_CODE,
} from "../owners/owner-fields.ts";
import { AMENITY_KEYS, ARCHITECTURES, REGIONS, TERRAINS } from "./catalogue-keys.ts";
import { slugify } from "./slug.ts";

/**
 * The catalogue's content: one estate with its text in the four languages, as the demo
 * catalogue (content/properties), the seed and `npm run catalogue` import and export it.
 * The text bounds are the owner editor's (OWNER_LIMITS), so an estate an owner can save is one
 * an import accepts, and the other way round: summary is the owner's "description",
 * historicalSignificance their "history", amenities their "facilities".
 */

const text = (bounds: { min: number; max: number }) =>
  z.string().trim().min(bounds.min).max(bounds.max);

const items = (bounds: { min: number; max: number }) =>
  z.array(text(OWNER_LIMITS.item)).min(bounds.min).max(bounds.max);

export const PropertyTranslationSchema = z.strictObject({
  name: text(OWNER_LIMITS.name),
  location: text(OWNER_LIMITS.location),
  summary: text(OWNER_LIMITS.description),
  amenities: items(OWNER_LIMITS.facilities),
  activities: items(OWNER_LIMITS.activities),
  historicalSignificance: text(OWNER_LIMITS.history).optional(),
});

const price = z.number().min(OWNER_LIMITS.price.min).max(OWNER_LIMITS.price.max);

/**
 * The owner's facts that the content may give, each with the
 * owner editor's rules. Optional: an import without them leaves what the database holds.
 */
const OwnerFactsSchema = {
  websiteUrl: z.string().refine(isHttpUrl, "not an http(s) address").optional(),
  startingPrice: z.strictObject({ amount: price, currency: z.enum(CURRENCIES) }).optional(),
  priceRange: z
    .strictObject({ min: price, max: price, currency: z.enum(CURRENCIES) })
    .refine((range) => range.min <= range.max, "min is above max")
    .optional(),
  phone: z.string().refine(isPhoneNumber, "not a phone number").optional(),
  address: text({ min: 2, max: OWNER_LIMITS.address.max }).optional(),
  postalCode: z.string().regex(POSTAL_CODE).optional(),
  city: text({ min: 2, max: OWNER_LIMITS.city.max }).optional(),
  coordinates: z
    .strictObject({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })
    .optional(),
};

export const PropertyContentSchema = z.strictObject({
  /** Stable public id: /property/{id}. Never reused. */
  id: z.number().int().positive(),
  region: z.enum(REGIONS),
  bedrooms: z.number().int().min(OWNER_LIMITS.beds.min).max(OWNER_LIMITS.beds.max),
  guestCapacity: z.number().int().min(OWNER_LIMITS.guests.min).max(OWNER_LIMITS.guests.max),
  membersOnly: z.boolean(),
  ownerEmail: z.email(),
  /** Amenity keys used by filters; must agree with the translated amenity lists. */
  amenityKeys: z.array(z.enum(AMENITY_KEYS)).min(1),
  ...OwnerFactsSchema,
  illustration: z.strictObject({
    terrain: z.enum(TERRAINS),
    architecture: z.enum(ARCHITECTURES),
    /** How many generated images the estate has (4 to 12). */
    imageCount: z.number().int().min(4).max(12),
  }),
  content: z.strictObject({
    en: PropertyTranslationSchema,
    fr: PropertyTranslationSchema,
    it: PropertyTranslationSchema,
    zh: PropertyTranslationSchema,
  }),
});

export type PropertyTranslation = z.infer<typeof PropertyTranslationSchema>;
export type PropertyContent = z.infer<typeof PropertyContentSchema>;

// ---------------------------------------------------------------------------------------------
// Checking a whole catalogue file

/** One estate as read from a file, before validation: where it starts and what it holds. */
export interface CatalogueEntry {
  /** The CSV line the row starts on, or the 1-based place in a JSON array. */
  line: number;
  value: unknown;
}

/** Something wrong with an entry, said so that whoever edits the file can find and fix it. */
export interface CatalogueProblem {
  line: number;
  /** The estate's id, when the entry has a readable one. */
  id?: number;
  /** The field as the file names it (`summary_fr`, `content.fr.summary`); none for the whole row. */
  field?: string;
  message: string;
}

/** How a file names the field at a schema path (CSV columns differ from JSON paths). */
export type FieldNamer = (path: readonly PropertyKey[]) => string;

/** A JSON path: `content.fr.amenities.3`. */
export const jsonFieldName: FieldNamer = (path) => path.map(String).join(".");

/**
 * Validates every entry with PropertyContentSchema and checks what a row alone cannot: two
 * entries with one id, or two English names that give one slug (the estate's address). Every
 * problem is reported, not only the first; `catalogue` holds the entries when there is none.
 */
export function validateCatalogue(
  entries: readonly CatalogueEntry[],
  fieldName: FieldNamer = jsonFieldName,
): { catalogue: PropertyContent[]; problems: CatalogueProblem[] } {
  const catalogue: PropertyContent[] = [];
  const problems: CatalogueProblem[] = [];
  const lineOfId = new Map<number, number>();
  const lineOfSlug = new Map<string, number>();
  for (const { line, value } of entries) {
    const id = idOf(value);
    const result = PropertyContentSchema.safeParse(value);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const paths =
          issue.code === "unrecognized_keys"
            ? issue.keys.map((key) => [...issue.path, key])
            : [issue.path];
        for (const path of paths)
          problems.push({
            line,
            id,
            field: path.length > 0 ? fieldName(path) : undefined,
            message: describeIssue(issue, value),
          });
      }
    }
    if (id !== undefined) {
      const first = lineOfId.get(id);
      if (first === undefined) lineOfId.set(id, line);
      else
        problems.push({
          line,
          id,
          field: fieldName(["id"]),
          message: `id ${id} is also on line ${first}`,
        });
    }
    if (!result.success) continue;
    const slug = slugify(result.data.content.en.name);
    const first = lineOfSlug.get(slug);
    if (first === undefined) lineOfSlug.set(slug, line);
    else
      problems.push({
        line,
        id,
        field: fieldName(["content", "en", "name"]),
        message: `gives the same slug (${slug}) as the name on line ${first}`,
      });
    catalogue.push(result.data);
  }
  return { catalogue: problems.length === 0 ? catalogue : [], problems };
}

function idOf(value: unknown): number | undefined {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === "number" && Number.isSafeInteger(id) ? id : undefined;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** A zod issue in words that say what is there and what is allowed. */
function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return "missing";
      if (issue.path.length === 0) return "expected an estate (an object)";
      if (issue.expected === "int" || issue.expected === "number")
        return `${JSON.stringify(value)} is not a whole number`;
      if (issue.expected === "boolean") return `${JSON.stringify(value)} is not true or false`;
      return `expected ${issue.expected === "array" ? "a list" : `a ${issue.expected}`}`;
    case "too_small":
    case "too_big": {
      const bound = issue.code === "too_small" ? issue.minimum : issue.maximum;
      const limit = issue.code === "too_small" ? `at least ${bound}` : `at most ${bound}`;
      if (issue.origin === "string") {
        const length = typeof value === "string" ? value.trim().length : 0;
        return length === 0 ? "empty" : `${length} character${length === 1 ? "" : "s"}; ${limit}`;
      }
      if (issue.origin === "array") {
        const count = Array.isArray(value) ? value.length : 0;
        return `${count === 0 ? "no" : count} item${count === 1 ? "" : "s"}; ${limit}`;
      }
      return `${JSON.stringify(value)}; ${limit}`;
    }
    case "invalid_value":
      return `${JSON.stringify(value)} is not one of ${issue.values.join(", ")}`;
    case "invalid_format":
      return issue.format === "email"
        ? `${JSON.stringify(value)} is not an email address`
        : issue.message;
    case "unrecognized_keys":
      return "unknown field";
    default:
      return issue.message;
  }
}
