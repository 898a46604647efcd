import { type Response, Router } from "express";
import type { z } from "zod";
import type { ApiErrorCode } from "#domain/api/error-codes.ts";
import type { Deps } from "#domain/deps.ts";
import { ValidationError } from "#domain/errors.ts";
import { setEstateOwnerEmail } from "#domain/owners/edits.ts";
import type { EstateActor } from "#domain/owners/owner-property.ts";
import { listEstatesForStaff, revertEstateRevision } from "#domain/owners/revisions.ts";
import { fieldIssues } from "#domain/requests/fields.ts";
import * as contract from "#domain/staff/estates.contract.ts";
import {
  getEstateForStaff,
  setEstateCommission,
  setEstateResponseHours,
} from "#domain/staff/estates.ts";
import { ESTATE_PAGE_SIZE } from "#domain/staff/estates.schema.ts";
import { translate } from "#i18n/translate.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { requireAdminApi } from "../middleware/session.ts";
import type { StaffServices } from "../services.ts";
import { defineRoute, type Refusal, refuse } from "./define-route.ts";

/** The signed-in admin as the actor of an estate change (requireAdminApi has run). */
function staffActor(res: Response): EstateActor & { role: "staff" } {
  const session = res.locals.session;
  if (!session || session.role !== "staff") throw new Error("requireAdminApi must run first");
  return { role: "staff", staffUserId: session.user.id, email: session.user.email };
}

/**
 * Estate and revision ids in the path: a malformed id is an estate (or revision) that does
 * not exist, so 404 with `messageKey`; a query or body that breaks its schema is a 400.
 */
function pathIdNotFound<const S extends number>(status: S, code: ApiErrorCode, messageKey: string) {
  return (part: "params" | "query" | "body", error: z.ZodError): Refusal<S> => {
    if (part === "params") return refuse(status, code, messageKey);
    throw new ValidationError(fieldIssues(error));
  };
}

/**
 * The staff side of the owner area: find an estate, change its owner contact email,
 * read its history of changes by owners and staff, revert one, see stale translations.
 * Every call needs a company admin; the state-changing ones refuse other sites' pages.
 */
export function staffEstateRoutes(deps: Deps, staff: StaffServices, publicUrl: string): Router {
  const router = Router();
  const sameOrigin = sameOriginOnly(publicUrl);
  const requireAdmin = requireAdminApi(staff.adminEmailDomain);

  defineRoute(router, contract.listStaffEstates, {
    before: [requireAdmin],
    async handle({ query, res }) {
      const page = await listEstatesForStaff(deps, {
        language: res.locals.language,
        q: query.q,
        after: query.after,
        limit: ESTATE_PAGE_SIZE,
      });
      return { status: 200, body: page };
    },
  });

  defineRoute(router, contract.getStaffEstate, {
    before: [requireAdmin],
    onInvalid: pathIdNotFound(404, "estate_not_found", "errors.propertyNotFound"),
    async handle({ params, res }) {
      // NotFoundError (no such estate) becomes a 404 in the error handler.
      const estate = await getEstateForStaff(deps, staffActor(res), {
        propertyId: params.id,
        language: res.locals.language,
      });
      return { status: 200, body: estate };
    },
  });

  defineRoute(router, contract.setEstateOwnerEmail, {
    before: [sameOrigin, requireAdmin],
    onInvalid: pathIdNotFound(404, "estate_not_found", "errors.propertyNotFound"),
    async handle({ params, body, res }) {
      const propertyId = params.id;
      const result = await setEstateOwnerEmail(deps, staffActor(res), {
        propertyId,
        email: body.email,
      });
      deps.log.info(
        { propertyId, changed: result.changed, staffUserId: staffActor(res).staffUserId },
        "estate owner email set by staff",
      );
      return { status: 200, body: result };
    },
  });

  defineRoute(router, contract.setEstateResponseHours, {
    before: [sameOrigin, requireAdmin],
    onInvalid: pathIdNotFound(404, "estate_not_found", "errors.propertyNotFound"),
    async handle({ params, body, res }) {
      const found = await setEstateResponseHours(deps, {
        propertyId: params.id,
        hours: body.hours,
      });
      if (!found) return refuse(404, "estate_not_found", "errors.propertyNotFound");
      deps.log.info(
        { propertyId: params.id, hours: body.hours, staffUserId: staffActor(res).staffUserId },
        "estate response hours set by staff",
      );
      return { status: 200, body: { responseHours: body.hours } };
    },
  });

  defineRoute(router, contract.setEstateCommission, {
    before: [sameOrigin, requireAdmin],
    onInvalid: pathIdNotFound(404, "estate_not_found", "errors.propertyNotFound"),
    async handle({ params, body, res }) {
      const found = await setEstateCommission(deps, {
        propertyId: params.id,
        percent: body.percent,
      });
      if (!found) return refuse(404, "estate_not_found", "errors.propertyNotFound");
      deps.log.info(
        { propertyId: params.id, percent: body.percent, staffUserId: staffActor(res).staffUserId },
        "estate commission set by staff",
      );
      return { status: 200, body: { commissionPercent: body.percent } };
    },
  });

  defineRoute(router, contract.revertEstateRevision, {
    before: [sameOrigin, requireAdmin],
    onInvalid: pathIdNotFound(404, "revision_not_found", "staff.estates.errors.revisionNotFound"),
    async handle({ params, res }) {
      const result = await revertEstateRevision(deps, staffActor(res), {
        propertyId: params.id,
        revisionId: params.revisionId,
      });
      switch (result.outcome) {
        case "reverted":
          return { status: 200, body: { revisionId: result.revisionId } };
        case "not_found":
          return refuse(404, "revision_not_found", "staff.estates.errors.revisionNotFound");
        case "not_revertable":
          return refuse(422, "not_revertable", "staff.estates.errors.notRevertable");
        case "already_reverted":
          return refuse(422, "already_reverted", "staff.estates.errors.alreadyReverted");
        case "conflict":
          // The field changed again since: the caller sees what it holds now.
          return {
            status: 409,
            body: {
              message: translate(res.locals.language, "staff.estates.errors.conflict"),
              code: "version_conflict",
              current: result.current,
            },
          };
      }
    },
  });

  return router;
}
