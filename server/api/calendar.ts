import { type Response, Router } from "express";
import type { z } from "zod";
import type { ApiErrorCode } from "#domain/api/error-codes.ts";
import { calendarWindow } from "#domain/calendar/block.schema.ts";
import * as contract from "#domain/calendar/calendar.contract.ts";
import { collisionAnswer } from "#domain/calendar/collisions.ts";
import {
  addBlock,
  type BlockActor,
  readEstateCalendar,
  removeBlock,
} from "#domain/calendar/estate-calendar.ts";
import { calendarExportUrl } from "#domain/calendar/ical-export.ts";
import type { Deps } from "#domain/deps.ts";
import { ValidationError } from "#domain/errors.ts";
import { utcToday } from "#domain/requests/dates.ts";
import { fieldIssues } from "#domain/requests/fields.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { requireAdminApi } from "../middleware/session.ts";
import type { StaffServices } from "../services.ts";
import { defineRoute, type Refusal, refuse } from "./define-route.ts";
import { estateAccess, settledEstate } from "./owners.ts";

/** The signed-in admin as the author of a block (requireAdminApi has run). */
function staffActor(res: Response): BlockActor {
  const session = res.locals.session;
  if (!session || session.role !== "staff") throw new Error("requireAdminApi must run first");
  return { role: "staff", email: session.user.email };
}

/** The estate's actor (owner or staff admin) as the author of a block (estateAccess has run). */
function estateActor(res: Response): { actor: BlockActor; propertyId: number } {
  const { actor, propertyId } = settledEstate(res);
  return { actor: { role: actor.role, email: actor.email }, propertyId };
}

/**
 * Ids in the path: a malformed estate or block id names nothing, so 404 with `messageKey`; a
 * query or body that breaks its schema is a 400 naming each field.
 */
function pathIdNotFound<const S extends number>(status: S, code: ApiErrorCode, messageKey: string) {
  return (part: "params" | "query" | "body", error: z.ZodError): Refusal<S> => {
    if (part === "params") return refuse(status, code, messageKey);
    throw new ValidationError(fieldIssues(error));
  };
}

/**
 * An estate's calendar, read and changed by staff (`/api/admin/estates/{id}/…`, company admins)
 * and by its owner (`/api/property-owners/…`, the owner's session or a staff admin's, like the
 * other estate calls). Writes drop this instance's cached pages (`invalidateOnWrite` on both
 * prefixes) and announce the change to the others (the domain's NOTIFY).
 */
export function calendarRoutes(
  deps: Deps,
  staff: StaffServices,
  options: { publicUrl: string; today?: () => string },
): Router {
  const router = Router();
  const sameOrigin = sameOriginOnly(options.publicUrl);
  const requireAdmin = requireAdminApi(staff.adminEmailDomain);
  const access = estateAccess(deps, staff.adminEmailDomain);
  const today = options.today ?? (() => utcToday());
  const noEstate = pathIdNotFound(404, "estate_not_found", "errors.propertyNotFound");
  const noBlock = pathIdNotFound(404, "block_not_found", "owner.calendar.errors.blockNotFound");

  const readCalendar = async (
    propertyId: number,
    viewer: BlockActor["role"],
    query: { from?: string; to?: string },
  ) => {
    const window = calendarWindow(query, today());
    const [calendar, icalUrl] = await Promise.all([
      readEstateCalendar(deps, propertyId, window.from, window.to, viewer),
      calendarExportUrl(deps, options.publicUrl, propertyId),
    ]);
    return { ...calendar, icalUrl };
  };

  defineRoute(router, contract.getEstateCalendar, {
    before: [requireAdmin],
    onInvalid: noEstate,
    async handle({ params, query }) {
      // NotFoundError (no such estate) becomes a 404 in the error handler.
      return { status: 200, body: await readCalendar(params.id, "staff", query) };
    },
  });

  defineRoute(router, contract.addEstateBlock, {
    before: [sameOrigin, requireAdmin],
    onInvalid: noEstate,
    async handle({ params, body, res }) {
      const result = await addBlock(deps, {
        propertyId: params.id,
        nights: { start: body.start, end: body.end },
        kind: body.kind,
        note: body.note,
        actor: staffActor(res),
      });
      if (result.outcome === "collision")
        return {
          status: 409,
          body: {
            ...collisionAnswer(res.locals.language, result.collidesWith),
            code: "calendar_collision",
          },
        };
      return { status: 201, body: { ...result.block, pendingRequests: result.pendingRequests } };
    },
  });

  defineRoute(router, contract.removeEstateBlock, {
    before: [sameOrigin, requireAdmin],
    onInvalid: noBlock,
    async handle({ params, res }) {
      const result = await removeBlock(deps, {
        propertyId: params.id,
        blockId: params.blockId,
        actor: staffActor(res),
      });
      // Staff may remove any block: `forbidden` cannot happen, but is not answered 204.
      if (result.outcome !== "removed")
        return refuse(404, "block_not_found", "owner.calendar.errors.blockNotFound");
      return { status: 204 };
    },
  });

  defineRoute(router, contract.getOwnerCalendar, {
    before: [access],
    async handle({ query, res }) {
      const { actor, propertyId } = estateActor(res);
      return { status: 200, body: await readCalendar(propertyId, actor.role, query) };
    },
  });

  defineRoute(router, contract.addOwnerBlock, {
    before: [sameOrigin],
    after: [access],
    async handle({ body, res }) {
      const { actor, propertyId } = estateActor(res);
      const result = await addBlock(deps, {
        propertyId,
        nights: { start: body.start, end: body.end },
        kind: body.kind,
        note: body.note,
        actor,
      });
      if (result.outcome === "collision")
        return {
          status: 409,
          body: {
            ...collisionAnswer(res.locals.language, result.collidesWith),
            code: "calendar_collision",
          },
        };
      return { status: 201, body: { ...result.block, pendingRequests: result.pendingRequests } };
    },
  });

  defineRoute(router, contract.removeOwnerBlock, {
    before: [sameOrigin],
    after: [access],
    onInvalid: noBlock,
    async handle({ params, res }) {
      const { actor, propertyId } = estateActor(res);
      const result = await removeBlock(deps, { propertyId, blockId: params.blockId, actor });
      if (result.outcome === "not_found")
        return refuse(404, "block_not_found", "owner.calendar.errors.blockNotFound");
      if (result.outcome === "forbidden")
        return refuse(403, "staff_block", "owner.calendar.errors.staffBlock");
      return { status: 204 };
    },
  });

  return router;
}
