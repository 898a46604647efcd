import { Router } from "express";
import type { Property } from "../../domain/catalogue/property.ts";
import {
  CatalogueFilterSchema,
  filterInputFromSearchParams,
  hasFilters,
} from "../../domain/catalogue/catalogue-filter.schema.ts";
import {
  getProperty,
  listProperties,
  searchProperties,
} from "../../domain/catalogue/read-properties.ts";
import type { Deps } from "../../domain/deps.ts";
import { mediaUrl } from "../../domain/media/media-url.ts";
import { DEFAULT_LANGUAGE, isLanguage, matchLanguage } from "../../i18n/config.ts";
import { sendError } from "./errors.ts";

/**
 * The public JSON shape of a property (spec point 3): snake_case `historical_significance`,
 * `images` as addresses, `preview` as the share image; plus the catalogue facts.
 */
export function toApiProperty(property: Property) {
  const first = property.images[0];
  return {
    id: property.id,
    slug: property.slug,
    name: property.name,
    location: property.location,
    region: property.region,
    bedrooms: property.bedrooms,
    guestCapacity: property.guestCapacity,
    membersOnly: property.membersOnly,
    summary: property.summary,
    amenities: property.amenities,
    activities: property.activities,
    ...(property.historicalSignificance
      ? { historical_significance: property.historicalSignificance }
      : {}),
    images: property.images.map((image) => mediaUrl(image.key, 800, "jpg")),
    ...(first ? { preview: mediaUrl(first.key, 1200, "jpg") } : {}),
  };
}

/** The fields of the public shape, which `?fields=` may choose from. */
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
type ApiPropertyField = (typeof API_PROPERTY_FIELDS)[number];

/**
 * Reads `?fields=a,b` (or repeated): the chosen fields, all when absent, or the name of the
 * first unknown one.
 */
function parseFields(params: URLSearchParams): { fields?: ApiPropertyField[]; unknown?: string } {
  const values = params
    .getAll("fields")
    .flatMap((value) => value.split(","))
    .filter(Boolean);
  if (!values.length) return {};
  const unknown = values.find(
    (value) => !(API_PROPERTY_FIELDS as readonly string[]).includes(value),
  );
  return unknown ? { unknown } : { fields: values as ApiPropertyField[] };
}

/** The chosen fields of a property's public shape (every field when none are chosen). */
function project(property: ReturnType<typeof toApiProperty>, fields?: ApiPropertyField[]) {
  if (!fields) return property;
  return Object.fromEntries(
    fields
      .filter((field) => field in property)
      .map((field) => [field, property[field as keyof typeof property]]),
  );
}

/** GET /api/castles and /api/castles/{id-or-slug}. Content language: `?lang=`, else en. */
export function catalogueRoutes(deps: Deps): Router {
  const router = Router();
  const contentLanguage = (lang: unknown) =>
    matchLanguage(typeof lang === "string" ? lang : undefined) ?? DEFAULT_LANGUAGE;

  router.get("/castles", async (req, res) => {
    // The documented languages only: `lang=de` is a client's mistake, not a request for English.
    if (req.query.lang !== undefined && req.query.lang !== "" && !isLanguage(req.query.lang))
      return sendError(res, 400, "errors.invalidFilter", { field: "lang" });
    const language = contentLanguage(req.query.lang);
    const url = new URL(req.originalUrl, "http://localhost");
    const parsed = CatalogueFilterSchema.safeParse(filterInputFromSearchParams(url.searchParams));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const key = issue?.message.startsWith("errors.") ? issue.message : "errors.invalidFilter";
      return sendError(res, 400, key, { field: String(issue?.path[0] ?? "") });
    }
    const { fields, unknown } = parseFields(url.searchParams);
    if (unknown) return sendError(res, 400, "errors.invalidFilter", { field: "fields" });
    // Images are a lookup per estate: skipped when no field shows them.
    const images = !fields || fields.includes("images") || fields.includes("preview");
    // Clients revalidate with the ETag Express computes; unchanged data costs a 304.
    res.set("Cache-Control", "public, no-cache");
    const filter = parsed.data;
    const isPaged =
      hasFilters(filter) ||
      filter.after !== undefined ||
      filter.before !== undefined ||
      filter.limit !== undefined;
    if (!isPaged) {
      // Spec point 7: without filters or paging, the whole list.
      const properties = await listProperties(deps, { language, images });
      return res.json(properties.map((property) => project(toApiProperty(property), fields)));
    }
    // With filters or paging: the same array shape, one keyset page at a time (`limit`, 24 by
    // default); the next page is in the Link header, the number of matches in X-Total-Count
    // ("1000+" past the cap: counting further would cost every page a scan of the matches).
    const page = await searchProperties(deps, { language, filter, images });
    const link = (cursor: "after" | "before", value: string, rel: string) => {
      const next = new URLSearchParams(url.searchParams);
      next.delete("after");
      next.delete("before");
      next.set(cursor, value);
      return `</api/castles?${next}>; rel="${rel}"`;
    };
    const links = [
      page.nextAfter !== null ? link("after", page.nextAfter, "next") : null,
      page.previousBefore !== null ? link("before", page.previousBefore, "prev") : null,
    ].filter(Boolean);
    if (links.length) res.set("Link", links.join(", "));
    res.set("X-Total-Count", page.isTotalCapped ? `${page.total}+` : String(page.total));
    res.json(page.properties.map((property) => project(toApiProperty(property), fields)));
  });

  router.get("/castles/:idOrSlug", async (req, res) => {
    const property = await getProperty(deps, {
      idOrSlug: req.params.idOrSlug,
      language: contentLanguage(req.query.lang),
    });
    res.set("Cache-Control", "public, no-cache");
    res.json(toApiProperty(property));
  });

  return router;
}
