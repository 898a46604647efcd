import { Router } from "express";
import type { z } from "zod";
import type { Deps } from "#domain/deps.ts";
import { ValidationError } from "#domain/errors.ts";
import {
  giveOwnerViewOperation,
  listOwnerRequestsOperation,
} from "#domain/owners/owner-requests.contract.ts";
import {
  giveOwnerView,
  listOwnerRequests,
  rememberOwnerLanguage,
} from "#domain/owners/owner-requests.ts";
import { fieldIssues } from "#domain/requests/fields.ts";
import { STATUS_KEYS } from "#domain/requests/options.ts";
import { translate } from "#i18n/translate.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { defineRoute, type Refusal, refuse } from "./define-route.ts";
import { estateAccess, settledEstate } from "./owners.ts";

/** A collection or id in the path that names nothing is a 404; a bad body a 400 per field. */
function notFoundInPath(part: "params" | "query" | "body", error: z.ZodError): Refusal<404> {
  if (part === "params") return refuse(404, "not_found", "errors.notFound");
  throw new ValidationError(fieldIssues(error));
}

/**
 * The owner dashboard's Requests tab: the requests for the estate and the
 * owner's view of a pending one. The same guard as every estate call (`estateAccess`): an owner
 * acts on their claimed estates, a staff admin on the estate they name. Each call by an owner
 * also records the language they use, for their mails.
 */
export function ownerRequestRoutes(
  deps: Deps,
  options: { adminEmailDomain: string; publicUrl: string },
): Router {
  const router = Router();
  const access = estateAccess(deps, options.adminEmailDomain);
  const sameOrigin = sameOriginOnly(options.publicUrl);

  defineRoute(router, listOwnerRequestsOperation, {
    before: [access],
    async handle({ res }) {
      const { actor, propertyId } = settledEstate(res);
      const language = res.locals.language;
      if (actor.role === "owner") await rememberOwnerLanguage(deps, actor.email, language);
      const requests = await listOwnerRequests(deps, { propertyId, language });
      return { status: 200, body: { propertyId, requests } };
    },
  });

  defineRoute(router, giveOwnerViewOperation, {
    before: [sameOrigin],
    after: [access],
    onInvalid: notFoundInPath,
    async handle({ params, body, res }) {
      const { actor } = settledEstate(res);
      const language = res.locals.language;
      if (actor.role === "owner") await rememberOwnerLanguage(deps, actor.email, language);
      const result = await giveOwnerView(deps, {
        actor,
        collection: params.collection,
        id: params.id,
        agree: body.agree,
        note: body.note,
      });
      if (result.outcome === "not_found") return refuse(404, "not_found", "errors.notFound");
      if (result.outcome === "closed")
        return refuse(409, "request_decided", "owner.ownerRequests.errors.closed", {
          status: translate(language, `mail.statuses.${STATUS_KEYS[result.status]}`),
        });
      return { status: 201, body: result.view };
    },
  });

  return router;
}
