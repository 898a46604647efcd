import { and, asc, eq, sql } from "drizzle-orm";
import sharp, { type Sharp } from "sharp";
import { afterEach, expect, it, vi } from "vitest";
import { mediaVariants, propertyImages } from "#db/schema/index.ts";
import { TEST_ARTWORK, TEST_DRAWN_KEY } from "#tests/factories/artwork.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import { getMediaVariant, MAX_CONCURRENT_RENDERS } from "./get-media-variant.ts";
import type { MediaFormat, MediaWidth } from "./media-url.ts";

const sources = { artwork: TEST_ARTWORK };

/**
 * Watches sharp's encoder (every variant ends in `toBuffer`): how many encodes ran, and the
 * most that were under way at the same moment.
 */
function watchEncodes() {
  const original = (sharp.prototype as Sharp).toBuffer;
  const counts = { started: 0, running: 0, peak: 0 };
  vi.spyOn(sharp.prototype, "toBuffer").mockImplementation(function (
    this: Sharp,
    ...args: unknown[]
  ) {
    counts.started += 1;
    counts.running += 1;
    counts.peak = Math.max(counts.peak, counts.running);
    const encoded = (original as (...a: unknown[]) => Promise<Buffer>).apply(this, args);
    return encoded.finally(() => (counts.running -= 1)) as never;
  });
  return counts;
}

afterEach(() => {
  vi.restoreAllMocks();
});

async function demoImageKeys(deps: Deps, count: number): Promise<string[]> {
  const rows = await deps.db
    .select({ key: propertyImages.key })
    .from(propertyImages)
    .orderBy(asc(propertyImages.id))
    .limit(count);
  expect(rows).toHaveLength(count);
  return rows.map((row) => row.key);
}

async function storedVariants(deps: Deps, key: string, width: number, format: MediaFormat) {
  return deps.db
    .select({ etag: mediaVariants.etag })
    .from(mediaVariants)
    .where(
      and(
        eq(mediaVariants.imageKey, key),
        eq(mediaVariants.width, width),
        eq(mediaVariants.format, format),
      ),
    );
}

describeEachBackend("media variants under load", (database) => {
  it("renders a new variant once for 50 concurrent first requests", async () => {
    const { deps } = database();
    const [key] = await demoImageKeys(deps, 1);
    const request = { key: key!, width: 640 as MediaWidth, format: "webp" as const };
    expect(await storedVariants(deps, request.key, request.width, request.format)).toHaveLength(0);
    const encodes = watchEncodes();

    const answers = await Promise.all(
      Array.from({ length: 50 }, () => getMediaVariant(deps, request, sources)),
    );

    expect(encodes.started).toBe(1);
    expect(await storedVariants(deps, request.key, request.width, request.format)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.etag)).size).toBe(1);
    expect(answers.every((answer) => answer.bytes.equals(answers[0]!.bytes))).toBe(true);
    expect(answers[0]!.contentType).toBe("image/webp");

    // Later requests read the stored variant: no new render.
    await getMediaVariant(deps, request, sources);
    expect(encodes.started).toBe(1);
  });

  it(`never runs more than ${MAX_CONCURRENT_RENDERS} renders at once in a burst of 20 new variants`, async () => {
    const { deps } = database();
    const keys = await demoImageKeys(deps, 5);
    const widths: MediaWidth[] = [320, 480, 800, 1200];
    const requests = keys.flatMap((key) =>
      widths.map((width) => ({ key, width, format: "jpg" as const })),
    );
    expect(requests).toHaveLength(20);
    const encodes = watchEncodes();

    const answers = await Promise.all(
      requests.map((request) => getMediaVariant(deps, request, sources)),
    );

    expect(encodes.started).toBe(20);
    expect(encodes.peak).toBeGreaterThan(1);
    expect(encodes.peak).toBeLessThanOrEqual(MAX_CONCURRENT_RENDERS);
    expect(encodes.running).toBe(0);
    // Every request got its own variant, of the width it asked for.
    for (const [index, answer] of answers.entries()) {
      const { width } = await sharp(answer.bytes).metadata();
      expect(width).toBe(requests[index]!.width);
    }
  });

  it("draws generated images with the artwork it is given", async () => {
    const { deps } = database();
    const [image] = await deps.db
      .select({ key: propertyImages.key, source: propertyImages.source })
      .from(propertyImages)
      .where(sql`${propertyImages.source}->>'kind' = 'illustration'`)
      .limit(1);
    expect(image?.source.kind).toBe("illustration");
    if (image?.source.kind !== "illustration") return;
    const drawn = TEST_ARTWORK.drawIllustration(image.source);
    const fill = drawn.match(/fill="#(\w{6})"/)![1]!;

    const illustration = await getMediaVariant(
      deps,
      { key: image.key, width: 320, format: "webp" },
      sources,
    );
    const { channels } = await sharp(illustration.bytes).stats();
    const expected = [0, 2, 4].map((at) => parseInt(fill.slice(at, at + 2), 16));
    for (const [index, value] of expected.entries())
      expect(Math.abs(channels[index]!.mean - value)).toBeLessThanOrEqual(6);

    // A key the artwork draws by itself needs no stored image; any other unknown key is absent.
    const portrait = await getMediaVariant(
      deps,
      { key: TEST_DRAWN_KEY, width: 320, format: "jpg" },
      sources,
    );
    expect((await sharp(portrait.bytes).metadata()).width).toBe(320);
    await expect(
      getMediaVariant(deps, { key: "no-such-image", width: 320, format: "jpg" }, sources),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
