import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  properties,
  propertyClaims,
  propertyImages,
  propertyStaleTranslations,
  propertyTranslations,
} from "#db/schema/index.ts";
import { DEFAULT_LANGUAGE, type Language } from "#i18n/config.ts";
import type { Deps } from "../deps.ts";
import { ForbiddenError, NoClaimedEstateError, NotFoundError } from "../errors.ts";
import { mediaUrl } from "../media/media-url.ts";
import { EDITABLE_FIELDS, type EditableField, formatFieldValue } from "./owner-fields.ts";
import type { EstateActor, OwnerPropertyDetails } from "./owner-property.ts";

type Db = Pick<Deps, "db">;

/** An email as stored and compared: trimmed, lowercased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Estates whose contact email on record is `email` (before any claim), by id. */
export async function findEstatesByOwnerEmail(
  deps: Db,
  input: { email: string; language: Language },
): Promise<{ id: number; name: string; location: string }[]> {
  const rows = await deps.db
    .select({
      id: properties.id,
      lang: propertyTranslations.lang,
      name: propertyTranslations.name,
      location: propertyTranslations.location,
    })
    .from(properties)
    .innerJoin(propertyTranslations, eq(propertyTranslations.propertyId, properties.id))
    .where(
      and(
        sql`lower(${properties.ownerEmail}) = ${normaliseEmail(input.email)}`,
        inArray(propertyTranslations.lang, [input.language, DEFAULT_LANGUAGE]),
      ),
    )
    .orderBy(asc(properties.id));
  return pickLanguage(rows, input.language);
}

/** Rows in two languages (the wanted one and English) reduced to one per estate. */
function pickLanguage<T extends { id: number; lang: string }>(
  rows: T[],
  language: Language,
): Omit<T, "lang">[] {
  const byId = new Map<number, T>();
  for (const row of rows) {
    const current = byId.get(row.id);
    if (!current || row.lang === language) byId.set(row.id, row);
  }
  return [...byId.values()].map(({ lang: _lang, ...rest }) => rest);
}

/**
 * The estates an owner may open: claimed with this email by a claim that has not ended, and
 * still on record with it. When the estate's owner email changes, its claims end for good (a
 * trigger, migration 0016): changing it back does not revive them; the owner claims again.
 */
export async function listOwnerEstates(
  deps: Db,
  input: { email: string; language: Language },
): Promise<{ id: number; name: string }[]> {
  const email = normaliseEmail(input.email);
  const rows = await deps.db
    .selectDistinct({
      id: properties.id,
      lang: propertyTranslations.lang,
      name: propertyTranslations.name,
    })
    .from(properties)
    .innerJoin(propertyClaims, eq(propertyClaims.propertyId, properties.id))
    .innerJoin(propertyTranslations, eq(propertyTranslations.propertyId, properties.id))
    .where(
      and(
        sql`lower(${properties.ownerEmail}) = ${email}`,
        eq(propertyClaims.email, email),
        isNull(propertyClaims.endedAt),
        inArray(propertyTranslations.lang, [input.language, DEFAULT_LANGUAGE]),
      ),
    )
    .orderBy(asc(properties.id));
  return pickLanguage(rows, input.language);
}

/**
 * The estate `actor` may act on. An owner: `requested` if it is one of theirs (else the first
 * of theirs when nothing is requested); staff: `requested`, which they must name.
 * @throws NotFoundError when the estate does not exist; NoClaimedEstateError when an owner
 * names none and has none (left);
 * ForbiddenError when an owner asks for an estate that is not theirs.
 */
export async function resolveEstate(
  deps: Db,
  actor: EstateActor,
  requested: number | undefined,
): Promise<number> {
  if (actor.role === "staff") {
    if (requested === undefined) throw new NotFoundError("errors.propertyNotFound");
    const [row] = await deps.db
      .select({ id: properties.id })
      .from(properties)
      .where(eq(properties.id, requested));
    if (!row) throw new NotFoundError("errors.propertyNotFound");
    return row.id;
  }
  const mine = await listOwnerEstates(deps, { email: actor.email, language: DEFAULT_LANGUAGE });
  if (requested === undefined) {
    const first = mine[0];
    if (!first) throw new NoClaimedEstateError();
    return first.id;
  }
  if (mine.some((estate) => estate.id === requested)) return requested;
  // Whether the estate exists or not, an owner learns only that it is not theirs.
  throw new ForbiddenError();
}

/** Each editable field's stored value, read from the estate's rows (one language). */
export function storedValues(
  row: typeof properties.$inferSelect,
  text: typeof propertyTranslations.$inferSelect,
): Record<EditableField, unknown> {
  return {
    name: text.name,
    location: text.location,
    description: text.summary,
    history: text.historicalSignificance,
    facilities: text.amenities,
    activities: text.activities,
    services: text.services,
    accommodation_description: text.accommodationDescription,
    url: row.websiteUrl,
    starting_price: row.startingPrice,
    price_range: row.priceRange,
    guest_capacity: row.guestCapacity,
    beds: row.bedrooms,
    phone: row.phone,
    address: row.address,
    postal_code: row.postalCode,
    city: row.city,
    coordinates:
      row.latitude !== null && row.longitude !== null
        ? { lat: row.latitude, lng: row.longitude }
        : null,
    website_info: editableWebsiteInfo(row.websiteInfo),
  };
}

/** The keys of website_info a person edits (the others are kept as found). */
export function editableWebsiteInfo(info: (typeof properties.$inferSelect)["websiteInfo"]) {
  if (!info) return {};
  const { url, email, phone, is_on_airbnb, facebook, instagram } = info;
  return Object.fromEntries(
    Object.entries({ url, email, phone, is_on_airbnb, facebook, instagram }).filter(
      ([, value]) => value !== undefined,
    ),
  );
}

/** The owner property record of one estate in `language` (English text where it is missing). */
export async function getOwnerPropertyDetails(
  deps: Db,
  actor: EstateActor,
  input: { propertyId: number; language: Language },
): Promise<OwnerPropertyDetails> {
  const { propertyId, language } = input;
  const [[row], texts, images, stale, estates] = await Promise.all([
    deps.db.select().from(properties).where(eq(properties.id, propertyId)),
    deps.db
      .select()
      .from(propertyTranslations)
      .where(
        and(
          eq(propertyTranslations.propertyId, propertyId),
          inArray(propertyTranslations.lang, [language, DEFAULT_LANGUAGE]),
        ),
      ),
    deps.db
      .select()
      .from(propertyImages)
      .where(eq(propertyImages.propertyId, propertyId))
      .orderBy(sql`${propertyImages.selectedRank} asc nulls last`, asc(propertyImages.position)),
    deps.db
      .select()
      .from(propertyStaleTranslations)
      .where(eq(propertyStaleTranslations.propertyId, propertyId))
      .orderBy(asc(propertyStaleTranslations.field), asc(propertyStaleTranslations.lang)),
    actor.role === "owner"
      ? listOwnerEstates(deps, { email: actor.email, language })
      : Promise.resolve([]),
  ]);
  const text = texts.find((t) => t.lang === language) ?? texts[0];
  if (!row || !text) throw new NotFoundError("errors.propertyNotFound");
  const values = storedValues(row, text);
  const info = row.websiteInfo ?? {};
  const url = (key: string) => mediaUrl(key, 800, "jpg");
  const selected = images.filter((image) => image.selectedRank !== null);
  return {
    id: row.id,
    slug: row.slug,
    language,
    contactEmail: row.ownerEmail || null,
    name: text.name,
    url: row.websiteUrl,
    location: text.location,
    description: text.summary,
    history: text.historicalSignificance,
    pricing: { starting_price: row.startingPrice, price_range: row.priceRange },
    guest_capacity: row.guestCapacity,
    contact: {
      phone: row.phone,
      address: row.address,
      postal_code: row.postalCode,
      city: row.city,
      coordinates: values.coordinates as OwnerPropertyDetails["contact"]["coordinates"],
    },
    facilities: text.amenities,
    services: text.services,
    activities: text.activities,
    accommodation: { beds: row.bedrooms, description: text.accommodationDescription },
    images: images.map((image) => url(image.key)),
    selectedImages: selected.map((image) => url(image.key)),
    website_info: {
      url: info.url ?? null,
      email: info.email ?? null,
      phone: info.phone ?? null,
      is_on_airbnb: info.is_on_airbnb ?? null,
      additional_images: info.additional_images ?? [],
      social_media: { facebook: info.facebook ?? null, instagram: info.instagram ?? null },
      last_updated: info.last_updated ?? null,
      email_found_date: info.email_found_date ?? null,
    },
    scraped_at: row.scrapedAt?.toISOString() ?? null,
    fields: Object.fromEntries(
      EDITABLE_FIELDS.map((field) => [field, formatFieldValue(field, values[field])]),
    ) as Record<EditableField, string>,
    gallery: images.map((image) => ({
      key: image.key,
      width: image.width,
      height: image.height,
      selectedRank: image.selectedRank === null ? null : selected.indexOf(image) + 1,
      uploaded: image.source.kind === "upload",
    })),
    stale: stale.map((flag) => ({
      field: flag.field,
      lang: flag.lang,
      sourceLang: flag.sourceLang,
      since: flag.since.toISOString(),
    })),
    estates,
    actor: { role: actor.role, email: actor.email },
  };
}
