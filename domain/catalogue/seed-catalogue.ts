import { createHash } from "node:crypto";
import { and, count, eq, gt, sql } from "drizzle-orm";
import { isLanguage } from "../../i18n/config.ts";
import type { PropertyContent } from "../../content/property-content.schema.ts";
import {
  type ImageSource,
  properties,
  propertyImages,
  propertyTranslations,
} from "../../db/schema/index.ts";
import { LANGUAGES } from "../../i18n/config.ts";
import type { Deps } from "../deps.ts";
import {
  ILLUSTRATION_HEIGHT,
  ILLUSTRATION_VERSION,
  ILLUSTRATION_WIDTH,
} from "../media/illustration-source.ts";
import { searchDocument } from "./search-text.ts";
import { slugify } from "./slug.ts";

/** The image key changes whenever its source or the generator changes (immutable URLs). */
export function imageKeyFor(slug: string, source: ImageSource): string {
  const hash = createHash("sha256")
    .update(`${ILLUSTRATION_VERSION}:${JSON.stringify(source)}`)
    .digest("hex")
    .slice(0, 10);
  return `${slug}-${source.index + 1}-${hash}`;
}

export async function isCatalogueEmpty(deps: Deps): Promise<boolean> {
  const [row] = await deps.db.select({ n: count() }).from(properties);
  return (row?.n ?? 0) === 0;
}

/**
 * Writes the catalogue content into the database: inserts new properties and updates existing
 * ones by id, in one transaction, so running it twice leaves the same rows. An owner's image
 * selection survives a re-seed; properties absent from the content are left alone.
 */
export async function seedCatalogue(
  deps: Deps,
  catalogue: PropertyContent[],
): Promise<{ properties: number; images: number }> {
  let imageCount = 0;
  await deps.db.transaction(async (tx) => {
    for (const item of catalogue) {
      const slug = slugify(item.content.en.name);
      const facts = {
        slug,
        region: item.region,
        bedrooms: item.bedrooms,
        guestCapacity: item.guestCapacity,
        membersOnly: item.membersOnly,
        ownerEmail: item.ownerEmail,
        amenityKeys: item.amenityKeys,
      };
      await tx
        .insert(properties)
        .values({ id: item.id, ...facts })
        .onConflictDoUpdate({ target: properties.id, set: { ...facts, updatedAt: sql`now()` } });

      await tx
        .insert(propertyTranslations)
        .values(
          LANGUAGES.map((lang) => {
            const text = item.content[lang];
            return {
              propertyId: item.id,
              lang,
              name: text.name,
              location: text.location,
              summary: text.summary,
              amenities: text.amenities,
              activities: text.activities,
              historicalSignificance: text.historicalSignificance ?? null,
              searchDocument: searchDocument(lang, text),
            };
          }),
        )
        .onConflictDoUpdate({
          target: [propertyTranslations.propertyId, propertyTranslations.lang],
          set: {
            name: sql`excluded.name`,
            location: sql`excluded.location`,
            summary: sql`excluded.summary`,
            amenities: sql`excluded.amenities`,
            activities: sql`excluded.activities`,
            historicalSignificance: sql`excluded.historical_significance`,
            searchDocument: sql`excluded.search_document`,
          },
        });

      const { terrain, architecture, imageCount: total } = item.illustration;
      const images = Array.from({ length: total }, (_, index) => {
        const source: ImageSource = {
          kind: "illustration",
          seed: slug,
          terrain,
          architecture,
          index,
        };
        return {
          propertyId: item.id,
          position: index,
          key: imageKeyFor(slug, source),
          width: ILLUSTRATION_WIDTH,
          height: ILLUSTRATION_HEIGHT,
          source,
        };
      });
      imageCount += images.length;
      await tx
        .delete(propertyImages)
        .where(and(eq(propertyImages.propertyId, item.id), gt(propertyImages.position, total - 1)));
      await tx
        .insert(propertyImages)
        .values(images)
        .onConflictDoUpdate({
          target: [propertyImages.propertyId, propertyImages.position],
          set: {
            key: sql`excluded.key`,
            width: sql`excluded.width`,
            height: sql`excluded.height`,
            source: sql`excluded.source`,
          },
        });
    }
  });
  deps.log.info({ properties: catalogue.length, images: imageCount }, "catalogue seeded");
  return { properties: catalogue.length, images: imageCount };
}

/**
 * Fills the search text of translations written before search existed (an empty
 * `search_document`), so an older database becomes searchable at its next start.
 */
export async function refreshSearchDocuments(deps: Deps): Promise<number> {
  const stale = await deps.db
    .select()
    .from(propertyTranslations)
    .where(eq(propertyTranslations.searchDocument, ""));
  for (const row of stale) {
    if (!isLanguage(row.lang)) continue;
    await deps.db
      .update(propertyTranslations)
      .set({ searchDocument: searchDocument(row.lang, row) })
      .where(
        and(
          eq(propertyTranslations.propertyId, row.propertyId),
          eq(propertyTranslations.lang, row.lang),
        ),
      );
  }
  return stale.length;
}
