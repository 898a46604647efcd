import type { PropertyImage } from "#domain/catalogue/property.ts";
import { mediaUrl } from "#domain/media/media-url.ts";
import type { ShareImage } from "./meta.ts";

/** Link previews use the 1200 px JPEG: every crawler reads JPEG. */
export function shareImageOf(image: PropertyImage, alt: string): ShareImage {
  return {
    path: mediaUrl(image.key, 1200, "jpg"),
    width: 1200,
    height: Math.round((1200 * image.height) / image.width),
    alt,
  };
}
