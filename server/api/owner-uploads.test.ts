import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { and, asc, eq } from "drizzle-orm";
import express from "express";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  mediaOriginals,
  properties,
  propertyClaims,
  propertyImages,
  propertyRevisions,
} from "#db/schema/index.ts";
import { DEMO_ARTWORK } from "#content/demo-art/demo-artwork.ts";
import { createSession, DEFAULT_SESSION_POLICY } from "#domain/auth/sessions.ts";
import type { Deps } from "#domain/deps.ts";
import { uploadOwnerImages } from "#domain/owners/owners.contract.ts";
import { translate } from "#i18n/translate.ts";
import { readJson } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { listenOnFreePort } from "#tests/setup/http.ts";
import { stringMatching } from "#tests/setup/matchers.ts";
import { languageMiddleware } from "../middleware/language.ts";
import { sessionCookieOf, sessionMiddleware } from "../middleware/session.ts";
import { apiErrorHandler, apiNotFound } from "./errors.ts";
import { mediaRoutes } from "./media.ts";
import { ownerUploadRoutes } from "./owner-uploads.ts";

const MB = 1024 * 1024;
const PUBLIC_URL = "http://localhost";

/** What the API answers for a message key, in English (a key without a translation fails). */
function message(key: string, code: string, params: Record<string, number> = {}) {
  const text = translate("en", key, params);
  if (text === key) throw new Error(`no English message for ${key}`);
  return { message: text, code };
}

/**
 * The API and media routes as server/app.ts mounts them: language, session, the owner's
 * upload routes, the media route reading the same store.
 */
function serveUploads(deps: () => Deps, tempDir: string) {
  let baseUrl = "";
  let close = async () => {};
  beforeAll(async () => {
    const cookie = sessionCookieOf(false, DEFAULT_SESSION_POLICY);
    const app = express();
    app.use(languageMiddleware({ secureCookie: false }));
    app.use("/api", sessionMiddleware(deps(), cookie));
    app.use(
      "/api",
      ownerUploadRoutes(deps(), {
        adminEmailDomain: "castellum.test",
        publicUrl: PUBLIC_URL,
        media: {},
        tempDir,
      }),
    );
    app.use("/api", apiNotFound);
    app.use("/api", apiErrorHandler(deps().log));
    app.use("/media", mediaRoutes(deps(), { artwork: DEMO_ARTWORK }));
    app.use("/media", apiErrorHandler(deps().log));
    ({ baseUrl, close } = await listenOnFreePort(app));
  });
  afterAll(() => close());
  return () => baseUrl;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A complete 10000 x 10000 one-bit PNG of one colour: ~12 KB on the wire, 100 megapixels. */
function pixelBomb(): Buffer {
  const side = 10_000;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.alloc((1 + side / 8) * side))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A 600 x 400 JPEG shot with the camera on its side (EXIF orientation 6), with GPS. */
function sidewaysJpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 600, height: 400, channels: 3, background: "#8a5a2b" } })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: "Castellum test camera" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "57/1 37/1 0/1" },
    })
    .jpeg({ quality: 92 })
    .toBuffer();
}

const png = (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

describeEachBackend("owner image uploads API", (database) => {
  const tempDir = mkdtempSync(join(tmpdir(), "castellum-upload-api-"));
  afterAll(() => rmSync(tempDir, { recursive: true, force: true }));
  const url = serveUploads(() => database().deps, tempDir);
  let estate: { id: number; slug: string; ownerEmail: string };
  let otherEstateId: number;
  let cookie: string;

  beforeAll(async () => {
    const { deps } = database();
    const rows = await deps.db
      .select({ id: properties.id, slug: properties.slug, ownerEmail: properties.ownerEmail })
      .from(properties)
      .orderBy(asc(properties.id));
    estate = rows[0]!;
    otherEstateId = rows.find((row) => row.ownerEmail !== estate.ownerEmail)!.id;
    await deps.db
      .insert(propertyClaims)
      .values({ propertyId: estate.id, email: estate.ownerEmail });
    const { token } = await createSession(
      deps,
      { role: "owner", ownerEmail: estate.ownerEmail },
      {},
    );
    cookie = `castellum_session=${token}`;
  });

  async function upload(
    files: { bytes: Buffer; name: string; type?: string }[],
    options: { propertyId?: number; cookie?: string | null; field?: string } = {},
  ) {
    const form = new FormData();
    for (const file of files)
      form.append(
        options.field ?? "images",
        new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "image/jpeg" }),
        file.name,
      );
    const response = await fetch(
      `${url()}/api/property-owners/upload-image?propertyId=${options.propertyId ?? estate.id}`,
      {
        method: "POST",
        headers: options.cookie === null ? {} : { Cookie: options.cookie ?? cookie },
        body: form,
      },
    );
    return { status: response.status, body: await readJson(response) };
  }

  const remove = async (key: string) => {
    const response = await fetch(
      `${url()}/api/property-owners/images/${encodeURIComponent(key)}?propertyId=${estate.id}`,
      { method: "DELETE", headers: { Cookie: cookie } },
    );
    return { status: response.status, body: await readJson(response) };
  };

  /** The images of an upload's 201, read with the operation's schema for it. */
  const imagesOf = (answer: { body: unknown }) =>
    uploadOwnerImages.responses[201].schema.parse(answer.body).images;

  /** Whatever the outcome, no temporary file of a finished request is left behind. */
  const expectNoTemporaryFiles = () => expect(readdirSync(tempDir)).toEqual([]);

  it("stores several pictures upright and without EXIF or GPS, hidden until selected", async () => {
    const { deps } = database();
    const response = await upload([
      { bytes: await sidewaysJpegWithGps(), name: "IMG_0001.JPG" },
      { bytes: await png(320, 240, "#2b5a8a"), name: "garden.png", type: "image/png" },
    ]);
    expect(response.status).toBe(201);
    expect(imagesOf(response)).toEqual([
      {
        key: stringMatching(new RegExp(`^${estate.slug}-u-[0-9a-f]{12}$`)),
        width: 400,
        height: 600,
        selectedRank: null,
        uploaded: true,
      },
      {
        key: stringMatching(new RegExp(`^${estate.slug}-u-[0-9a-f]{12}$`)),
        width: 320,
        height: 240,
        selectedRank: null,
        uploaded: true,
      },
    ]);
    expectNoTemporaryFiles();

    const [row] = await deps.db
      .select()
      .from(propertyImages)
      .where(eq(propertyImages.key, imagesOf(response)[0]!.key));
    expect(row).toMatchObject({
      propertyId: estate.id,
      uploadedBy: estate.ownerEmail,
      selectedRank: null,
    });
    if (row?.source.kind !== "upload") throw new Error("not an upload");
    const [original] = await deps.db
      .select()
      .from(mediaOriginals)
      .where(eq(mediaOriginals.sha256, row.source.sha256));
    const stored = await sharp(original!.bytes).metadata();
    expect([stored.width, stored.height]).toEqual([400, 600]);
    expect(stored.exif).toBeUndefined();
    expect(stored.orientation).toBeUndefined();
    expect(original!.bytes.includes(Buffer.from("Castellum test camera"))).toBe(false);

    const revisions = await deps.db
      .select()
      .from(propertyRevisions)
      .where(
        and(eq(propertyRevisions.propertyId, estate.id), eq(propertyRevisions.field, "uploads")),
      );
    expect(revisions.map((revision) => revision.newValue)).toEqual(
      imagesOf(response).map((image) => ({ added: [image.key] })),
    );
  });

  it("serves the first variant of an upload at once", async () => {
    const uploaded = await upload([{ bytes: await png(900, 600, "#5a8a2b"), name: "hall.png" }]);
    expect(uploaded.status).toBe(201);
    const { key } = imagesOf(uploaded)[0]!;
    const started = performance.now();
    const response = await fetch(`${url()}/media/${key}/320.webp`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const variant = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([variant.format, variant.width, variant.height]).toEqual(["webp", 320, 213]);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("answers the same image when the same picture is uploaded again", async () => {
    const bytes = await png(200, 200, "#abcdef");
    const first = await upload([{ bytes, name: "a.png" }]);
    const second = await upload([{ bytes, name: "copy of a.png" }]);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(imagesOf(second)).toEqual(imagesOf(first));
  });

  it("refuses a file that is not a picture, whatever its name: 415", async () => {
    const text = Buffer.from("Dear owner,\nthis is a letter, not a photograph.\n".repeat(40));
    const response = await upload([{ bytes: text, name: "photo.jpg" }]);
    expect(response).toEqual({
      status: 415,
      body: message("owner.errors.uploadType", "upload_type"),
    });
    expectNoTemporaryFiles();
  });

  it("refuses a file over 20 MB: 413", async () => {
    const big = Buffer.alloc(20 * MB + 1);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const response = await upload([
      { bytes: await png(10, 10, "#000000"), name: "small.png" },
      { bytes: big, name: "huge.jpg" },
    ]);
    expect(response).toEqual({
      status: 413,
      body: message("owner.errors.uploadTooLarge", "upload_too_large", { max: 20 }),
    });
    expectNoTemporaryFiles();
  });

  it("refuses a decompression bomb from its header: 400", async () => {
    const bomb = pixelBomb();
    expect(bomb.length).toBeLessThan(64 * 1024);
    const response = await upload([{ bytes: bomb, name: "bomb.png", type: "image/png" }]);
    expect(response).toEqual({
      status: 400,
      body: message("owner.errors.uploadTooManyPixels", "upload_too_many_pixels", { max: 50 }),
    });
    expectNoTemporaryFiles();
  });

  it("refuses more than 10 files in one request, and a request without any: 400", async () => {
    const { deps } = database();
    const count = async () =>
      (await deps.db.select().from(propertyImages).where(eq(propertyImages.propertyId, estate.id)))
        .length;
    const before = await count();
    const eleven = await Promise.all(
      Array.from({ length: 11 }, async (_, i) => ({
        bytes: await png(16, 16, `#0000${(i * 20).toString(16).padStart(2, "0")}`),
        name: `${i}.png`,
      })),
    );
    expect(await upload(eleven)).toEqual({
      status: 400,
      body: message("owner.errors.uploadTooMany", "upload_too_many_files", { max: 10 }),
    });
    expect(await count()).toBe(before);
    expect(await upload([])).toEqual({
      status: 400,
      body: message("owner.errors.uploadNone", "upload_no_files"),
    });
    expect(
      await upload([{ bytes: await png(16, 16, "#123123"), name: "x.png" }], { field: "file" }),
    ).toEqual({ status: 400, body: message("owner.errors.uploadNone", "upload_no_files") });
    expectNoTemporaryFiles();
  });

  it("lets only the estate's owner upload", async () => {
    const bytes = await png(20, 20, "#777777");
    const anonymous = await upload([{ bytes, name: "a.png" }], { cookie: null });
    expect(anonymous.status).toBe(401);
    const elsewhere = await upload([{ bytes, name: "a.png" }], { propertyId: otherEstateId });
    expect(elsewhere.status).toBe(403);
    expectNoTemporaryFiles();
  });

  it("deletes an upload, its variants and its original; a demo illustration stays", async () => {
    const { deps } = database();
    const uploaded = await upload([{ bytes: await png(640, 480, "#3c1f5e"), name: "tower.png" }]);
    const { key } = imagesOf(uploaded)[0]!;
    expect((await fetch(`${url()}/media/${key}/320.webp`)).status).toBe(200);

    expect(await remove(key)).toEqual({ status: 200, body: { deleted: key } });
    expect((await fetch(`${url()}/media/${key}/320.webp`)).status).toBe(404);
    expect((await fetch(`${url()}/media/${key}/480.webp`)).status).toBe(404);
    expect(await remove(key)).toEqual({
      status: 404,
      body: message("errors.mediaNotFound", "media_not_found"),
    });
    const revisions = await deps.db
      .select()
      .from(propertyRevisions)
      .where(
        and(eq(propertyRevisions.propertyId, estate.id), eq(propertyRevisions.field, "uploads")),
      )
      .orderBy(asc(propertyRevisions.id));
    expect(revisions.at(-1)?.newValue).toEqual({ removed: key });

    const [illustration] = await deps.db
      .select()
      .from(propertyImages)
      .where(eq(propertyImages.propertyId, estate.id))
      .orderBy(asc(propertyImages.position));
    expect(illustration?.source.kind).toBe("illustration");
    expect(await remove(illustration!.key)).toEqual({
      status: 409,
      body: message("owner.errors.imageNotDeletable", "image_not_deletable"),
    });
    expect((await fetch(`${url()}/media/${illustration!.key}/320.webp`)).status).toBe(200);
  });
});
