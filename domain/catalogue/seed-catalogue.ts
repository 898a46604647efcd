import { createHash } from "node:crypto";
import { and, count, eq, gt, inArray, sql } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import { notifyCatalogueChanged } from "./catalogue-changes.ts";
import { isLanguage } from "#i18n/config.ts";
import type { PropertyContent } from "./property-content.schema.ts";
import {
  estateRateRevisions,
  properties,
  propertyFieldEdits,
  propertyImages,
  propertyTranslations,
} from "#db/schema/index.ts";
import { LANGUAGES } from "#i18n/config.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { demoRates } from "../pricing/estate-rates.ts";
import { utcToday } from "../requests/dates.ts";
import {
  ILLUSTRATION_HEIGHT,
  ILLUSTRATION_VERSION,
  ILLUSTRATION_WIDTH,
  type IllustrationSource,
} from "../media/artwork.ts";
import { searchDocument } from "./search-text.ts";
import { slugify } from "./slug.ts";

/** The image key changes whenever its source or the generator changes (immutable URLs). */
export function imageKeyFor(slug: string, source: IllustrationSource): string {
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

export interface SeedReport {
  /** Estates in the content. */
  properties: number;
  created: number;
  updated: number;
  /** Illustration images written. */
  images: number;
  /** Estates given demo rates (only those without rates of their own). */
  rates: number;
  /** Fields a person (owner or staff) has set, which the content did not overwrite. */
  skipped: { propertyId: number; field: string; lang: string; editedByRole: string }[];
}

export interface SeedOptions {
  /** Work out the report, then roll everything back. */
  dryRun?: boolean;
  onProgress?: (done: number, total: number) => void;
}

class DryRunRollback extends Error {}

/** Content fields of a translation, by the names provenance uses (owner-fields.ts). */
const TRANSLATED_COLUMNS = {
  name: "name",
  location: "location",
  description: "summary",
  facilities: "amenities",
  activities: "activities",
  history: "historicalSignificance",
} as const;

/**
 * Writes the catalogue content into the database: inserts new estates and updates existing
 * ones by id, in one transaction, so running it twice leaves the same rows. Whatever a person
 * has set (per-field provenance in property_field_edits: an owner's text in one language, the
 * image selection, the capacity...) is left as it is and reported in `skipped`; uploads are
 * never touched. Estates absent from the content are left alone.
 */
export async function seedCatalogue(
  deps: Deps,
  catalogue: PropertyContent[],
  options: SeedOptions = {},
): Promise<SeedReport> {
  const report: SeedReport = {
    properties: catalogue.length,
    created: 0,
    updated: 0,
    images: 0,
    rates: 0,
    skipped: [],
  };
  try {
    await withTransaction(deps.db, async (tx) => {
      const ids = catalogue.map((item) => item.id);
      const [existing, edits] = ids.length
        ? await Promise.all([
            tx.select({ id: properties.id }).from(properties).where(inArray(properties.id, ids)),
            tx.select().from(propertyFieldEdits).where(inArray(propertyFieldEdits.propertyId, ids)),
          ])
        : [[], []];
      const existingIds = new Set(existing.map((row) => row.id));
      const editsById = new Map<number, Map<string, string>>();
      for (const edit of edits) {
        const map = editsById.get(edit.propertyId) ?? new Map<string, string>();
        map.set(`${edit.field}:${edit.lang}`, edit.editedByRole);
        editsById.set(edit.propertyId, map);
      }
      let done = 0;
      for (const item of catalogue) {
        const edited = editsById.get(item.id) ?? new Map<string, string>();
        const keep = (field: string, lang = "*") => {
          const role = edited.get(`${field}:${lang}`);
          if (role) report.skipped.push({ propertyId: item.id, field, lang, editedByRole: role });
          return role !== undefined;
        };
        if (existingIds.has(item.id)) report.updated += 1;
        else report.created += 1;
        await seedOne(tx, item, keep, report);
        options.onProgress?.(++done, catalogue.length);
      }
      report.rates = await seedRates(tx, catalogue, utcToday(nowOf(deps)));
      if (options.dryRun) throw new DryRunRollback();
      // Every running instance drops its cached pages once this commits (imports included).
      await notifyCatalogueChanged({ db: tx });
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) throw error;
  }
  if (!options.dryRun)
    deps.log.info(
      { properties: report.properties, images: report.images, skipped: report.skipped.length },
      "catalogue seeded",
    );
  return report;
}

/**
 * Demo rates for each estate of the content that has none yet, from its seed pricing: rates a
 * person saved are never replaced, and a catalogue seeded again adds no revision.
 */
async function seedRates(
  tx: Database,
  catalogue: PropertyContent[],
  today: string,
): Promise<number> {
  const ids = catalogue.map((item) => item.id);
  if (!ids.length) return 0;
  const priced = await tx
    .selectDistinct({ id: estateRateRevisions.propertyId })
    .from(estateRateRevisions)
    .where(inArray(estateRateRevisions.propertyId, ids));
  const has = new Set(priced.map((row) => row.id));
  const rows = catalogue.flatMap((item) => {
    if (has.has(item.id)) return [];
    const rates = demoRates(
      {
        startingPrice: item.startingPrice ?? null,
        priceRange: item.priceRange ?? null,
        guestCapacity: item.guestCapacity,
        region: item.region,
      },
      today,
    );
    if (!rates) return [];
    return [
      {
        propertyId: item.id,
        revision: 1,
        rates: rates as unknown as Record<string, unknown>,
        actorRole: "seed" as const,
        actorEmail: null,
        createdAt: new Date(`${today}T00:00:00Z`),
      },
    ];
  });
  if (rows.length) await tx.insert(estateRateRevisions).values(rows);
  return rows.length;
}

/**
 * The owner's facts the content gives, as columns: each one absent from the content, or set by
 * a person (provenance under the owner editor's field name), is left as the database has it.
 */
function ownerFactsOf(item: PropertyContent, keep: (field: string) => boolean) {
  const facts: Partial<typeof properties.$inferInsert> = {};
  const given = <T>(value: T | undefined, field: string): value is T =>
    value !== undefined && !keep(field);
  if (given(item.websiteUrl, "url")) facts.websiteUrl = item.websiteUrl;
  if (given(item.startingPrice, "starting_price")) facts.startingPrice = item.startingPrice;
  if (given(item.priceRange, "price_range")) facts.priceRange = item.priceRange;
  if (given(item.phone, "phone")) facts.phone = item.phone;
  if (given(item.address, "address")) facts.address = item.address;
  if (given(item.postalCode, "postal_code")) facts.postalCode = item.postalCode;
  if (given(item.city, "city")) facts.city = item.city;
  if (given(item.coordinates, "coordinates")) {
    facts.latitude = item.coordinates.lat;
    facts.longitude = item.coordinates.lng;
  }
  return facts;
}

async function seedOne(
  tx: Database,
  item: PropertyContent,
  keep: (field: string, lang?: string) => boolean,
  report: SeedReport,
) {
  const slug = slugify(item.content.en.name);
  const facts = {
    region: item.region,
    membersOnly: item.membersOnly,
    amenityKeys: item.amenityKeys,
    scrapedAt: sql`now()`,
    ...(keep("name", "en") ? {} : { slug }),
    ...(keep("beds") ? {} : { bedrooms: item.bedrooms }),
    ...(keep("guest_capacity") ? {} : { guestCapacity: item.guestCapacity }),
    ...(keep("owner_email") ? {} : { ownerEmail: item.ownerEmail }),
    ...ownerFactsOf(item, keep),
  };
  await tx
    .insert(properties)
    .values({
      id: item.id,
      slug,
      bedrooms: item.bedrooms,
      guestCapacity: item.guestCapacity,
      ownerEmail: item.ownerEmail,
      ...facts,
    })
    .onConflictDoUpdate({ target: properties.id, set: { ...facts, updatedAt: sql`now()` } });

  const current = await tx
    .select()
    .from(propertyTranslations)
    .where(eq(propertyTranslations.propertyId, item.id));
  for (const lang of LANGUAGES) {
    const text = item.content[lang];
    const before = current.find((row) => row.lang === lang);
    const fromContent = {
      name: text.name,
      location: text.location,
      summary: text.summary,
      amenities: text.amenities,
      activities: text.activities,
      historicalSignificance: text.historicalSignificance ?? null,
    };
    const merged = { ...fromContent };
    if (before)
      for (const [field, column] of Object.entries(TRANSLATED_COLUMNS))
        if (keep(field, lang)) Object.assign(merged, { [column]: before[column] });
    const row = { ...merged, searchDocument: searchDocument(lang, merged) };
    await tx
      .insert(propertyTranslations)
      .values({ propertyId: item.id, lang, ...row })
      .onConflictDoUpdate({
        target: [propertyTranslations.propertyId, propertyTranslations.lang],
        set: row,
      });
  }

  if (keep("images")) return;
  // An estate with uploads has had its gallery arranged by a person: leave it as it is.
  const [uploads] = await tx
    .select({ n: count() })
    .from(propertyImages)
    .where(
      and(
        eq(propertyImages.propertyId, item.id),
        sql`${propertyImages.source}->>'kind' = 'upload'`,
      ),
    );
  if ((uploads?.n ?? 0) > 0) {
    report.skipped.push({ propertyId: item.id, field: "images", lang: "*", editedByRole: "owner" });
    return;
  }
  const { terrain, architecture, imageCount: total } = item.illustration;
  const images = Array.from({ length: total }, (_, index) => {
    const source = { kind: "illustration" as const, seed: slug, terrain, architecture, index };
    return {
      propertyId: item.id,
      position: index,
      key: imageKeyFor(slug, source),
      width: ILLUSTRATION_WIDTH,
      height: ILLUSTRATION_HEIGHT,
      source,
      selectedRank: index,
    };
  });
  report.images += images.length;
  // Illustrations beyond the new count go; uploads (positions after them) never do.
  await tx
    .delete(propertyImages)
    .where(
      and(
        eq(propertyImages.propertyId, item.id),
        gt(propertyImages.position, total - 1),
        sql`${propertyImages.source}->>'kind' = 'illustration'`,
      ),
    );
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
        selectedRank: sql`excluded.selected_rank`,
      },
    });
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
