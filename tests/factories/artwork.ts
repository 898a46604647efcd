import { createHash } from "node:crypto";
import { type Artwork, ILLUSTRATION_HEIGHT, ILLUSTRATION_WIDTH } from "#domain/media/artwork.ts";

/** The media key TEST_ARTWORK draws without a stored image (as the demo draws team portraits). */
export const TEST_DRAWN_KEY = "test-drawn-image";

/** A colour that differs per input, so different sources give different images. */
function colourOf(text: string): string {
  return `#${createHash("sha256").update(text).digest("hex").slice(0, 6)}`;
}

/**
 * Generated images for domain tests: flat SVGs of the right size, quick to rasterise, so a
 * test of the media pipeline depends on the contract (domain/media/artwork.ts), not on the
 * demo's drawings.
 */
export const TEST_ARTWORK: Artwork = {
  drawIllustration: (source) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="${ILLUSTRATION_WIDTH}" height="${ILLUSTRATION_HEIGHT}" viewBox="0 0 ${ILLUSTRATION_WIDTH} ${ILLUSTRATION_HEIGHT}"><rect width="100%" height="100%" fill="${colourOf(`${source.seed}:${source.index}`)}"/></svg>`,
  drawByKey: (key) =>
    key === TEST_DRAWN_KEY
      ? `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600"><circle cx="300" cy="300" r="300" fill="${colourOf(key)}"/></svg>`
      : undefined,
};
