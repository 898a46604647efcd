import {
  and,
  arrayContains,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  lt,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import { properties, propertyImages, propertyTranslations } from "../../db/schema/index.ts";
import { DEFAULT_LANGUAGE, type Language } from "../../i18n/config.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import type { Property, PropertyImage } from "./property.ts";
import { CATALOGUE_PAGE_SIZE, type CatalogueFilter } from "./catalogue-filter.schema.ts";
import { chineseTsQuery } from "./search-text.ts";
import { slugify } from "./slug.ts";

/**
 * Reads properties with their text in `language` (English where a translation is missing) and
 * their selected images in order. Three indexed queries, whatever the number of properties.
 */
async function readProperties(
  deps: Deps,
  language: Language,
  where?: SQL,
  page?: { limit: number; isBackward: boolean },
): Promise<Property[]> {
  const query = deps.db
    .select()
    .from(properties)
    .where(where)
    .orderBy(page?.isBackward ? desc(properties.id) : asc(properties.id));
  const found = page ? await query.limit(page.limit) : await query;
  const rows = page?.isBackward ? found.reverse() : found;
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
      .where(and(inArray(propertyImages.propertyId, ids), isNotNull(propertyImages.selectedRank)))
      .orderBy(asc(propertyImages.propertyId), asc(propertyImages.selectedRank)),
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

/**
 * The search condition of a free-text query, in any of the four languages: each translation is
 * matched with its own language's configuration, Chinese through bigrams.
 */
function matchesText(q: string): SQL {
  const perLanguage: SQL[] = [
    sql`(${propertyTranslations.lang} = 'en' and ${propertyTranslations.searchVector} @@ websearch_to_tsquery('english', ${q}))`,
    sql`(${propertyTranslations.lang} = 'fr' and ${propertyTranslations.searchVector} @@ websearch_to_tsquery('french', ${q}))`,
    sql`(${propertyTranslations.lang} = 'it' and ${propertyTranslations.searchVector} @@ websearch_to_tsquery('italian', ${q}))`,
    sql`(${propertyTranslations.lang} = 'zh' and ${propertyTranslations.searchVector} @@ websearch_to_tsquery('simple', ${q}))`,
  ];
  const chinese = chineseTsQuery(q);
  if (chinese) {
    perLanguage.push(
      sql`(${propertyTranslations.lang} = 'zh' and ${propertyTranslations.searchVector} @@ to_tsquery('simple', ${chinese}))`,
    );
  }
  return sql`exists (select 1 from ${propertyTranslations} where ${propertyTranslations.propertyId} = ${properties.id} and (${or(...perLanguage)}))`;
}

/** The filters as one condition on `properties` (without the page cursors). */
function filterCondition(filter: CatalogueFilter): SQL | undefined {
  return and(
    filter.region ? eq(properties.region, filter.region) : undefined,
    filter.guests ? gte(properties.guestCapacity, filter.guests) : undefined,
    filter.bedrooms ? gte(properties.bedrooms, filter.bedrooms) : undefined,
    filter.amenities?.length ? arrayContains(properties.amenityKeys, filter.amenities) : undefined,
    filter.members ? eq(properties.membersOnly, true) : undefined,
    filter.q ? matchesText(filter.q) : undefined,
  );
}

export interface CataloguePage {
  properties: Property[];
  /** How many properties match the filters, over all pages. */
  total: number;
  /** Cursor of the next page (`after`), when there is one. */
  nextAfter: number | null;
  /** Cursor of the previous page (`before`), when there is one. */
  previousBefore: number | null;
}

/**
 * One page of the catalogue matching `filter`, in catalogue order, paged by keyset on the id
 * (`after` moves forward, `before` backward), so a page costs the same wherever it is.
 */
export async function searchProperties(
  deps: Deps,
  input: { language: Language; filter: CatalogueFilter; pageSize?: number },
): Promise<CataloguePage> {
  const { filter, language } = input;
  const pageSize = input.pageSize ?? CATALOGUE_PAGE_SIZE;
  const matching = filterCondition(filter);
  const isBackward = filter.before !== undefined && filter.after === undefined;
  const cursor = isBackward
    ? lt(properties.id, filter.before as number)
    : filter.after !== undefined
      ? gt(properties.id, filter.after)
      : undefined;
  const [found, [counted]] = await Promise.all([
    readProperties(deps, language, and(matching, cursor), { limit: pageSize + 1, isBackward }),
    deps.db.select({ n: count() }).from(properties).where(matching),
  ]);
  // One row more than a page tells whether another page lies in the direction of travel.
  const hasMore = found.length > pageSize;
  const page = isBackward ? found.slice(hasMore ? 1 : 0) : found.slice(0, pageSize);
  const first = page[0]?.id;
  const last = page.at(-1)?.id;
  const hasNext = isBackward ? true : hasMore;
  const hasPrevious = isBackward ? hasMore : filter.after !== undefined;
  return {
    properties: page,
    total: counted?.n ?? 0,
    nextAfter: hasNext && last !== undefined ? last : null,
    previousBefore: hasPrevious && first !== undefined ? first : null,
  };
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

/** The first image of the first estate: the site's default link-preview picture. */
export async function getFeaturedImage(deps: Deps): Promise<PropertyImage | null> {
  const [image] = await deps.db
    .select({ key: propertyImages.key, width: propertyImages.width, height: propertyImages.height })
    .from(propertyImages)
    .where(isNotNull(propertyImages.selectedRank))
    .orderBy(asc(propertyImages.propertyId), asc(propertyImages.selectedRank))
    .limit(1);
  return image ?? null;
}

/** The properties with these slugs, in the order given (unknown slugs are skipped). */
export async function listPropertiesBySlug(
  deps: Deps,
  input: { slugs: string[]; language: Language },
): Promise<Property[]> {
  const found = await readProperties(deps, input.language, inArray(properties.slug, input.slugs));
  return input.slugs.flatMap((slug) => found.filter((property) => property.slug === slug));
}

/** Every estate's id and name in one language, by name: the staff inbox's property filter. */
export async function listPropertyChoices(
  deps: Pick<Deps, "db">,
  input: { language: Language },
): Promise<{ id: number; name: string }[]> {
  const rows = await deps.db
    .select({ id: propertyTranslations.propertyId, name: propertyTranslations.name })
    .from(propertyTranslations)
    .where(eq(propertyTranslations.lang, input.language));
  return rows.sort((a, b) => a.name.localeCompare(b.name, input.language));
}
