import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import sharp, { type Sharp } from "sharp";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import {
  inspectUpload,
  MAX_CONCURRENT_NORMALISATIONS,
  normaliseUpload,
  UPLOAD_LIMITS,
  UploadRejectedError,
  type UploadRejection,
} from "./uploads.ts";

const dir = mkdtempSync(join(tmpdir(), "castellum-uploads-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
});

let files = 0;
function save(bytes: Buffer | string, name = "file"): string {
  const path = join(dir, `${++files}-${name}`);
  writeFileSync(path, bytes);
  return path;
}

/**
 * A 300 x 200 JPEG, left half red and right half blue, whose EXIF says "turn me 90 degrees
 * clockwise" (orientation 6) and where it was taken (GPS).
 */
async function jpegWithOrientationAndGps(): Promise<Buffer> {
  const half = (colour: string) =>
    sharp({ create: { width: 150, height: 200, channels: 3, background: colour } })
      .png()
      .toBuffer();
  return sharp({ create: { width: 300, height: 200, channels: 3, background: "#000000" } })
    .composite([
      { input: await half("#ff0000"), left: 0, top: 0 },
      { input: await half("#0000ff"), left: 150, top: 0 },
    ])
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: "Castellum test camera" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "45/1 26/1 0/1" },
    })
    .jpeg({ quality: 95 })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG that declares `width` x `height` one-bit grey pixels. With `pixels` it is complete (and
 * compresses to almost nothing: the classic decompression bomb); without, it is a header and a
 * scrap of data, which any attempt to decode would stumble on.
 */
function bombPng(width: number, height: number, { pixels }: { pixels: boolean }): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rowBytes = 1 + Math.ceil(width / 8);
  const data = pixels
    ? deflateSync(Buffer.alloc(rowBytes * height))
    : deflateSync(Buffer.alloc(rowBytes));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", data),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

async function rejection(
  work: Promise<unknown>,
): Promise<{ reason: UploadRejection; key: string; params: object }> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof UploadRejectedError))
    throw new Error(`expected a rejection, got ${String(error)}`);
  return { reason: error.reason, key: error.messageKey, params: error.params };
}

describe("inspectUpload", () => {
  it("sniffs the type from the bytes, not the name", async () => {
    const png = await sharp({
      create: { width: 40, height: 30, channels: 3, background: "#336699" },
    })
      .png()
      .toBuffer();
    expect(await inspectUpload({ path: save(png, "photo.jpg") })).toEqual({
      type: "image/png",
      width: 40,
      height: 30,
    });
    const text = save("This is not a picture, whatever its name says.\n".repeat(20), "notes.jpg");
    expect(await rejection(inspectUpload({ path: text, name: "notes.jpg" }))).toEqual({
      reason: "type",
      key: "owner.errors.uploadType",
      params: {},
    });
  });

  it("refuses image types other than JPEG, PNG, WebP and AVIF", async () => {
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } })
      .gif()
      .toBuffer();
    const tiff = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } })
      .tiff()
      .toBuffer();
    expect((await rejection(inspectUpload({ path: save(gif) }))).reason).toBe("type");
    expect((await rejection(inspectUpload({ path: save(tiff) }))).reason).toBe("type");
    const avif = await sharp({
      create: { width: 64, height: 48, channels: 3, background: "#a0b0c0" },
    })
      .avif({ effort: 0 })
      .toBuffer();
    expect(await inspectUpload({ path: save(avif) })).toEqual({
      type: "image/avif",
      width: 64,
      height: 48,
    });
  });

  it("refuses a file over 20 MB from its size alone", async () => {
    const path = save(Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
    truncateSync(path, UPLOAD_LIMITS.maxBytes + 1);
    expect(await rejection(inspectUpload({ path }))).toEqual({
      reason: "too_large",
      key: "owner.errors.uploadTooLarge",
      params: { max: 20 },
    });
  });

  it("refuses more than 50 megapixels from the header, without decoding", async () => {
    // Header-only files: decoding them would fail with a different error, so the answer
    // proves only the header was read.
    const over = save(bombPng(7072, 7072, { pixels: false })); // 50,013,184 pixels
    expect(await rejection(inspectUpload({ path: over }))).toEqual({
      reason: "too_many_pixels",
      key: "owner.errors.uploadTooManyPixels",
      params: { max: 50 },
    });
    const under = save(bombPng(7071, 7071, { pixels: false })); // 49,999,041 pixels
    expect(await inspectUpload({ path: under })).toEqual({
      type: "image/png",
      width: 7071,
      height: 7071,
    });
    const huge = save(bombPng(100_000, 100_000, { pixels: false }));
    expect((await rejection(inspectUpload({ path: huge }))).reason).toBe("too_many_pixels");
  });

  it("refuses a complete 10000 x 10000 bomb of a few kilobytes", async () => {
    const bytes = bombPng(10_000, 10_000, { pixels: true });
    expect(bytes.length).toBeLessThan(64 * 1024);
    const started = performance.now();
    expect((await rejection(inspectUpload({ path: save(bytes) }))).reason).toBe("too_many_pixels");
    // Decoding 100 megapixels takes seconds; reading the header, milliseconds.
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("normaliseUpload", () => {
  it("turns the picture upright and drops EXIF and GPS", async () => {
    const source = await jpegWithOrientationAndGps();
    const before = await sharp(source).metadata();
    expect([before.width, before.height, before.orientation]).toEqual([300, 200, 6]);
    expect(before.exif?.includes(Buffer.from("Castellum test camera"))).toBe(true);

    const image = await normaliseUpload({ path: save(source) });
    expect(image.contentType).toBe("image/jpeg");
    expect([image.width, image.height]).toEqual([200, 300]);
    const after = await sharp(image.bytes).metadata();
    expect([after.format, after.width, after.height]).toEqual(["jpeg", 200, 300]);
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(image.bytes.includes(Buffer.from("Castellum test camera"))).toBe(false);
    // Turned clockwise: the red left half is now on top, the blue right half below.
    const { data } = await sharp(image.bytes).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * 200 + x) * 3, (y * 200 + x) * 3 + 3),
    ];
    expect(pixel(100, 60)[0]).toBeGreaterThan(200);
    expect(pixel(100, 60)[2]).toBeLessThan(60);
    expect(pixel(100, 240)[2]).toBeGreaterThan(200);
    expect(pixel(100, 240)[0]).toBeLessThan(60);
  });

  it("scales a large picture down to fit 2400 x 2400, and never up", async () => {
    const wide = await sharp({
      create: { width: 4000, height: 1000, channels: 3, background: "#557733" },
    })
      .webp({ quality: 50 })
      .toBuffer();
    const big = await normaliseUpload({ path: save(wide) });
    expect([big.width, big.height]).toEqual([2400, 600]);
    const small = await sharp({
      create: { width: 120, height: 90, channels: 3, background: "#557733" },
    })
      .png()
      .toBuffer();
    const kept = await normaliseUpload({ path: save(small) });
    expect([kept.width, kept.height]).toEqual([120, 90]);
  });

  it("keeps transparency as WebP", async () => {
    const png = await sharp({
      create: { width: 50, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const image = await normaliseUpload({ path: save(png) });
    expect(image.contentType).toBe("image/webp");
    const metadata = await sharp(image.bytes).metadata();
    expect([metadata.format, metadata.hasAlpha]).toEqual(["webp", true]);
  });

  it("names the same picture with the same SHA-256", async () => {
    const source = await jpegWithOrientationAndGps();
    const a = await normaliseUpload({ path: save(source) });
    const b = await normaliseUpload({ path: save(source) });
    expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(b.sha256).toBe(a.sha256);
  });

  it(`decodes at most ${MAX_CONCURRENT_NORMALISATIONS} upload at once; the others wait, none is refused`, async () => {
    const paths = await Promise.all(
      ["#aa3311", "#11aa33", "#3311aa", "#777777"].map(async (colour) =>
        save(
          await sharp({ create: { width: 900, height: 600, channels: 3, background: colour } })
            .jpeg()
            .toBuffer(),
        ),
      ),
    );

    const original = (sharp.prototype as Sharp).toBuffer;
    const decodes = { running: 0, peak: 0 };
    vi.spyOn(sharp.prototype, "toBuffer").mockImplementation(function (
      this: Sharp,
      ...args: unknown[]
    ) {
      decodes.running += 1;
      decodes.peak = Math.max(decodes.peak, decodes.running);
      const done = (original as (...a: unknown[]) => Promise<unknown>).apply(this, args);
      return done.finally(() => (decodes.running -= 1)) as never;
    });

    const images = await Promise.all(paths.map((path) => normaliseUpload({ path })));

    expect(new Set(images.map((image) => image.sha256)).size).toBe(4);
    expect(decodes.peak).toBe(MAX_CONCURRENT_NORMALISATIONS);
    expect(decodes.running).toBe(0);
  });

  it("refuses pixels that cannot be decoded as the type its bytes claim", async () => {
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: "#123456" },
    })
      .png()
      .toBuffer();
    const cut = save(png.subarray(0, 60));
    expect((await rejection(normaliseUpload({ path: cut }))).reason).toBe("type");
  });
});
