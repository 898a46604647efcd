import { asc, sql } from "drizzle-orm";
import { properties, propertyImages, propertyTranslations } from "#db/schema/index.ts";
import { LANGUAGES, type Language } from "#i18n/config.ts";
import type { Deps } from "../deps.ts";
import type { PropertyContent, PropertyTranslation } from "./property-content.schema.ts";

/**
 * Reads the whole catalogue back into the content shape that seedCatalogue writes, by id, so
 * that exporting and importing the result changes nothing. The text is what the database holds
 * now, owners' and staff's edits included. The illustration is read from the generated images
 * (their terrain, architecture and count); owners' uploads are not content and are left out.
 */
export async function exportCatalogue(deps: Deps): Promise<PropertyContent[]> {
  const [estates, translations, illustrations] = await Promise.all([
    deps.db.select().from(properties).orderBy(asc(properties.id)),
    deps.db.select().from(propertyTranslations),
    deps.db
      .select({ propertyId: propertyImages.propertyId, source: propertyImages.source })
      .from(propertyImages)
      .where(sql`${propertyImages.source}->>'kind' = 'illustration'`)
      .orderBy(asc(propertyImages.propertyId), asc(propertyImages.position)),
  ]);

  const textOf = new Map<string, PropertyTranslation>();
  for (const row of translations) {
    textOf.set(`${row.propertyId}:${row.lang}`, {
      name: row.name,
      location: row.location,
      summary: row.summary,
      amenities: row.amenities,
      activities: row.activities,
      ...(row.historicalSignificance === null
        ? {}
        : { historicalSignificance: row.historicalSignificance }),
    });
  }
  const illustrationOf = new Map<number, PropertyContent["illustration"]>();
  for (const { propertyId, source } of illustrations) {
    if (source.kind !== "illustration") continue;
    const known = illustrationOf.get(propertyId);
    if (known) known.imageCount += 1;
    else
      illustrationOf.set(propertyId, {
        terrain: source.terrain as PropertyContent["illustration"]["terrain"],
        architecture: source.architecture as PropertyContent["illustration"]["architecture"],
        imageCount: 1,
      });
  }

  return estates.map((estate) => {
    const illustration = illustrationOf.get(estate.id);
    // Every estate the seed or an import wrote has both; anything else is a broken database.
    if (!illustration) throw new Error(`estate ${estate.id} has no generated images`);
    const content = Object.fromEntries(
      LANGUAGES.map((lang) => {
        const text = textOf.get(`${estate.id}:${lang}`);
        if (!text) throw new Error(`estate ${estate.id} has no text in ${lang}`);
        return [lang, text];
      }),
    ) as Record<Language, PropertyTranslation>;
    return {
      id: estate.id,
      region: estate.region as PropertyContent["region"],
      bedrooms: estate.bedrooms,
      guestCapacity: estate.guestCapacity,
      membersOnly: estate.membersOnly,
      ownerEmail: estate.ownerEmail,
      amenityKeys: estate.amenityKeys as PropertyContent["amenityKeys"],
      ...ownerFactsOf(estate),
      illustration,
      content,
    };
  });
}

/** The owner's facts an estate has, in the content's shape and order (unset ones left out). */
function ownerFactsOf(estate: typeof properties.$inferSelect) {
  const facts: Partial<PropertyContent> = {};
  if (estate.websiteUrl !== null) facts.websiteUrl = estate.websiteUrl;
  if (estate.startingPrice !== null)
    facts.startingPrice = estate.startingPrice as PropertyContent["startingPrice"];
  if (estate.priceRange !== null)
    facts.priceRange = estate.priceRange as PropertyContent["priceRange"];
  if (estate.phone !== null) facts.phone = estate.phone;
  if (estate.address !== null) facts.address = estate.address;
  if (estate.postalCode !== null) facts.postalCode = estate.postalCode;
  if (estate.city !== null) facts.city = estate.city;
  if (estate.latitude !== null && estate.longitude !== null)
    facts.coordinates = { lat: estate.latitude, lng: estate.longitude };
  return facts;
}
