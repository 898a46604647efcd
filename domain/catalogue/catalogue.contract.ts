import { z } from "zod";
import { defineOperation, error, PUBLIC } from "../api/operation.ts";
import { LANGUAGES, matchLanguage } from "#i18n/config.ts";
import {
  CATALOGUE_MAX_PAGE_SIZE,
  CATALOGUE_MAX_STAY_NIGHTS,
  CATALOGUE_PAGE_SIZE,
  CatalogueFilterSchema,
  checkStayDates,
} from "./catalogue-filter.schema.ts";
import { REGIONS } from "./catalogue-keys.ts";
import { IsoDateSchema, NightsSchema } from "../calendar/calendar.schema.ts";
import { AVAILABILITY_DEFAULT_MONTHS, AVAILABILITY_MAX_MONTHS } from "../calendar/limits.ts";

/**
 * The public catalogue's calls: the list or search of the castles and one
 * castle, written once for the route and the document. Browser-safe: zod only.
 */

/** The fields of a castle's public shape, which `?fields=` may choose from. */
export const API_PROPERTY_FIELDS = [
  "id",
  "slug",
  "name",
  "location",
  "region",
  "bedrooms",
  "guestCapacity",
  "membersOnly",
  "summary",
  "amenities",
  "activities",
  "historical_significance",
  "images",
  "preview",
] as const;
export type ApiPropertyField = (typeof API_PROPERTY_FIELDS)[number];

/** The public JSON shape of a property (server/api/catalogue.ts `toApiProperty`). */
export const CastleSchema = z
  .object({
    id: z.number().int().min(1),
    slug: z.string(),
    name: z.string(),
    location: z.string(),
    region: z
      .string()
      .describe(`The region's key, as the \`region\` filter takes it (${REGIONS.join(", ")})`),
    bedrooms: z.number().int().min(0),
    guestCapacity: z.number().int().min(0),
    membersOnly: z.boolean().describe("Open to club members only"),
    summary: z.string(),
    amenities: z.array(z.string()).describe("The amenities, named in the asked language"),
    activities: z.array(z.string()),
    historical_significance: z
      .string()
      .optional()
      .describe("The estate's history, when it has one on record"),
    images: z
      .array(z.string())
      .describe("The owner's selected images, in order: each an address of an 800 px JPEG"),
    preview: z
      .string()
      .optional()
      .describe("The share image (1200 px JPEG of the first image), when there are images"),
  } satisfies Record<ApiPropertyField, z.ZodType>)
  .meta({
    id: "Castle",
    description:
      "A castle or estate of the network, in one language; the owner's contact stays private",
  });

/** A castle cut down to the fields `?fields=` chose: any of the castle's, none required. */
export const CastleFieldsSchema = CastleSchema.partial().meta({
  id: "CastleFields",
  description: "The fields of a castle that `fields` chose (only those, when it has them)",
});

/** `?lang=`: the content's language (an empty value is left out). */
/**
 * `?lang=`: one of the four languages. A regional variant is its language (`fr-CA` is `fr`,
 * `zh-Hans-CN` is `zh`); a language the site does not have is refused, not answered in English
 * as if it had been understood.
 */
export const ContentLanguageSchema = z.preprocess(
  (value) =>
    value === "" ? undefined : typeof value === "string" ? (matchLanguage(value) ?? value) : value,
  z
    .enum(LANGUAGES)
    .optional()
    .describe(
      "The content's language (English when left out); messages follow it too. A regional variant (fr-CA, zh-CN, en-GB, it-CH) is its language; any other language is a 400",
    ),
);

/** `?fields=a,b` (or repeated): the chosen fields, all when absent or empty. */
const FieldsSchema = z.preprocess(
  (value) => {
    if (value === undefined || value === null) return undefined;
    const values = (Array.isArray(value) ? value : [value])
      .flatMap((v) => String(v).split(","))
      .filter(Boolean);
    return values.length ? values : undefined;
  },
  z
    .array(z.enum(API_PROPERTY_FIELDS))
    .optional()
    .describe(
      "Only these fields of each property, comma-separated or repeated (`fields=id,slug,name` with `limit=100` is the light way to read every estate, page by page)",
    ),
);

const filterShape = CatalogueFilterSchema.shape;

/**
 * The catalogue's query: language, the filters and paging of `CatalogueFilterSchema`, fields.
 * The rules joining the two dates are the filter's own (`checkStayDates`), given again because
 * a spread shape leaves an object's refinements behind.
 */
export const CatalogueQuerySchema = z
  .object({
    lang: ContentLanguageSchema,
    ...filterShape,
    // Comma-separated (`amenities=pool,spa`), as a form's one field sends them.
    amenities: filterShape.amenities.meta({ param: { style: "form", explode: false } }),
    checkIn: filterShape.checkIn.describe(
      "The first night of a stay (YYYY-MM-DD), with `checkOut`: only estates free for every night from `checkIn` up to the night before `checkOut`. Not before today (in the earliest time zone, UTC-12)",
    ),
    checkOut: filterShape.checkOut.describe(
      `The check-out day (YYYY-MM-DD), with \`checkIn\`: after it, at most ${CATALOGUE_MAX_STAY_NIGHTS} nights later. The check-out day itself may be another guest's arrival`,
    ),
    after: filterShape.after.describe(
      "Where the next page starts: the cursor in the previous page's Link header (an id, or score~id in relevance order)",
    ),
    before: filterShape.before.describe(
      "Where the previous page ends: the cursor in the Link header",
    ),
    limit: filterShape.limit.describe(
      `Properties per page (${CATALOGUE_PAGE_SIZE} by default, at most ${CATALOGUE_MAX_PAGE_SIZE})`,
    ),
    fields: FieldsSchema.meta({ param: { style: "form", explode: false } }),
  })
  .superRefine(checkStayDates);

const CACHE_HEADER = {
  "Cache-Control": {
    description: "`public, no-cache`: revalidate with the ETag (an unchanged answer costs a 304)",
    schema: z.string(),
  },
  ETag: { description: "The answer's validator, for If-None-Match", schema: z.string() },
} as const;

const NOT_MODIFIED = { description: "Unchanged since the ETag of If-None-Match" } as const;

export const listCastles = defineOperation({
  id: "listCastles",
  method: "get",
  path: "/api/castles",
  summary: "List or search the castle catalogue",
  description:
    `One keyset page of the catalogue (${CATALOGUE_PAGE_SIZE} properties by default, \`limit\` up to ${CATALOGUE_MAX_PAGE_SIZE}), with or without a filter ` +
    "(`q`, `region`, `guests`, `bedrooms`, `amenities`, `members`, the stay's `checkIn` and `checkOut`): " +
    "the next and previous pages are in the Link header and the number of matches in X-Total-Count. " +
    "Without a filter the pages walk the whole catalogue in catalogue order; a client that needs every estate follows " +
    '`rel="next"` until there is none, best with `fields` and `limit` (the list is never answered in one piece: docs/decisions/0025). ' +
    "Unknown parameters are ignored; an invalid value is refused with 400 naming it.",
  tags: ["catalogue"],
  security: PUBLIC,
  query: CatalogueQuerySchema,
  responses: {
    200: {
      description:
        "One page of properties, with Link and X-Total-Count headers. " +
        "Each is a whole `Castle`, or with `fields` only the fields chosen",
      schema: z.array(z.union([CastleSchema, CastleFieldsSchema])),
      headers: {
        ...CACHE_HEADER,
        "X-Total-Count": {
          description: "How many properties match, on every page; `1000+` when more than 1,000 do",
          schema: z.string().regex(/^\d+\+?$/),
        },
        Link: {
          description:
            'The next and previous pages, when there are: `</api/castles?…&after=…>; rel="next"`',
          schema: z.string().optional(),
        },
      },
    },
    304: NOT_MODIFIED,
    400: error(
      "An invalid filter, cursor, page size, field or language (the message names the parameter), " +
        `or stay dates that break their rules: one without the other, check-out not after check-in, check-in in the past, more than ${CATALOGUE_MAX_STAY_NIGHTS} nights`,
      ["invalid_filter", "unstorable_text"],
    ),
  },
});

export const getCastle = defineOperation({
  id: "getCastle",
  method: "get",
  path: "/api/castles/{idOrSlug}",
  summary: "One property by id or slug",
  tags: ["catalogue"],
  security: PUBLIC,
  params: z.object({
    idOrSlug: z.string().describe("The property's id or its slug (as in the list)"),
  }),
  query: z.object({ lang: ContentLanguageSchema }),
  responses: {
    200: { description: "The property", schema: CastleSchema, headers: CACHE_HEADER },
    304: NOT_MODIFIED,
    400: error("A language other than en, fr, it or zh", ["invalid_filter"]),
    404: error("No such property", ["estate_not_found"]),
  },
});

/** The taken nights of an estate: nothing but the dates. */
export const AvailabilitySchema = z
  .object({
    propertyId: z.number().int().min(1),
    from: IsoDateSchema.describe("The first night of the window"),
    to: IsoDateSchema.describe("The end of the window (exclusive)"),
    unavailable: z
      .array(NightsSchema)
      .describe(
        "The taken nights within [from, to), sorted and merged (touching or overlapping claims are one range), clipped to the window; `end` is exclusive",
      ),
  })
  .meta({
    id: "Availability",
    description:
      "Which nights of an estate are taken, by confirmed stays, blocks or imported calendars; who or what took them is never said",
  });

export const getCastleAvailability = defineOperation({
  id: "getCastleAvailability",
  method: "get",
  path: "/api/castles/{idOrSlug}/availability",
  summary: "The nights of a property that are taken",
  description:
    `The nights within [\`from\`, \`to\`) that guests cannot book. \`from\` defaults to today (UTC) and \`to\` to ${AVAILABILITY_DEFAULT_MONTHS} months after \`from\`; ` +
    `\`from\` may not be after \`to\`, and a call covers at most ${AVAILABILITY_MAX_MONTHS} months. ` +
    "A stay's check-out day is free for the next arrival: `{ start: '2027-05-01', end: '2027-05-04' }` takes the nights of 1, 2 and 3 May. " +
    "The answer changes as soon as a stay is confirmed or a block or an imported calendar changes.",
  tags: ["catalogue"],
  security: PUBLIC,
  params: z.object({
    idOrSlug: z.string().describe("The property's id or its slug (as in the list)"),
  }),
  query: z.object({
    from: IsoDateSchema.optional().describe(
      "The first night (YYYY-MM-DD); today (UTC) when left out",
    ),
    to: IsoDateSchema.optional().describe(
      `The end of the window, exclusive (YYYY-MM-DD); ${AVAILABILITY_DEFAULT_MONTHS} months after \`from\` when left out`,
    ),
    lang: ContentLanguageSchema.describe(
      "The language of a refusal's message (English when left out)",
    ),
  }),
  responses: {
    200: { description: "The taken nights", schema: AvailabilitySchema, headers: CACHE_HEADER },
    304: NOT_MODIFIED,
    400: error(
      `A date that is not YYYY-MM-DD, \`from\` after \`to\`, a window over ${AVAILABILITY_MAX_MONTHS} months, or a language other than en, fr, it or zh`,
      ["invalid_filter", "invalid_input"],
    ),
    404: error("No such property", ["estate_not_found"]),
  },
});

export const CATALOGUE_OPERATIONS = [listCastles, getCastle, getCastleAvailability];
