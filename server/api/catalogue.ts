import { Router } from "express";
import type { z } from "zod";
import type { Property } from "#domain/catalogue/property.ts";
import { CATALOGUE_MAX_STAY_NIGHTS } from "#domain/catalogue/catalogue-filter.schema.ts";
import {
  type ApiPropertyField,
  getCastle,
  getCastleAvailability,
  listCastles,
} from "#domain/catalogue/catalogue.contract.ts";
import { getAvailability } from "#domain/calendar/availability.ts";
import { getProperty, searchProperties } from "#domain/catalogue/read-properties.ts";
import type { Deps } from "#domain/deps.ts";
import { mediaUrl } from "#domain/media/media-url.ts";
import { DEFAULT_LANGUAGE } from "#i18n/config.ts";
import { defineRoute, refuse } from "./define-route.ts";

/**
 * The public JSON shape of a property: snake_case `historical_significance`,
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

type ApiProperty = ReturnType<typeof toApiProperty>;

/** The chosen fields of a property's public shape (every field when none are chosen). */
function project(
  property: ApiProperty,
  fields?: ApiPropertyField[],
): ApiProperty | Partial<ApiProperty> {
  if (!fields) return property;
  return Object.fromEntries(
    fields.filter((field) => field in property).map((field) => [field, property[field]]),
  ) as Partial<ApiProperty>;
}

/**
 * A query that breaks its schema: 400 with the schema's own message where it has one (an
 * unknown region, stay dates that break their rules, a date past the booking horizon), else "Invalid filter: {field}" naming
 * the first parameter.
 */
function refuseFilter(_part: string, error: z.ZodError) {
  const issue = error.issues[0];
  const hasOwnMessage = /^(?:errors\.|catalogueDates\.|validation\.dateBeyondWindow$)/.test(
    issue?.message ?? "",
  );
  const key = hasOwnMessage ? issue!.message : "errors.invalidFilter";
  return refuse(400, "invalid_filter", key, {
    field: String(issue?.path[0] ?? ""),
    max: CATALOGUE_MAX_STAY_NIGHTS,
  });
}

/**
 * GET /api/castles, /api/castles/{id-or-slug} and its availability. Content language: `?lang=`,
 * else en. Every answer is public and kept by the response cache until the catalogue changes.
 */
export function catalogueRoutes(deps: Deps): Router {
  const router = Router();

  defineRoute(router, listCastles, {
    onInvalid: refuseFilter,
    handle: async ({ query, req, res }) => {
      const { lang, fields, ...filter } = query;
      const language = lang ?? DEFAULT_LANGUAGE;
      // Images are a lookup per estate: skipped when no field shows them.
      const images = !fields || fields.includes("images") || fields.includes("preview");
      // Clients revalidate with the ETag Express computes; unchanged data costs a 304.
      res.set("Cache-Control", "public, no-cache");
      // Always one keyset page (`limit`, 24 by default), filtered or not: the whole catalogue
      // in one answer would be a gigabyte at a million estates (docs/decisions/0025). The next
      // page is in the Link header, the number of matches in X-Total-Count ("1000+" past the
      // cap: counting further would cost every page a scan of the matches).
      const page = await searchProperties(deps, { language, filter, images });
      const url = new URL(req.originalUrl, "http://localhost");
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
      return {
        status: 200,
        body: page.properties.map((property) => project(toApiProperty(property), fields)),
      };
    },
  });

  defineRoute(router, getCastle, {
    onInvalid: refuseFilter,
    handle: async ({ params, query, res }) => {
      const property = await getProperty(deps, {
        idOrSlug: params.idOrSlug,
        language: query.lang ?? DEFAULT_LANGUAGE,
      });
      res.set("Cache-Control", "public, no-cache");
      return { status: 200, body: toApiProperty(property) };
    },
  });

  defineRoute(router, getCastleAvailability, {
    onInvalid: refuseFilter,
    handle: async ({ params, query, res }) => {
      const availability = await getAvailability(deps, {
        idOrSlug: params.idOrSlug,
        from: query.from,
        to: query.to,
      });
      res.set("Cache-Control", "public, no-cache");
      return { status: 200, body: availability };
    },
  });

  return router;
}
