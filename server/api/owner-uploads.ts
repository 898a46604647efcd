import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { type NextFunction, type Request, type Response, Router } from "express";
import multer from "multer";
import type { Deps } from "../../domain/deps.ts";
import {
  type MediaStoreConfig,
  UPLOAD_LIMITS,
  type UploadRejection,
  UploadRejectedError,
} from "../../domain/media/uploads.ts";
import { addEstateUploads, deleteEstateUpload } from "../../domain/owners/estate-uploads.ts";
import type { EstateActor, OwnerImage } from "../../domain/owners/owner-property.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { isStorableText, optionalJsonBody } from "./body.ts";
import { sendError } from "./errors.ts";
import { estateAccess } from "./owners.ts";

/** The multipart field that carries the pictures (several files under one name). */
export const UPLOAD_FIELD = "images";

const REJECTION_STATUS: Record<UploadRejection, number> = {
  type: 415,
  too_large: 413,
  too_many_pixels: 400,
  too_many: 400,
  none: 400,
};

export interface OwnerUploadOptions {
  adminEmailDomain: string;
  publicUrl: string;
  /** Where new originals go (MEDIA_DIR); the database when unset. */
  media: MediaStoreConfig;
  /** Where multer writes incoming files; the system's temporary directory by default. */
  tempDir?: string;
}

function settledEstate(res: Response): { actor: EstateActor; propertyId: number } {
  const { estateActor: actor, propertyId } = res.locals;
  if (!actor || propertyId === undefined) throw new Error("estateAccess must run first");
  return { actor, propertyId };
}

function sendRejection(res: Response, error: UploadRejectedError) {
  sendError(res, REJECTION_STATUS[error.reason], error.messageKey, error.params);
}

/**
 * The owner area's image calls (spec "Images"): POST /property-owners/upload-image takes up to
 * ten pictures as multipart/form-data under `images` (the estate in `?propertyId=`, checked
 * before a byte of the body is read) and answers 201 `{images}` in the order sent; DELETE
 * /property-owners/images/{key} removes an uploaded picture. Files are streamed to temporary
 * files, never held in memory, and always deleted when the request ends.
 */
export function ownerUploadRoutes(deps: Deps, options: OwnerUploadOptions): Router {
  const router = Router();
  const sameOrigin = sameOriginOnly(options.publicUrl);
  const access = estateAccess(deps, options.adminEmailDomain);
  const parse = multer({
    storage: multer.diskStorage({
      destination: options.tempDir ?? tmpdir(),
      filename: (_req, _file, done) => done(null, `castellum-upload-${randomUUID()}`),
    }),
    limits: {
      fileSize: UPLOAD_LIMITS.maxBytes,
      files: UPLOAD_LIMITS.maxFiles,
      fields: 20,
      fieldSize: 1024,
      parts: UPLOAD_LIMITS.maxFiles + 20,
    },
  }).array(UPLOAD_FIELD, UPLOAD_LIMITS.maxFiles);

  /** multer, with its refusals as the spec's 4xx answers (multer removes its partial files). */
  const receiveFiles = (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (error?: unknown) => {
      if (!error) return next();
      if (error instanceof multer.MulterError) {
        if (error.code === "LIMIT_FILE_SIZE")
          return sendRejection(res, new UploadRejectedError("too_large", error.field));
        if (
          error.code === "LIMIT_FILE_COUNT" ||
          (error.code === "LIMIT_UNEXPECTED_FILE" && error.field === UPLOAD_FIELD)
        )
          return sendRejection(res, new UploadRejectedError("too_many"));
        // A file under another field name, too many fields or parts: not the form we expect.
        return sendRejection(res, new UploadRejectedError("none"));
      }
      // A malformed multipart body (cut short, no boundary): the client's fault, not ours.
      if (
        error instanceof Error &&
        !("status" in error) &&
        /multipart|form|boundary/i.test(error.message)
      )
        return sendRejection(res, new UploadRejectedError("none"));
      next(error);
    });
  };

  router.post(
    "/property-owners/upload-image",
    sameOrigin,
    access,
    receiveFiles,
    async (req: Request, res: Response) => {
      const received = (req.files ?? []) as Express.Multer.File[];
      let result: { images: OwnerImage[] } | { rejected: UploadRejectedError };
      try {
        const { actor, propertyId } = settledEstate(res);
        const files = received.map((file) => ({ path: file.path, name: file.originalname }));
        result = {
          images: await addEstateUploads(deps, actor, { propertyId, files }, options.media),
        };
      } catch (error) {
        if (!(error instanceof UploadRejectedError)) throw error;
        result = { rejected: error };
      } finally {
        // Before answering: once the client has its answer, no file of its request is left.
        await Promise.all(received.map((file) => rm(file.path, { force: true })));
      }
      if ("rejected" in result) return sendRejection(res, result.rejected);
      res.status(201).json(result);
    },
  );

  router.delete(
    "/property-owners/images/:key",
    sameOrigin,
    // An optional JSON body may name the estate (`propertyId`), as `?propertyId=` does.
    optionalJsonBody(),
    access,
    async (req: Request, res: Response) => {
      const { actor, propertyId } = settledEstate(res);
      const key = String(req.params.key);
      // A key no column can hold (`%00`) names no image: the database is not asked.
      if (!isStorableText(key)) return sendError(res, 404, "errors.notFound");
      const result = await deleteEstateUpload(deps, actor, { propertyId, key }, options.media);
      if (result.outcome === "not_deletable")
        return sendError(res, 409, "owner.errors.imageNotDeletable");
      res.json({ deleted: result.key });
    },
  );

  return router;
}
