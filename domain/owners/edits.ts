import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import {
  properties,
  propertyFieldEdits,
  propertyImages,
  propertyRevisions,
  propertyStaleTranslations,
  propertyTranslations,
} from "#db/schema/index.ts";
import { type Language, LANGUAGES } from "#i18n/config.ts";
import { notifyCatalogueChanged } from "../catalogue/catalogue-changes.ts";
import { searchDocument } from "../catalogue/search-text.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { storedValues, normaliseEmail } from "./estates.ts";
import {
  type EditableField,
  formatFieldValue,
  isEditableField,
  isEmailAddress,
  isSameValue,
  isTranslatedField,
  parseFieldValue,
  type RecordedField,
  type StoredValue,
  type WebsiteInfoValue,
} from "./owner-fields.ts";
import type { EstateActor } from "./owner-property.ts";
import { MAX_SELECTED_IMAGES } from "./owners.contract.ts";

type Db = Pick<Deps, "db">;

/** Most images an estate's public gallery shows. */
export { MAX_SELECTED_IMAGES };

/** Translated fields that feed the catalogue's search text. */
const SEARCHED = new Set([
  "name",
  "location",
  "description",
  "facilities",
  "activities",
  "history",
]);

/**
 * Writes one field's value (already parsed) to the estate's rows. Shared by edits and reverts.
 * The caller holds the estate's row lock.
 */
export async function writeFieldValue(
  tx: Database,
  propertyId: number,
  field: EditableField,
  lang: Language,
  value: StoredValue,
): Promise<void> {
  if (isTranslatedField(field)) {
    const column = {
      name: "name",
      location: "location",
      description: "summary",
      history: "historicalSignificance",
      facilities: "amenities",
      activities: "activities",
      services: "services",
      accommodation_description: "accommodationDescription",
    }[field];
    const where = and(
      eq(propertyTranslations.propertyId, propertyId),
      eq(propertyTranslations.lang, lang),
    );
    const [existing] = await tx.select().from(propertyTranslations).where(where);
    if (!existing) {
      // A language the estate had no text in yet: start from its English text.
      const [english] = await tx
        .select()
        .from(propertyTranslations)
        .where(
          and(eq(propertyTranslations.propertyId, propertyId), eq(propertyTranslations.lang, "en")),
        );
      if (!english) throw new NotFoundError("errors.propertyNotFound");
      const { searchVector: _vector, ...base } = english;
      await tx.insert(propertyTranslations).values({ ...base, lang });
    }
    const [after] = await tx
      .update(propertyTranslations)
      .set({ [column]: value })
      .where(where)
      .returning();
    if (after && SEARCHED.has(field))
      await tx
        .update(propertyTranslations)
        .set({ searchDocument: searchDocument(lang, after) })
        .where(where);
    await tx
      .update(properties)
      .set({ updatedAt: sql`now()` })
      .where(eq(properties.id, propertyId));
    return;
  }
  const set: Partial<typeof properties.$inferInsert> = { updatedAt: sql`now()` as never };
  switch (field) {
    case "url":
      set.websiteUrl = value as string | null;
      break;
    case "starting_price":
      set.startingPrice = value as never;
      break;
    case "price_range":
      set.priceRange = value as never;
      break;
    case "guest_capacity":
      set.guestCapacity = value as number;
      break;
    case "beds":
      set.bedrooms = value as number;
      break;
    case "phone":
      set.phone = value as string | null;
      break;
    case "address":
      set.address = value as string | null;
      break;
    case "postal_code":
      set.postalCode = value as string | null;
      break;
    case "city":
      set.city = value as string | null;
      break;
    case "coordinates": {
      const point = value as { lat: number; lng: number } | null;
      set.latitude = point?.lat ?? null;
      set.longitude = point?.lng ?? null;
      break;
    }
    case "website_info": {
      // The keys nobody edits here (found images, dates) are kept; last_updated is now.
      const [row] = await tx
        .select({ info: properties.websiteInfo })
        .from(properties)
        .where(eq(properties.id, propertyId));
      const { additional_images, email_found_date } = row?.info ?? {};
      set.websiteInfo = {
        ...(value as WebsiteInfoValue),
        ...(additional_images ? { additional_images } : {}),
        ...(email_found_date ? { email_found_date } : {}),
        last_updated: new Date().toISOString(),
      };
      break;
    }
  }
  await tx.update(properties).set(set).where(eq(properties.id, propertyId));
}

/** Locks the estate's row for this transaction and reads it with its text in `lang`. */
async function lockEstate(tx: Database, propertyId: number, lang: Language) {
  const [row] = await tx
    .select()
    .from(properties)
    .where(eq(properties.id, propertyId))
    .for("update");
  if (!row) throw new NotFoundError("errors.propertyNotFound");
  const texts = await tx
    .select()
    .from(propertyTranslations)
    .where(
      and(
        eq(propertyTranslations.propertyId, propertyId),
        inArray(propertyTranslations.lang, [lang, "en"]),
      ),
    );
  const text = texts.find((t) => t.lang === lang) ?? texts.find((t) => t.lang === "en");
  if (!text) throw new NotFoundError("errors.propertyNotFound");
  return { row, text };
}

function actorName(actor: EstateActor): string {
  return actor.email;
}

/**
 * Records who set a field (provenance, so seeds and imports keep it) and the revision, and
 * announces the change: every owner and staff write goes through here, so every instance's
 * cached pages drop it when the transaction commits.
 */
export async function recordChange(
  tx: Database,
  actor: EstateActor,
  change: {
    propertyId: number;
    field: RecordedField | "uploads";
    lang: string;
    oldValue: unknown;
    newValue: unknown;
    revertOf?: number;
  },
): Promise<number> {
  await notifyCatalogueChanged({ db: tx }, { propertyIds: [change.propertyId] });
  if (change.field !== "uploads")
    await tx
      .insert(propertyFieldEdits)
      .values({
        propertyId: change.propertyId,
        field: change.field,
        lang: change.lang,
        editedByRole: actor.role,
        editedBy: actorName(actor),
      })
      .onConflictDoUpdate({
        target: [propertyFieldEdits.propertyId, propertyFieldEdits.field, propertyFieldEdits.lang],
        set: { editedByRole: actor.role, editedBy: actorName(actor), editedAt: sql`now()` },
      });
  const [revision] = await tx
    .insert(propertyRevisions)
    .values({
      propertyId: change.propertyId,
      field: change.field,
      lang: change.lang,
      oldValue: change.oldValue ?? null,
      newValue: change.newValue ?? null,
      actorRole: actor.role,
      actor: actorName(actor),
      revertOf: change.revertOf ?? null,
    })
    .returning({ id: propertyRevisions.id });
  return revision!.id;
}

/**
 * After an edit of a translated field in `lang`: that language is current again, and every
 * other language of the field is flagged for staff as out of date.
 */
async function flagOtherLanguages(
  tx: Database,
  propertyId: number,
  field: EditableField,
  lang: Language,
) {
  await tx
    .delete(propertyStaleTranslations)
    .where(
      and(
        eq(propertyStaleTranslations.propertyId, propertyId),
        eq(propertyStaleTranslations.field, field),
        eq(propertyStaleTranslations.lang, lang),
      ),
    );
  await tx
    .insert(propertyStaleTranslations)
    .values(
      LANGUAGES.filter((other) => other !== lang).map((other) => ({
        propertyId,
        field,
        lang: other,
        sourceLang: lang,
      })),
    )
    .onConflictDoUpdate({
      target: [
        propertyStaleTranslations.propertyId,
        propertyStaleTranslations.field,
        propertyStaleTranslations.lang,
      ],
      set: { sourceLang: lang, since: sql`now()` },
    });
}

export interface FieldUpdate {
  field: EditableField;
  lang: Language;
  value: StoredValue;
  /** The value as the editor shows it. */
  formatted: string;
  changed: boolean;
}

/**
 * Sets one field of an estate: parsed with the schema the browser uses, written with its
 * provenance and revision in one transaction, under the estate's row lock. A translated
 * field is set in `language` only; the other languages are flagged as out of date.
 * @throws ValidationError (path "value" or "field") with the message key and its params.
 */
export async function updateEstateField(
  deps: Db,
  actor: EstateActor,
  input: { propertyId: number; field: unknown; value: unknown; language: Language },
): Promise<FieldUpdate> {
  const { field } = input;
  if (!isEditableField(field))
    throw new ValidationError([{ path: "field", message: "owner.errors.unknownField" }]);
  const parsed = parseFieldValue(field, input.value);
  if (!parsed.ok)
    throw new ValidationError([
      { path: "value", message: parsed.issue.message, params: parsed.issue.params },
    ]);
  const lang = input.language;
  return withTransaction(deps.db, async (tx) => {
    const { row, text } = await lockEstate(tx, input.propertyId, lang);
    const oldValue = storedValues(row, text)[field];
    const value = parsed.value;
    const formatted = formatFieldValue(field, value);
    const isTranslated = isTranslatedField(field);
    // Text read through the English fallback is new text in this language, even if equal.
    const unchanged = (!isTranslated || text.lang === lang) && isSameValue(oldValue, value);
    if (unchanged) return { field, lang, value, formatted, changed: false };
    await writeFieldValue(tx, input.propertyId, field, lang, value);
    await recordChange(tx, actor, {
      propertyId: input.propertyId,
      field,
      lang: isTranslated ? lang : "*",
      oldValue: isTranslated && text.lang !== lang ? null : oldValue,
      newValue: value,
    });
    if (isTranslated) await flagOtherLanguages(tx, input.propertyId, field, lang);
    return { field, lang, value, formatted, changed: true };
  });
}

/** The image keys of an estate's public gallery, in order. */
export async function selectedImageKeys(tx: Pick<Deps, "db">["db"], propertyId: number) {
  const rows = await tx
    .select({ key: propertyImages.key })
    .from(propertyImages)
    .where(
      and(
        eq(propertyImages.propertyId, propertyId),
        sql`${propertyImages.selectedRank} is not null`,
      ),
    )
    .orderBy(asc(propertyImages.selectedRank));
  return rows.map((row) => row.key);
}

/** Sets which images the public gallery shows, in this order (the rest are hidden). */
export async function writeImageSelection(tx: Database, propertyId: number, keys: string[]) {
  await tx
    .update(propertyImages)
    .set({ selectedRank: null })
    .where(eq(propertyImages.propertyId, propertyId));
  for (const [rank, key] of keys.entries())
    await tx
      .update(propertyImages)
      .set({ selectedRank: rank })
      .where(and(eq(propertyImages.propertyId, propertyId), eq(propertyImages.key, key)));
  await tx
    .update(properties)
    .set({ updatedAt: sql`now()` })
    .where(eq(properties.id, propertyId));
}

/**
 * The owner's choice of images: `selectedImages` (keys, or the addresses property-details
 * gives) in the order guests will see them. Every key must be one of the estate's images.
 * @throws ValidationError for unknown or repeated images, or too many.
 */
export async function updateEstateImages(
  deps: Db,
  actor: EstateActor,
  input: { propertyId: number; selectedImages: unknown },
): Promise<{ selectedImages: string[]; changed: boolean }> {
  const list = input.selectedImages;
  if (
    !Array.isArray(list) ||
    list.length > MAX_SELECTED_IMAGES ||
    !list.every((item) => typeof item === "string" && item.length <= 300)
  )
    throw new ValidationError([{ path: "selectedImages", message: "owner.errors.imagesInvalid" }]);
  const keys = (list as string[]).map(imageKeyOf);
  if (new Set(keys).size !== keys.length)
    throw new ValidationError([{ path: "selectedImages", message: "owner.errors.imagesInvalid" }]);
  return withTransaction(deps.db, async (tx) => {
    await lockEstate(tx, input.propertyId, "en");
    const owned = await tx
      .select({ key: propertyImages.key })
      .from(propertyImages)
      .where(
        and(
          eq(propertyImages.propertyId, input.propertyId),
          inArray(propertyImages.key, keys.length ? keys : [""]),
        ),
      );
    if (owned.length !== keys.length)
      throw new ValidationError([
        { path: "selectedImages", message: "owner.errors.imagesInvalid" },
      ]);
    const before = await selectedImageKeys(tx, input.propertyId);
    if (JSON.stringify(before) === JSON.stringify(keys))
      return { selectedImages: keys, changed: false };
    await writeImageSelection(tx, input.propertyId, keys);
    await recordChange(tx, actor, {
      propertyId: input.propertyId,
      field: "images",
      lang: "*",
      oldValue: before,
      newValue: keys,
    });
    return { selectedImages: keys, changed: true };
  });
}

/** `/media/{key}/800.jpg` or a bare key → the key. */
function imageKeyOf(value: string): string {
  const match = /^\/media\/([^/]+)\//.exec(value);
  if (!match) return value;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
}

/**
 * Staff give an estate another owner contact email. The estate's claims end for good and the
 * former address's sessions that no other estate keeps are deleted (a database trigger,
 * migration 0016, so a revert or an import does the same): changing the email back revives
 * nothing, the owner claims again with a new code.
 */
export async function setEstateOwnerEmail(
  deps: Db,
  actor: EstateActor & { role: "staff" },
  input: { propertyId: number; email: string },
): Promise<{ email: string; changed: boolean }> {
  const email = normaliseEmail(input.email);
  if (!isEmailAddress(email))
    throw new ValidationError([{ path: "email", message: "owner.errors.email" }]);
  return withTransaction(deps.db, async (tx) => {
    const { row } = await lockEstate(tx, input.propertyId, "en");
    if (normaliseEmail(row.ownerEmail) === email) return { email, changed: false };
    await tx
      .update(properties)
      .set({ ownerEmail: email, updatedAt: sql`now()` })
      .where(and(eq(properties.id, input.propertyId), ne(properties.ownerEmail, email)));
    await recordChange(tx, actor, {
      propertyId: input.propertyId,
      field: "owner_email",
      lang: "*",
      oldValue: row.ownerEmail,
      newValue: email,
    });
    return { email, changed: true };
  });
}
