import { Router } from "express";
import type { Deps } from "#domain/deps.ts";
import { nowOf } from "#domain/clock.ts";
import { latestRequestLanguage, readPersonalData } from "#domain/privacy/access.ts";
import { personalDataDocument } from "#domain/privacy/export-document.ts";
import { eraseGuestOnRequest } from "#domain/privacy/erase-guest.ts";
import * as contract from "#domain/privacy/privacy.contract.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { securityClientOf } from "../middleware/security-log.ts";
import { requireAdminApi, signedInAdmin } from "../middleware/session.ts";
import { defineRoute, STREAMED } from "./define-route.ts";

/** Guests' rights over their personal data (domain/privacy/privacy.contract.ts): admins only. */
export function privacyRoutes(
  deps: Deps,
  options: {
    adminEmailDomain: string;
    publicUrl: string;
    mailDirectory: string;
    privacyContactEmail: string;
  },
): Router {
  const router = Router();
  const sameOrigin = sameOriginOnly(options.publicUrl);
  const requireAdmin = requireAdminApi(options.adminEmailDomain);

  defineRoute(router, contract.getPersonalData, {
    before: [requireAdmin],
    async handle({ query, req, res }) {
      const admin = signedInAdmin(res);
      const report = await readPersonalData(deps, {
        email: query.email,
        actor: { staffUserId: admin.id, email: admin.email },
        client: securityClientOf(req),
      });
      res.set("Cache-Control", "private, no-store");
      return { status: 200, body: report };
    },
  });

  defineRoute(router, contract.exportPersonalData, {
    before: [requireAdmin],
    async handle({ query, req, res }) {
      const admin = signedInAdmin(res);
      const actor = { staffUserId: admin.id, email: admin.email };
      // The guest's language unless the admin chose one: the one they last wrote in.
      const language = query.language ?? (await latestRequestLanguage(deps, query.email)) ?? "en";
      const report = await readPersonalData(deps, {
        email: query.email,
        actor,
        client: securityClientOf(req),
        exportLanguage: language,
      });
      const madeAt = nowOf(deps);
      res
        .status(200)
        .set("Content-Type", "text/html; charset=utf-8")
        .set(
          "Content-Disposition",
          `attachment; filename="personal-data-${madeAt.toISOString().slice(0, 10)}.html"`,
        )
        .set("Cache-Control", "private, no-store")
        .send(
          personalDataDocument(report, {
            language,
            madeAt,
            contactEmail: options.privacyContactEmail,
          }),
        );
      return STREAMED;
    },
  });

  defineRoute(router, contract.erasePersonalData, {
    before: [sameOrigin, requireAdmin],
    async handle({ body, req, res }) {
      const admin = signedInAdmin(res);
      const erasure = await eraseGuestOnRequest(deps, {
        email: body.email,
        reason: body.reason,
        dryRun: body.dryRun,
        actor: { staffUserId: admin.id, email: admin.email },
        client: securityClientOf(req),
        mailDirectory: options.mailDirectory,
      });
      res.set("Cache-Control", "no-store");
      return { status: 200, body: { dryRun: body.dryRun, ...erasure } };
    },
  });
  return router;
}
