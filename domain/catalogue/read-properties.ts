import { and, asc, eq, inArray, type SQL } from "drizzle-orm";
import { properties, propertyImages, propertyTranslations } from "../../db/schema/index.ts";
import { DEFAULT_LANGUAGE, type Language } from "../../i18n/config.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import type { Property, PropertyImage } from "./property.ts";
import { slugify } from "./slug.ts";

/**
 * Reads properties with their text in `language` (English where a translation is missing) and
 * their selected images in order. Three indexed queries, whatever the number of properties.
 */
async function readProperties(deps: Deps, language: Language, where?: SQL): Promise<Property[]> {
  const rows = await deps.db.select().from(properties).where(where).orderBy(asc(properties.id));
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const languages = language === DEFAULT_LANGUAGE ? [language] : [language, DEFAULT_LANGUAGE];
  const [translations, images] = await Promise.all([
    deps.db
      .select()
      .from(propertyTranslations)
      .where(
        and(
          inArray(propertyTranslations.propertyId, ids),
          inArray(propertyTranslations.lang, languages),
        ),
      ),
    deps.db
      .select({
        propertyId: propertyImages.propertyId,
        key: propertyImages.key,
        width: propertyImages.width,
        height: propertyImages.height,
      })
      .from(propertyImages)
      .where(and(inArray(propertyImages.propertyId, ids), eq(propertyImages.isSelected, true)))
      .orderBy(asc(propertyImages.propertyId), asc(propertyImages.position)),
  ]);

  const textById = new Map<number, (typeof translations)[number]>();
  for (const translation of translations) {
    const current = textById.get(translation.propertyId);
    if (!current || translation.lang === language)
      textById.set(translation.propertyId, translation);
  }
  const imagesById = new Map<number, PropertyImage[]>();
  for (const { propertyId, ...image } of images) {
    const list = imagesById.get(propertyId) ?? [];
    list.push(image);
    imagesById.set(propertyId, list);
  }

  return rows.flatMap((row) => {
    const text = textById.get(row.id);
    // A property without even an English text is not publishable yet.
    if (!text) return [];
    return [
      {
        id: row.id,
        slug: row.slug,
        language: text.lang as Language,
        region: row.region,
        bedrooms: row.bedrooms,
        guestCapacity: row.guestCapacity,
        membersOnly: row.membersOnly,
        amenityKeys: row.amenityKeys,
        name: text.name,
        location: text.location,
        summary: text.summary,
        amenities: text.amenities,
        activities: text.activities,
        historicalSignificance: text.historicalSignificance,
        images: imagesById.get(row.id) ?? [],
      },
    ];
  });
}

/** Every property of the network, in catalogue order, in one language. */
export function listProperties(deps: Deps, input: { language: Language }): Promise<Property[]> {
  return readProperties(deps, input.language);
}

/**
 * One property by numeric id or by slug. The slug may be given in the spec's raw form (name
 * lowercased, spaces to hyphens, accents kept): it is normalised the same way.
 * @throws NotFoundError when nothing matches.
 */
export async function getProperty(
  deps: Deps,
  input: { idOrSlug: string; language: Language },
): Promise<Property> {
  const raw = input.idOrSlug.trim();
  const where = /^\d{1,9}$/.test(raw)
    ? eq(properties.id, Number(raw))
    : eq(properties.slug, slugify(decodeURIComponentSafe(raw)));
  const [property] = await readProperties(deps, input.language, where);
  if (!property) throw new NotFoundError("errors.propertyNotFound");
  return property;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
