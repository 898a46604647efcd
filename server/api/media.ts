import { Router } from "express";
import type { Deps } from "#domain/deps.ts";
import { getMediaVariant, type MediaSources } from "#domain/media/get-media-variant.ts";
import { MEDIA_FORMATS, MEDIA_WIDTHS } from "#domain/media/media-url.ts";
import { MediaVariantRequestSchema } from "#domain/media/media-variant.schema.ts";
import { sendError } from "./errors.ts";

/**
 * GET /media/{key}/{width}.{format}: encoded variants, cached forever by key. `sources` says
 * where uploaded originals live (MEDIA_DIR) and who draws the generated images.
 */
export function mediaRoutes(deps: Deps, sources: MediaSources): Router {
  const router = Router();
  router.get("/:key/:file", async (req, res) => {
    const [width = "", format = ""] = req.params.file.split(".", 2);
    const parsed = MediaVariantRequestSchema.safeParse({ key: req.params.key, width, format });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path[0];
      if (field === "key") return sendError(res, 404, "media_not_found", "errors.mediaNotFound");
      return sendError(res, 400, "invalid_filter", issue?.message ?? "errors.generic", {
        widths: MEDIA_WIDTHS.join(", "),
        formats: MEDIA_FORMATS.join(", "),
      });
    }
    const variant = await getMediaVariant(deps, parsed.data, sources);
    res.set({
      "Content-Type": variant.contentType,
      "Cache-Control": "public, max-age=31536000, immutable",
      ETag: variant.etag,
    });
    if (req.fresh) return res.status(304).end();
    res.send(variant.bytes);
  });
  return router;
}
