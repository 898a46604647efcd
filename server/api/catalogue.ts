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
import { DEFAULT_LANGUAGE, matchLanguage } from "../../i18n/config.ts";
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

/** GET /api/castles and /api/castles/{id-or-slug}. Content language: `?lang=`, else en. */
export function catalogueRoutes(deps: Deps): Router {
  const router = Router();
  const contentLanguage = (lang: unknown) =>
    matchLanguage(typeof lang === "string" ? lang : undefined) ?? DEFAULT_LANGUAGE;

  router.get("/castles", async (req, res) => {
    const language = contentLanguage(req.query.lang);
    const url = new URL(req.originalUrl, "http://localhost");
    const parsed = CatalogueFilterSchema.safeParse(filterInputFromSearchParams(url.searchParams));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const key = issue?.message.startsWith("errors.") ? issue.message : "errors.invalidFilter";
      return sendError(res, 400, key, { field: String(issue?.path[0] ?? "") });
    }
    // Clients revalidate with the ETag Express computes; unchanged data costs a 304.
    res.set("Cache-Control", "public, no-cache");
    const filter = parsed.data;
    if (!hasFilters(filter) && filter.after === undefined && filter.before === undefined) {
      // Spec point 7: without filters, the whole list.
      const properties = await listProperties(deps, { language });
      return res.json(properties.map(toApiProperty));
    }
    // With filters: the same array shape, one keyset page at a time; the next page is in the
    // Link header and the number of matches in X-Total-Count.
    const page = await searchProperties(deps, { language, filter });
    const link = (cursor: "after" | "before", id: number, rel: string) => {
      const next = new URLSearchParams(url.searchParams);
      next.delete("after");
      next.delete("before");
      next.set(cursor, String(id));
      return `</api/castles?${next}>; rel="${rel}"`;
    };
    const links = [
      page.nextAfter !== null ? link("after", page.nextAfter, "next") : null,
      page.previousBefore !== null ? link("before", page.previousBefore, "prev") : null,
    ].filter(Boolean);
    if (links.length) res.set("Link", links.join(", "));
    res.set("X-Total-Count", String(page.total));
    res.json(page.properties.map(toApiProperty));
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
