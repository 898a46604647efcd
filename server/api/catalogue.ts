import { Router } from "express";
import type { Property } from "../../domain/catalogue/property.ts";
import { getProperty, listProperties } from "../../domain/catalogue/read-properties.ts";
import type { Deps } from "../../domain/deps.ts";
import { mediaUrl } from "../../domain/media/media-url.ts";
import { DEFAULT_LANGUAGE, matchLanguage } from "../../i18n/config.ts";

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
    const properties = await listProperties(deps, { language: contentLanguage(req.query.lang) });
    // Clients revalidate with the ETag Express computes; unchanged data costs a 304.
    res.set("Cache-Control", "public, no-cache");
    res.json(properties.map(toApiProperty));
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
