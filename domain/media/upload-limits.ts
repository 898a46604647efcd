/** What an owner may upload, as the browser checks it and the server enforces it. Browser-safe. */
export const UPLOAD_LIMITS = {
  /** Bytes per file (20 MB). */
  maxBytes: 20 * 1024 * 1024,
  maxFiles: 10,
  /** width x height as the file declares it (50 megapixels). */
  maxPixels: 50_000_000,
} as const;

export const ACCEPTED_UPLOAD_TYPES = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/avif",
] as const;
export type UploadType = (typeof ACCEPTED_UPLOAD_TYPES)[number];

/** The multipart field that carries the pictures. */
export const UPLOAD_FIELD = "images";
