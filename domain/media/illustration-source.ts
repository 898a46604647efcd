import type { ImageSource } from "../../db/schema/index.ts";
import { ILLUSTRATION_HEIGHT, ILLUSTRATION_WIDTH, renderEstateSvg } from "./estate-illustration.ts";

export { ILLUSTRATION_HEIGHT, ILLUSTRATION_WIDTH };

/**
 * Bump when the illustration generator's output changes: image keys (and so URLs) change
 * with it, which keeps the media route's immutable caching honest.
 */
export const ILLUSTRATION_VERSION = 1;

export type IllustrationSource = Extract<ImageSource, { kind: "illustration" }>;

/** The SVG an illustration is rasterised from (uploads have originals: see uploads.ts). */
export function renderImageSource(source: IllustrationSource): string {
  return renderEstateSvg({
    seed: source.seed,
    terrain: source.terrain as Parameters<typeof renderEstateSvg>[0]["terrain"],
    architecture: source.architecture as Parameters<typeof renderEstateSvg>[0]["architecture"],
    index: source.index,
  });
}
