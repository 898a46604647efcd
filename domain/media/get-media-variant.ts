import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import sharp, { type Sharp } from "sharp";
import { mediaVariants, propertyImages } from "#db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import type { Artwork } from "./artwork.ts";
import { MEDIA_CONTENT_TYPES, type MediaFormat } from "./media-url.ts";
import type { MediaVariantRequest } from "./media-variant.schema.ts";
import { slots } from "./slots.ts";
import { type MediaStoreConfig, readOriginal, UPLOAD_LIMITS } from "./uploads.ts";

/** Where the sources of variants come from besides the image rows. */
export interface MediaSources {
  /** Where uploaded originals live (see MediaStoreConfig). */
  store?: MediaStoreConfig;
  /** Draws the generated images (illustrations, portraits); server/ hands in the demo's. */
  artwork: Artwork;
}

export interface MediaVariant {
  bytes: Buffer;
  etag: string;
  contentType: string;
}

/**
 * Lookups (and renders) of a variant under way in this process, per database. Concurrent
 * requests for one variant share one: a burst of first requests encodes it once, not once per
 * request, and a request that read the cache just before another stored the variant joins
 * that render instead of starting its own.
 */
const variantsInFlight = new WeakMap<object, Map<string, Promise<MediaVariant>>>();

/**
 * At most this many sharp renders run at once in a process; the others wait their turn. Each
 * holds a decoded image (up to 2400 px square for an upload) and an encoder's buffers, so a
 * burst of different new variants (a page of new images) stays within bounded memory.
 */
export const MAX_CONCURRENT_RENDERS = 2;
/** Runs a render when one of the MAX_CONCURRENT_RENDERS slots is free. */
const inRenderSlot = slots(MAX_CONCURRENT_RENDERS);

/**
 * One encoded variant of an image: from the variant cache when it exists, otherwise rendered
 * with sharp, stored, and returned. Variants never change for a key, so callers may cache them
 * forever. `sources` says where uploaded originals live and who draws generated images.
 * @throws NotFoundError for an unknown image key.
 */
export function getMediaVariant(
  deps: Deps,
  input: MediaVariantRequest,
  sources: MediaSources,
): Promise<MediaVariant> {
  let inFlight = variantsInFlight.get(deps.db);
  if (!inFlight)
    variantsInFlight.set(deps.db, (inFlight = new Map<string, Promise<MediaVariant>>()));
  const id = `${input.key}/${input.width}.${input.format}`;
  let variant = inFlight.get(id);
  if (!variant) {
    const lookups = inFlight;
    variant = readOrRender(deps, input, sources).finally(() => lookups.delete(id));
    inFlight.set(id, variant);
  }
  return variant;
}

async function readOrRender(
  deps: Deps,
  input: MediaVariantRequest,
  sources: MediaSources,
): Promise<MediaVariant> {
  const { key, width, format } = input;
  const [cached] = await deps.db
    .select({ bytes: mediaVariants.bytes, etag: mediaVariants.etag })
    .from(mediaVariants)
    .where(
      and(
        eq(mediaVariants.imageKey, key),
        eq(mediaVariants.width, width),
        eq(mediaVariants.format, format),
      ),
    );
  if (cached) return { ...cached, contentType: MEDIA_CONTENT_TYPES[format] };
  return renderAndStore(deps, input, sources);
}

/**
 * What a key's variants are made from: an SVG (an estate's illustration, a team portrait) or
 * the bytes of an uploaded original.
 */
async function findSource(
  deps: Deps,
  key: string,
  { store = {}, artwork }: MediaSources,
): Promise<{ svg: string } | { original: Buffer }> {
  const drawn = artwork.drawByKey(key);
  if (drawn) return { svg: drawn };
  const [image] = await deps.db
    .select({ source: propertyImages.source })
    .from(propertyImages)
    .where(eq(propertyImages.key, key));
  if (!image) throw new NotFoundError("errors.mediaNotFound");
  if (image.source.kind === "upload")
    return { original: await readOriginal(deps, store, image.source) };
  return { svg: artwork.drawIllustration(image.source) };
}

async function renderAndStore(
  deps: Deps,
  { key, width, format }: MediaVariantRequest,
  sources: MediaSources,
) {
  let started = 0;
  // The original's bytes are read inside the slot too: they are part of what a render holds.
  const bytes = await inRenderSlot(async () => {
    started = performance.now();
    const source = await findSource(deps, key, sources);
    // Originals were checked and normalised on upload (at most 2400 px); the pixel limit stays
    // as a guard all the same. Variants are exactly the asked width, as for illustrations.
    const input =
      "svg" in source
        ? sharp(Buffer.from(source.svg))
        : sharp(source.original, { limitInputPixels: UPLOAD_LIMITS.maxPixels });
    let pipeline = input.resize({ width });
    // JPEG has no alpha: an uploaded PNG with transparency is laid on white, not on black.
    if (format === "jpg" && "original" in source)
      pipeline = pipeline.flatten({ background: "#ffffff" });
    return encode(pipeline, format);
  });
  const etag = `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;
  await deps.db
    .insert(mediaVariants)
    .values({ imageKey: key, width, format, etag, bytes })
    .onConflictDoNothing();
  deps.log.debug(
    { key, width, format, ms: Math.round(performance.now() - started) },
    "media variant rendered",
  );
  return { bytes, etag, contentType: MEDIA_CONTENT_TYPES[format] };
}

function encode(pipeline: Sharp, format: MediaFormat): Promise<Buffer> {
  switch (format) {
    case "avif":
      // effort 2 keeps a first AVIF request near 200 ms; later ones come from the cache.
      return pipeline.avif({ quality: 50, effort: 2 }).toBuffer();
    case "webp":
      return pipeline.webp({ quality: 74 }).toBuffer();
    case "jpg":
      return pipeline.jpeg({ quality: 80, mozjpeg: true }).toBuffer();
  }
}
