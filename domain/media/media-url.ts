/** Widths the media route produces. Anything else is refused, so caches stay bounded. */
export const MEDIA_WIDTHS = [320, 480, 640, 800, 1200, 1600] as const;
export type MediaWidth = (typeof MEDIA_WIDTHS)[number];

export const MEDIA_FORMATS = ["avif", "webp", "jpg"] as const;
export type MediaFormat = (typeof MEDIA_FORMATS)[number];

export const MEDIA_CONTENT_TYPES: Record<MediaFormat, string> = {
  avif: "image/avif",
  webp: "image/webp",
  jpg: "image/jpeg",
};

/** The address of one encoded variant of an image. */
export function mediaUrl(key: string, width: MediaWidth, format: MediaFormat): string {
  return `/media/${encodeURIComponent(key)}/${width}.${format}`;
}

/** A `srcset` listing every width up to `maxWidth` in one format. */
export function mediaSrcSet(key: string, format: MediaFormat, maxWidth: number = 1600): string {
  return MEDIA_WIDTHS.filter((width) => width <= maxWidth)
    .map((width) => `${mediaUrl(key, width, format)} ${width}w`)
    .join(", ");
}
