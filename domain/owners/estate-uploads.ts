/**
 * An estate's uploaded images: adding an owner's pictures to its gallery (not shown until the
 * owner selects them) and deleting them. Demo illustrations are never deleted, only hidden.
 */
import { and, eq, gt, sql } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import { mediaVariants, properties, propertyImages } from "#db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import {
  inspectUpload,
  type MediaStoreConfig,
  type NormalisedImage,
  normaliseUpload,
  releaseOriginal,
  removeOriginalFile,
  saveOriginal,
  UPLOAD_LIMITS,
  type UploadedFile,
  UploadRejectedError,
} from "../media/uploads.ts";
import { recordChange } from "./edits.ts";
import type { EstateActor, OwnerImage } from "./owner-property.ts";

/** An upload's image key: the estate's slug and the original's hash (same picture, same key). */
export function uploadKeyFor(slug: string, sha256: string): string {
  return `${slug}-u-${sha256.slice(0, 12)}`;
}

/**
 * Adds pictures to an estate's gallery, in the order given, each at the end and not shown
 * (`selectedRank` null) until the owner selects it. Every file is checked (type, size, pixel
 * count, from its bytes and header) before any is decoded or stored; then the files are
 * normalised one at a time, and each is stored in a transaction of its own with its revision.
 * A picture the estate already has is not stored twice: its existing image is returned.
 * The caller owns the files and deletes them afterwards.
 * @throws UploadRejectedError when a file is refused or there are none or too many;
 * NotFoundError for an unknown estate.
 */
export async function addEstateUploads(
  deps: Pick<Deps, "db">,
  actor: EstateActor,
  input: { propertyId: number; files: UploadedFile[] },
  store: MediaStoreConfig,
): Promise<OwnerImage[]> {
  const { files, propertyId } = input;
  if (files.length === 0) throw new UploadRejectedError("none");
  if (files.length > UPLOAD_LIMITS.maxFiles) throw new UploadRejectedError("too_many");
  for (const file of files) await inspectUpload(file);
  const images: OwnerImage[] = [];
  for (const file of files) {
    const normalised = await normaliseUpload(file);
    images.push(await storeEstateImage(deps, actor, propertyId, normalised, store));
  }
  return images;
}

async function lockEstate(tx: Database, propertyId: number): Promise<{ slug: string }> {
  // The row lock orders concurrent uploads and deletes of one estate (positions, ranks).
  const [estate] = await tx
    .select({ slug: properties.slug })
    .from(properties)
    .where(eq(properties.id, propertyId))
    .for("update");
  if (!estate) throw new NotFoundError("errors.propertyNotFound");
  return estate;
}

function toOwnerImage(row: typeof propertyImages.$inferSelect): OwnerImage {
  return {
    key: row.key,
    width: row.width,
    height: row.height,
    // Stored ranks count from 0 (contiguous); the owner area counts from 1.
    selectedRank: row.selectedRank === null ? null : row.selectedRank + 1,
    uploaded: row.source.kind === "upload",
  };
}

async function storeEstateImage(
  deps: Pick<Deps, "db">,
  actor: EstateActor,
  propertyId: number,
  image: NormalisedImage,
  store: MediaStoreConfig,
): Promise<OwnerImage> {
  return withTransaction(deps.db, async (tx) => {
    const { slug } = await lockEstate(tx, propertyId);
    const key = uploadKeyFor(slug, image.sha256);
    const [existing] = await tx
      .select()
      .from(propertyImages)
      .where(and(eq(propertyImages.propertyId, propertyId), eq(propertyImages.key, key)));
    if (existing) return toOwnerImage(existing);

    const source = await saveOriginal(tx, store, image);
    const [last] = await tx
      .select({ position: sql<number | null>`max(${propertyImages.position})` })
      .from(propertyImages)
      .where(eq(propertyImages.propertyId, propertyId));
    const [row] = await tx
      .insert(propertyImages)
      .values({
        propertyId,
        position: (last?.position ?? -1) + 1,
        key,
        width: image.width,
        height: image.height,
        source,
        selectedRank: null,
        uploadedBy: actor.email,
      })
      .returning();
    await recordChange(tx, actor, {
      propertyId,
      field: "uploads",
      lang: "*",
      oldValue: null,
      newValue: { added: [key] },
    });
    return toOwnerImage(row!);
  });
}

export type DeleteUploadResult = { outcome: "deleted"; key: string } | { outcome: "not_deletable" };

/**
 * Deletes one of an estate's uploaded pictures: its row, its cached variants, and its original
 * when no other image uses the same picture. If it was shown, the images after it in the
 * public gallery move up one place. Demo illustrations are refused (`not_deletable`).
 * @throws NotFoundError for an unknown estate, or a key that is not one of its images.
 */
export async function deleteEstateUpload(
  deps: Pick<Deps, "db">,
  actor: EstateActor,
  input: { propertyId: number; key: string },
  store: MediaStoreConfig,
): Promise<DeleteUploadResult> {
  const { propertyId, key } = input;
  const done = await withTransaction(deps.db, async (tx) => {
    await lockEstate(tx, propertyId);
    const [image] = await tx
      .select()
      .from(propertyImages)
      .where(and(eq(propertyImages.propertyId, propertyId), eq(propertyImages.key, key)));
    if (!image) throw new NotFoundError("errors.mediaNotFound");
    if (image.source.kind !== "upload") return { outcome: "not_deletable" as const };

    await tx.delete(propertyImages).where(eq(propertyImages.id, image.id));
    await tx.delete(mediaVariants).where(eq(mediaVariants.imageKey, key));
    if (image.selectedRank !== null) {
      await tx
        .update(propertyImages)
        .set({ selectedRank: sql`${propertyImages.selectedRank} - 1` })
        .where(
          and(
            eq(propertyImages.propertyId, propertyId),
            gt(propertyImages.selectedRank, image.selectedRank),
          ),
        );
      // The public gallery changed: pages and caches keyed on the estate's update time renew.
      await tx
        .update(properties)
        .set({ updatedAt: sql`now()` })
        .where(eq(properties.id, propertyId));
    }
    const fileUnused = await releaseOriginal(tx, image.source);
    await recordChange(tx, actor, {
      propertyId,
      field: "uploads",
      lang: "*",
      oldValue: null,
      newValue: { removed: key },
    });
    return {
      outcome: "deleted" as const,
      key,
      unusedFile: fileUnused ? image.source.sha256 : null,
    };
  });
  if (done.outcome === "not_deletable") return done;
  // Only once the deletion has committed: a rollback must not lose a picture still in use.
  if (done.unusedFile) await removeOriginalFile(store, done.unusedFile);
  return { outcome: "deleted", key: done.key };
}
