/**
 * Uploaded images: what is accepted, how an upload becomes a normalised original, and where
 * originals are kept (the media store).
 *
 * An upload arrives as a file on disk (never a whole request in memory). It is checked from
 * its first bytes (type) and its header (dimensions) before any pixel is decoded, so a
 * decompression bomb is refused for the price of reading a few kilobytes. An accepted image is
 * decoded once, turned upright (EXIF orientation), scaled to fit NORMALISED_MAX_EDGE and
 * re-encoded without any metadata (no EXIF, no GPS, no camera serials): that normalised
 * original is what is stored and what every variant is made from. Its SHA-256 names it, so the
 * same picture uploaded twice is stored once.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { fileTypeFromFile } from "file-type";
import sharp, { type Metadata, type OutputInfo } from "sharp";
import type { Database } from "#db/client.ts";
import { type ImageSource, mediaOriginals, propertyImages } from "#db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { DomainError, NotFoundError } from "../errors.ts";
import { slots } from "./slots.ts";
import { ACCEPTED_UPLOAD_TYPES, UPLOAD_LIMITS, type UploadType } from "./upload-limits.ts";

export { ACCEPTED_UPLOAD_TYPES, UPLOAD_LIMITS, type UploadType };

// libvips' operation cache would keep recently opened files open (an upload's temporary file
// stays on disk, unlinked, until evicted) and keep decoded 20 MB inputs in memory for reuse
// that never comes: every variant is cached in the database instead.
sharp.cache(false);

/** The normalised original fits within this square; variants go up to 1600 px. */
export const NORMALISED_MAX_EDGE = 2400;

/** What the bytes must be (sniffed, never the name or the declared Content-Type). */

export type UploadRejection = "type" | "too_large" | "too_many_pixels" | "too_many" | "none";

const REJECTION_MESSAGES: Record<UploadRejection, [string, Record<string, number>]> = {
  type: ["owner.errors.uploadType", {}],
  too_large: ["owner.errors.uploadTooLarge", { max: UPLOAD_LIMITS.maxBytes / 1024 / 1024 }],
  too_many_pixels: [
    "owner.errors.uploadTooManyPixels",
    { max: UPLOAD_LIMITS.maxPixels / 1_000_000 },
  ],
  too_many: ["owner.errors.uploadTooMany", { max: UPLOAD_LIMITS.maxFiles }],
  none: ["owner.errors.uploadNone", {}],
};

/**
 * An upload that is refused, and why. Adapters choose the status from `reason` (the type is
 * 415, the size 413, the rest 400); `messageKey` and `params` are the message.
 */
export class UploadRejectedError extends DomainError {
  readonly reason: UploadRejection;
  /** The client's name of the file at fault, when one is. */
  readonly fileName: string | undefined;
  constructor(reason: UploadRejection, fileName?: string) {
    const [key, params] = REJECTION_MESSAGES[reason];
    super("invalid", key, params);
    this.name = "UploadRejectedError";
    this.reason = reason;
    this.fileName = fileName;
  }
}

/** An upload as the adapter hands it over: a temporary file (the adapter deletes it). */
export interface UploadedFile {
  path: string;
  /** The client's file name, for messages only; never trusted for the type. */
  name?: string;
}

export interface InspectedUpload {
  type: UploadType;
  /** As stored in the file, before orientation. */
  width: number;
  height: number;
}

/**
 * Checks one upload without decoding it: its type from its first bytes, its size on disk and
 * its dimensions from its header.
 * @throws UploadRejectedError ("type", "too_large" or "too_many_pixels").
 */
export async function inspectUpload(file: UploadedFile): Promise<InspectedUpload> {
  const { size } = await stat(file.path);
  if (size > UPLOAD_LIMITS.maxBytes) throw new UploadRejectedError("too_large", file.name);
  const sniffed = await fileTypeFromFile(file.path);
  const type = ACCEPTED_UPLOAD_TYPES.find((accepted) => accepted === sniffed?.mime);
  if (!type) throw new UploadRejectedError("type", file.name);
  let metadata: Metadata;
  try {
    // Reads the header only: no pixel is decoded here.
    metadata = await sharp(file.path, { limitInputPixels: false }).metadata();
  } catch {
    throw new UploadRejectedError("type", file.name);
  }
  const { width, height } = metadata;
  if (!width || !height) throw new UploadRejectedError("type", file.name);
  if (width * height > UPLOAD_LIMITS.maxPixels)
    throw new UploadRejectedError("too_many_pixels", file.name);
  return { type, width, height };
}

/** A normalised original: upright, without metadata, at most NORMALISED_MAX_EDGE a side. */
export interface NormalisedImage {
  bytes: Buffer;
  sha256: string;
  contentType: "image/jpeg" | "image/webp";
  width: number;
  height: number;
}

/**
 * Decodes an inspected upload once and re-encodes it: EXIF orientation applied, every piece of
 * metadata dropped (sharp writes none unless asked), scaled down to fit the 2400 px square.
 * Opaque pictures become high-quality JPEG (fast to decode for variants); pictures with an
 * alpha channel keep it as WebP. One normalisation runs at a time in this process: a decode
 * of a 20 MB photograph takes ~130 MB, and ten at once must not take ten times that.
 * @throws UploadRejectedError ("type") when the pixels cannot be decoded,
 * ("too_many_pixels") when the decoder finds more pixels than the header admitted.
 */
export async function normaliseUpload(file: UploadedFile): Promise<NormalisedImage> {
  return withNormaliseSlot(async () => {
    // limitInputPixels again: the header was checked, but the decoder enforces it for real.
    const input = sharp(file.path, { limitInputPixels: UPLOAD_LIMITS.maxPixels });
    let output: { data: Buffer; info: OutputInfo };
    let hasAlpha: boolean;
    try {
      hasAlpha = (await input.metadata()).hasAlpha;
      const pipeline = input.rotate().resize({
        width: NORMALISED_MAX_EDGE,
        height: NORMALISED_MAX_EDGE,
        fit: "inside",
        withoutEnlargement: true,
      });
      output = await (
        hasAlpha
          ? pipeline.webp({ quality: 90, alphaQuality: 100 })
          : pipeline.jpeg({ quality: 90, mozjpeg: true })
      ).toBuffer({ resolveWithObject: true });
    } catch (error) {
      if (error instanceof Error && /pixel limit/i.test(error.message))
        throw new UploadRejectedError("too_many_pixels", file.name);
      throw new UploadRejectedError("type", file.name);
    }
    const { data, info } = output;
    return {
      bytes: data,
      sha256: createHash("sha256").update(data).digest("hex"),
      contentType: hasAlpha ? "image/webp" : "image/jpeg",
      width: info.width,
      height: info.height,
    };
  });
}

/**
 * How many uploads are decoded at once in this process; the others wait their turn (never
 * refused). One decode of a 20 MB photograph takes ~75 MB (bench:owner), so ten uploads at
 * once, in one request or ten, take what one takes.
 */
export const MAX_CONCURRENT_NORMALISATIONS = 1;
const withNormaliseSlot = slots(MAX_CONCURRENT_NORMALISATIONS);

// ---------------------------------------------------------------------------------------------
// The media store

/**
 * Where new originals go: files in `directory` (named by SHA-256) when it is set (MEDIA_DIR),
 * else the media_originals table. Each image's source records its own store, so existing
 * images stay readable when the setting changes (a `directory` image needs the directory).
 */
export interface MediaStoreConfig {
  directory?: string;
}

export type UploadSource = Extract<ImageSource, { kind: "upload" }>;

const SHA256 = /^[0-9a-f]{64}$/;

function originalPath(directory: string, sha256: string): string {
  // The name comes from the database; a path must never be built from anything else.
  if (!SHA256.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
  return join(directory, sha256);
}

/**
 * Keeps a normalised original in the configured store (once per SHA-256) and returns the
 * source an image row records. Call it inside the transaction that writes the image row: the
 * database store then commits with it. A file is written before the commit (temporary name,
 * then rename, so a reader never sees half a file); if the transaction rolls back, the file
 * stays, unreferenced and harmless, and a later upload of the same picture reuses it.
 */
export async function saveOriginal(
  tx: Database,
  store: MediaStoreConfig,
  image: NormalisedImage,
): Promise<UploadSource> {
  if (store.directory) {
    const path = originalPath(store.directory, image.sha256);
    await mkdir(store.directory, { recursive: true });
    // Written even when present: a delete that raced with this upload may just have removed it.
    const temporary = join(
      store.directory,
      `.${image.sha256}.${randomBytes(6).toString("hex")}.tmp`,
    );
    try {
      await writeFile(temporary, image.bytes, { flag: "wx" });
      await rename(temporary, path);
    } finally {
      await rm(temporary, { force: true });
    }
    return { kind: "upload", sha256: image.sha256, store: "directory" };
  }
  await tx
    .insert(mediaOriginals)
    .values({
      sha256: image.sha256,
      contentType: image.contentType,
      width: image.width,
      height: image.height,
      bytes: image.bytes,
    })
    .onConflictDoNothing();
  return { kind: "upload", sha256: image.sha256, store: "database" };
}

/**
 * The bytes of an uploaded original.
 * @throws NotFoundError when the original is missing; Error when it lives in a media
 * directory and none is configured (a deployment mistake, not the client's).
 */
export async function readOriginal(
  deps: Pick<Deps, "db">,
  store: MediaStoreConfig,
  source: UploadSource,
): Promise<Buffer> {
  if (source.store === "directory") {
    if (!store.directory)
      throw new Error(
        `image original ${source.sha256} is in the media directory, but MEDIA_DIR is not set`,
      );
    try {
      return await readFile(originalPath(store.directory, source.sha256));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT")
        throw new NotFoundError("errors.mediaNotFound");
      throw error;
    }
  }
  const [row] = await deps.db
    .select({ bytes: mediaOriginals.bytes })
    .from(mediaOriginals)
    .where(eq(mediaOriginals.sha256, source.sha256));
  if (!row) throw new NotFoundError("errors.mediaNotFound");
  return row.bytes;
}

/**
 * After an image row that used `source` was deleted (in `tx`): drops the original from the
 * database when no row uses it any more. Returns whether a file original is now unused: the
 * caller removes it with `removeOriginalFile` once the transaction has committed (removing it
 * earlier would lose it if the transaction rolled back).
 */
export async function releaseOriginal(tx: Database, source: UploadSource): Promise<boolean> {
  const [used] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(propertyImages)
    .where(
      sql`${propertyImages.source}->>'kind' = 'upload' and ${propertyImages.source}->>'sha256' = ${source.sha256}`,
    );
  if ((used?.n ?? 0) > 0) return false;
  if (source.store === "database") {
    await tx.delete(mediaOriginals).where(eq(mediaOriginals.sha256, source.sha256));
    return false;
  }
  return true;
}

/** Removes an unused file original (missing is fine). */
export async function removeOriginalFile(store: MediaStoreConfig, sha256: string): Promise<void> {
  if (!store.directory) return;
  await rm(originalPath(store.directory, sha256), { force: true });
}
