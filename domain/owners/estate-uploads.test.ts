import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import {
  mediaOriginals,
  mediaVariants,
  properties,
  propertyImages,
  propertyRevisions,
} from "#db/schema/index.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import type { Artwork } from "../media/artwork.ts";
import { getMediaVariant } from "../media/get-media-variant.ts";
import type { MediaStoreConfig } from "../media/uploads.ts";
import { UploadRejectedError } from "../media/uploads.ts";
import { addEstateUploads, deleteEstateUpload, uploadKeyFor } from "./estate-uploads.ts";
import type { EstateActor } from "./owner-property.ts";
import { stringMatching } from "#tests/setup/matchers.ts";

const work = mkdtempSync(join(tmpdir(), "castellum-estate-uploads-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let saved = 0;
/** A distinct picture on disk: `width` x `height`, one colour, as the given format. */
async function picture(
  colour: string,
  {
    width = 640,
    height = 480,
    format = "jpeg",
  }: { width?: number; height?: number; format?: "jpeg" | "png" } = {},
): Promise<{ path: string; name: string }> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();
  const name = `${++saved}.${format}`;
  const path = join(work, name);
  writeFileSync(path, bytes);
  return { path, name };
}

async function estateOf(deps: Deps, index: number) {
  const rows = await deps.db
    .select({ id: properties.id, slug: properties.slug, ownerEmail: properties.ownerEmail })
    .from(properties)
    .orderBy(asc(properties.id));
  const estate = rows[index];
  if (!estate) throw new Error("the demo catalogue has too few estates");
  return estate;
}

async function imagesOf(deps: Deps, propertyId: number) {
  return deps.db
    .select()
    .from(propertyImages)
    .where(eq(propertyImages.propertyId, propertyId))
    .orderBy(asc(propertyImages.position));
}

async function uploadRevisions(deps: Deps, propertyId: number) {
  return deps.db
    .select()
    .from(propertyRevisions)
    .where(
      and(eq(propertyRevisions.propertyId, propertyId), eq(propertyRevisions.field, "uploads")),
    )
    .orderBy(asc(propertyRevisions.id));
}

/** Uploads need no drawing; the media pipeline asks for it all the same. */
const artwork: Artwork = { drawIllustration: () => "", drawByKey: () => undefined };

describeEachBackend("estate uploads", (database) => {
  const store: MediaStoreConfig = {};

  it("adds pictures at the end of the gallery, hidden, with their revision", async () => {
    const { deps } = database();
    const estate = await estateOf(deps, 0);
    const owner: EstateActor = { role: "owner", email: estate.ownerEmail };
    const before = await imagesOf(deps, estate.id);
    const lastPosition = Math.max(...before.map((image) => image.position));

    const added = await addEstateUploads(
      deps,
      owner,
      {
        propertyId: estate.id,
        files: [
          await picture("#aa3300"),
          await picture("#0033aa", { width: 300, height: 500, format: "png" }),
        ],
      },
      store,
    );
    expect(added).toHaveLength(2);
    expect(added[1]).toEqual({
      key: stringMatching(new RegExp(`^${estate.slug}-u-[0-9a-f]{12}$`)),
      width: 300,
      height: 500,
      selectedRank: null,
      uploaded: true,
    });

    const after = await imagesOf(deps, estate.id);
    expect(after).toHaveLength(before.length + 2);
    const [first, second] = after.slice(-2);
    expect([first?.key, second?.key]).toEqual(added.map((image) => image.key));
    expect([first?.position, second?.position]).toEqual([lastPosition + 1, lastPosition + 2]);
    expect(first).toMatchObject({
      width: 640,
      height: 480,
      selectedRank: null,
      uploadedBy: estate.ownerEmail,
    });
    if (first?.source.kind !== "upload") throw new Error("not an upload");
    expect(first.source.store).toBe("database");
    expect(first.key).toBe(uploadKeyFor(estate.slug, first.source.sha256));

    const [original] = await deps.db
      .select()
      .from(mediaOriginals)
      .where(eq(mediaOriginals.sha256, first.source.sha256));
    expect(original).toMatchObject({ contentType: "image/jpeg", width: 640, height: 480 });
    const stored = await sharp(original!.bytes).metadata();
    expect([stored.format, stored.width, stored.height]).toEqual(["jpeg", 640, 480]);

    const revisions = await uploadRevisions(deps, estate.id);
    expect(revisions.map((revision) => revision.newValue)).toEqual(
      added.map((image) => ({ added: [image.key] })),
    );
    expect(revisions[0]).toMatchObject({
      lang: "*",
      oldValue: null,
      actorRole: "owner",
      actor: estate.ownerEmail,
    });
  });

  it("returns the existing image when the same picture comes again", async () => {
    const { deps } = database();
    const estate = await estateOf(deps, 1);
    const owner: EstateActor = { role: "owner", email: estate.ownerEmail };
    const file = await picture("#118844");
    const [first] = await addEstateUploads(
      deps,
      owner,
      { propertyId: estate.id, files: [file] },
      store,
    );
    const count = (await imagesOf(deps, estate.id)).length;
    const revisions = (await uploadRevisions(deps, estate.id)).length;

    const again = await addEstateUploads(
      deps,
      owner,
      { propertyId: estate.id, files: [{ ...(await picture("#118844")) }, file] },
      store,
    );
    expect(again).toEqual([first, first]);
    expect(await imagesOf(deps, estate.id)).toHaveLength(count);
    expect(await uploadRevisions(deps, estate.id)).toHaveLength(revisions);
  });

  it("checks every file before storing any", async () => {
    const { deps } = database();
    const estate = await estateOf(deps, 2);
    const owner: EstateActor = { role: "owner", email: estate.ownerEmail };
    const text = join(work, "notes.png");
    writeFileSync(text, "not a picture at all, only words ".repeat(10));
    const count = (await imagesOf(deps, estate.id)).length;
    const refused = await addEstateUploads(
      deps,
      owner,
      {
        propertyId: estate.id,
        files: [await picture("#654321"), { path: text, name: "notes.png" }],
      },
      store,
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UploadRejectedError);
    expect((refused as UploadRejectedError).reason).toBe("type");
    expect((refused as UploadRejectedError).fileName).toBe("notes.png");
    expect(await imagesOf(deps, estate.id)).toHaveLength(count);

    const none = await addEstateUploads(
      deps,
      owner,
      { propertyId: estate.id, files: [] },
      store,
    ).catch((error: unknown) => error);
    expect((none as UploadRejectedError).reason).toBe("none");
    const file = await picture("#222222", { width: 8, height: 8 });
    const many = await addEstateUploads(
      deps,
      owner,
      { propertyId: estate.id, files: Array.from({ length: 11 }, () => file) },
      store,
    ).catch((error: unknown) => error);
    expect((many as UploadRejectedError).reason).toBe("too_many");
    expect(await imagesOf(deps, estate.id)).toHaveLength(count);
  });

  it("renders variants of an upload at the asked width", async () => {
    const { deps } = database();
    const estate = await estateOf(deps, 3);
    const owner: EstateActor = { role: "owner", email: estate.ownerEmail };
    const [image] = await addEstateUploads(
      deps,
      owner,
      { propertyId: estate.id, files: [await picture("#884422", { width: 1000, height: 750 })] },
      store,
    );
    for (const [width, format, type] of [
      [320, "webp", "image/webp"],
      [800, "jpg", "image/jpeg"],
      [480, "avif", "image/avif"],
    ] as const) {
      const variant = await getMediaVariant(
        deps,
        { key: image!.key, width, format },
        { store, artwork },
      );
      expect(variant.contentType).toBe(type);
      const metadata = await sharp(variant.bytes).metadata();
      expect([metadata.width, metadata.height]).toEqual([width, (width * 3) / 4]);
    }
  });

  it("deletes an upload with its variants and unused original, and closes the gallery's gap", async () => {
    const { deps } = database();
    const estate = await estateOf(deps, 4);
    const other = await estateOf(deps, 5);
    const owner: EstateActor = { role: "owner", email: estate.ownerEmail };
    const file = await picture("#5500aa");
    const [image] = await addEstateUploads(
      deps,
      owner,
      { propertyId: estate.id, files: [file] },
      store,
    );
    // The same picture on another estate: its original must survive the first deletion.
    const [elsewhere] = await addEstateUploads(
      deps,
      { role: "owner", email: other.ownerEmail },
      { propertyId: other.id, files: [file] },
      store,
    );
    expect(elsewhere!.key).not.toBe(image!.key);
    await getMediaVariant(
      deps,
      { key: image!.key, width: 320, format: "webp" },
      { store, artwork },
    );

    // Show the upload second in the public gallery.
    const shown = (await imagesOf(deps, estate.id)).filter((row) => row.selectedRank !== null);
    const rankOfUpload = 1;
    await deps.db
      .update(propertyImages)
      .set({ selectedRank: sql`${propertyImages.selectedRank} + 1` })
      .where(
        and(
          eq(propertyImages.propertyId, estate.id),
          sql`${propertyImages.selectedRank} >= ${rankOfUpload}`,
        ),
      );
    await deps.db
      .update(propertyImages)
      .set({ selectedRank: rankOfUpload })
      .where(eq(propertyImages.key, image!.key));

    const result = await deleteEstateUpload(
      deps,
      owner,
      { propertyId: estate.id, key: image!.key },
      store,
    );
    expect(result).toEqual({ outcome: "deleted", key: image!.key });
    const after = await imagesOf(deps, estate.id);
    expect(after.some((row) => row.key === image!.key)).toBe(false);
    // Ranks are contiguous again, in the same order as before the upload was shown.
    const ranks = after
      .filter((row) => row.selectedRank !== null)
      .sort((a, b) => a.selectedRank! - b.selectedRank!);
    expect(ranks.map((row) => row.key)).toEqual(
      shown.sort((a, b) => a.selectedRank! - b.selectedRank!).map((row) => row.key),
    );
    expect(ranks.map((row) => row.selectedRank)).toEqual(shown.map((row) => row.selectedRank));
    const variants = await deps.db
      .select()
      .from(mediaVariants)
      .where(eq(mediaVariants.imageKey, image!.key));
    expect(variants).toEqual([]);
    expect((await uploadRevisions(deps, estate.id)).at(-1)?.newValue).toEqual({
      removed: image!.key,
    });

    const kept = (await imagesOf(deps, other.id)).find((row) => row.key === elsewhere!.key);
    if (kept?.source.kind !== "upload") throw new Error("not an upload");
    const { sha256 } = kept.source;
    const originals = () =>
      deps.db
        .select({ sha256: mediaOriginals.sha256 })
        .from(mediaOriginals)
        .where(eq(mediaOriginals.sha256, sha256));
    expect(await originals()).toHaveLength(1);
    await deleteEstateUpload(
      deps,
      { role: "owner", email: other.ownerEmail },
      { propertyId: other.id, key: elsewhere!.key },
      store,
    );
    expect(await originals()).toHaveLength(0);

    const again = await deleteEstateUpload(
      deps,
      owner,
      { propertyId: estate.id, key: image!.key },
      store,
    ).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(NotFoundError);
  });

  it("never deletes a demo illustration, nor another estate's image", async () => {
    const { deps } = database();
    const estate = await estateOf(deps, 6);
    const other = await estateOf(deps, 7);
    const owner: EstateActor = { role: "owner", email: estate.ownerEmail };
    const [illustration] = await imagesOf(deps, estate.id);
    expect(illustration?.source.kind).toBe("illustration");
    expect(
      await deleteEstateUpload(
        deps,
        owner,
        { propertyId: estate.id, key: illustration!.key },
        store,
      ),
    ).toEqual({ outcome: "not_deletable" });
    expect((await imagesOf(deps, estate.id)).some((row) => row.key === illustration!.key)).toBe(
      true,
    );

    const [theirs] = await addEstateUploads(
      deps,
      { role: "owner", email: other.ownerEmail },
      { propertyId: other.id, files: [await picture("#999911")] },
      store,
    );
    const refused = await deleteEstateUpload(
      deps,
      owner,
      { propertyId: estate.id, key: theirs!.key },
      store,
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NotFoundError);
    expect((await imagesOf(deps, other.id)).some((row) => row.key === theirs!.key)).toBe(true);
  });

  it("keeps originals as files in the media directory when one is configured", async () => {
    const { deps } = database();
    const directory = join(work, "media");
    const files: MediaStoreConfig = { directory };
    const estate = await estateOf(deps, 8);
    const owner: EstateActor = { role: "owner", email: estate.ownerEmail };
    const [image] = await addEstateUploads(
      deps,
      owner,
      { propertyId: estate.id, files: [await picture("#336699", { width: 400, height: 300 })] },
      files,
    );
    const row = (await imagesOf(deps, estate.id)).find((candidate) => candidate.key === image!.key);
    if (row?.source.kind !== "upload") throw new Error("not an upload");
    expect(row.source.store).toBe("directory");
    // One file named by the hash, no temporary file left, nothing in the database.
    expect(readdirSync(directory)).toEqual([row.source.sha256]);
    const inDatabase = await deps.db
      .select({ sha256: mediaOriginals.sha256 })
      .from(mediaOriginals)
      .where(eq(mediaOriginals.sha256, row.source.sha256));
    expect(inDatabase).toEqual([]);

    const variant = await getMediaVariant(
      deps,
      { key: image!.key, width: 640, format: "webp" },
      { store: files, artwork },
    );
    expect((await sharp(variant.bytes).metadata()).width).toBe(640);
    // Without the directory the original cannot be found: a configuration error, not a 404.
    await expect(
      getMediaVariant(deps, { key: image!.key, width: 480, format: "webp" }, { artwork }),
    ).rejects.toThrow(/MEDIA_DIR/);

    await deleteEstateUpload(deps, owner, { propertyId: estate.id, key: image!.key }, files);
    expect(existsSync(join(directory, row.source.sha256))).toBe(false);
  });
});
