import type { ImageSource } from "#db/schema/index.ts";

/**
 * Generated images: pictures drawn by code as SVG rather than photographed or uploaded. The
 * domain knows them only through this contract; what they look like is demo content
 * (content/demo-art), handed in by server/app.ts.
 */

/** How a generated estate illustration is stored (property_images.source). */
export type IllustrationSource = Extract<ImageSource, { kind: "illustration" }>;

/** The size every illustration is drawn at and recorded with (4:3). */
export const ILLUSTRATION_WIDTH = 1600;
export const ILLUSTRATION_HEIGHT = 1200;

/**
 * Part of every illustration's image key (see imageKeyFor). Bump it when the illustration
 * generator's output changes: the keys, and so the URLs, change with it, which keeps the media
 * route's immutable caching honest.
 */
export const ILLUSTRATION_VERSION = 1;

/** Draws generated images as SVG documents. */
export interface Artwork {
  /** The SVG of an image whose stored source is an illustration. */
  drawIllustration(source: IllustrationSource): string;
  /**
   * The SVG behind a media key that no stored image has (a team portrait), or undefined when
   * the key is not one of these.
   */
  drawByKey(key: string): string | undefined;
}
