import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import type { ApiErrorCode } from "#domain/api/error-codes.ts";
import { tmpdir } from "node:os";
import { type NextFunction, type Request, type Response, Router } from "express";
import multer from "multer";
import type { Deps } from "#domain/deps.ts";
import {
  type MediaStoreConfig,
  UPLOAD_LIMITS,
  type UploadRejection,
  UploadRejectedError,
} from "#domain/media/uploads.ts";
import { addEstateUploads, deleteEstateUpload } from "#domain/owners/estate-uploads.ts";
import type { OwnerImage } from "#domain/owners/owner-property.ts";
import { UPLOAD_FIELD } from "#domain/media/upload-limits.ts";
import { deleteOwnerImage, uploadOwnerImages } from "#domain/owners/owners.contract.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { isStorableText } from "./body.ts";
import { sendError } from "./errors.ts";
import { defineRoute, refuse } from "./define-route.ts";
import { estateAccess, settledEstate } from "./owners.ts";

/** The multipart field that carries the pictures (several files under one name). */
export { UPLOAD_FIELD };

const REJECTION_STATUS = {
  type: 415,
  too_large: 413,
  too_many_pixels: 400,
  too_many: 400,
  none: 400,
} as const satisfies Record<UploadRejection, number>;

export interface OwnerUploadOptions {
  adminEmailDomain: string;
  publicUrl: string;
  /** Where new originals go (MEDIA_DIR); the database when unset. */
  media: MediaStoreConfig;
  /** Where multer writes incoming files; the system's temporary directory by default. */
  tempDir?: string;
}

const REJECTION_CODE = {
  type: "upload_type",
  too_large: "upload_too_large",
  too_many_pixels: "upload_too_many_pixels",
  too_many: "upload_too_many_files",
  none: "upload_no_files",
} as const satisfies Record<UploadRejection, ApiErrorCode>;

function rejection(error: UploadRejectedError) {
  return refuse(
    REJECTION_STATUS[error.reason],
    REJECTION_CODE[error.reason],
    error.messageKey,
    error.params,
  );
}

function sendRejection(res: Response, error: UploadRejectedError) {
  const { status, code, messageKey, params } = rejection(error);
  sendError(res, status, code, messageKey, params);
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

  defineRoute(router, uploadOwnerImages, {
    before: [sameOrigin, access, receiveFiles],
    async handle({ req, res }) {
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
      if ("rejected" in result) return rejection(result.rejected);
      return { status: 201, body: result };
    },
  });

  defineRoute(router, deleteOwnerImage, {
    before: [sameOrigin],
    // An optional JSON body may name the estate (`propertyId`), as `?propertyId=` does.
    after: [access],
    async handle({ params: { key }, res }) {
      const { actor, propertyId } = settledEstate(res);
      // A key no column can hold (`%00`) names no image: the database is not asked.
      if (!isStorableText(key)) return refuse(404, "not_found", "errors.notFound");
      const result = await deleteEstateUpload(deps, actor, { propertyId, key }, options.media);
      if (result.outcome === "not_deletable")
        return refuse(409, "image_not_deletable", "owner.errors.imageNotDeletable");
      return { status: 200, body: { deleted: result.key } };
    },
  });

  return router;
}
