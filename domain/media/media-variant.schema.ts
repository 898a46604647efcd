import { z } from "zod";
import { MEDIA_FORMATS, MEDIA_WIDTHS } from "./media-url.ts";

/** `/media/{key}/{width}.{format}`: what a client may ask for. Messages are translation keys. */
export const MediaVariantRequestSchema = z.object({
  key: z.string().regex(/^[a-z0-9-]{1,120}$/, "errors.mediaNotFound"),
  width: z.coerce
    .number()
    .refine(
      (w): w is (typeof MEDIA_WIDTHS)[number] => (MEDIA_WIDTHS as readonly number[]).includes(w),
      {
        message: "errors.mediaWidth",
      },
    ),
  format: z.enum(MEDIA_FORMATS, { message: "errors.mediaFormat" }),
});
export type MediaVariantRequest = z.infer<typeof MediaVariantRequestSchema>;
