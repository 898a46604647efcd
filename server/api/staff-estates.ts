import { type Request, type Response, Router } from "express";
import type { z } from "zod";
import type { Deps } from "../../domain/deps.ts";
import { ValidationError } from "../../domain/errors.ts";
import { setEstateOwnerEmail } from "../../domain/owners/edits.ts";
import type { EstateActor } from "../../domain/owners/owner-property.ts";
import { listEstatesForStaff, revertEstateRevision } from "../../domain/owners/revisions.ts";
import { fieldIssues } from "../../domain/requests/fields.ts";
import { getEstateForStaff } from "../../domain/staff/estates.ts";
import {
  ESTATE_PAGE_SIZE,
  EstateSearchSchema,
  OwnerEmailChangeSchema,
  parseEstateId,
} from "../../domain/staff/estates.schema.ts";
import { translate } from "../../i18n/translate.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { requireAdminApi } from "../middleware/session.ts";
import type { StaffServices } from "../services.ts";
import { ignoredBody, jsonBody } from "./body.ts";
import { sendError } from "./errors.ts";

/** The input as the shared schema reads it, or a 400 naming each field (ValidationError). */
function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new ValidationError(fieldIssues(parsed.error));
  return parsed.data;
}

/** The signed-in admin as the actor of an estate change (requireAdminApi has run). */
function staffActor(res: Response): EstateActor & { role: "staff" } {
  const session = res.locals.session;
  if (!session || session.role !== "staff") throw new Error("requireAdminApi must run first");
  return { role: "staff", staffUserId: session.user.id, email: session.user.email };
}

/** Estate and revision ids in the path; a malformed id is an estate that does not exist. */
function pathId(value: unknown): number | null {
  return parseEstateId(typeof value === "string" ? value : undefined);
}

/**
 * The staff side of the owner area (issue 10): find an estate, change its owner contact email,
 * read its history of changes by owners and staff, revert one, see stale translations.
 * Every call needs a company admin; the state-changing ones refuse other sites' pages.
 */
export function staffEstateRoutes(deps: Deps, staff: StaffServices, publicUrl: string): Router {
  const router = Router();
  const sameOrigin = sameOriginOnly(publicUrl);
  const requireAdmin = requireAdminApi(staff.adminEmailDomain);

  router.get("/admin/estates", requireAdmin, async (req: Request, res: Response) => {
    const search = parseWith(EstateSearchSchema, req.query);
    const page = await listEstatesForStaff(deps, {
      language: res.locals.language,
      q: search.q,
      after: search.after,
      limit: ESTATE_PAGE_SIZE,
    });
    res.json(page);
  });

  router.get("/admin/estates/:id", requireAdmin, async (req: Request, res: Response) => {
    const propertyId = pathId(req.params.id);
    if (propertyId === null) return sendError(res, 404, "errors.propertyNotFound");
    // NotFoundError (no such estate) becomes a 404 in the error handler.
    res.json(
      await getEstateForStaff(deps, staffActor(res), {
        propertyId,
        language: res.locals.language,
      }),
    );
  });

  router.patch(
    "/admin/estates/:id/owner-email",
    sameOrigin,
    requireAdmin,
    ...jsonBody(),
    async (req: Request, res: Response) => {
      const propertyId = pathId(req.params.id);
      if (propertyId === null) return sendError(res, 404, "errors.propertyNotFound");
      const { email } = parseWith(OwnerEmailChangeSchema, req.body);
      const result = await setEstateOwnerEmail(deps, staffActor(res), { propertyId, email });
      deps.log.info(
        { propertyId, changed: result.changed, staffUserId: staffActor(res).staffUserId },
        "estate owner email set by staff",
      );
      res.json(result);
    },
  );

  router.post(
    "/admin/estates/:id/revisions/:revisionId/revert",
    sameOrigin,
    requireAdmin,
    ignoredBody(),
    async (req: Request, res: Response) => {
      const propertyId = pathId(req.params.id);
      const revisionId = pathId(req.params.revisionId);
      if (propertyId === null || revisionId === null)
        return sendError(res, 404, "staff.estates.errors.revisionNotFound");
      const result = await revertEstateRevision(deps, staffActor(res), { propertyId, revisionId });
      switch (result.outcome) {
        case "reverted":
          return res.json({ revisionId: result.revisionId });
        case "not_found":
          return sendError(res, 404, "staff.estates.errors.revisionNotFound");
        case "not_revertable":
          return sendError(res, 422, "staff.estates.errors.notRevertable");
        case "already_reverted":
          return sendError(res, 422, "staff.estates.errors.alreadyReverted");
        case "conflict":
          // The field changed again since: the caller sees what it holds now.
          return res.status(409).json({
            message: translate(res.locals.language, "staff.estates.errors.conflict"),
            current: result.current,
          });
      }
    },
  );

  return router;
}
