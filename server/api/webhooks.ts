import { type Request, type Response, Router } from "express";
import type { Deps } from "#domain/deps.ts";
import {
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  registerWebhook,
  rotateWebhookSecret,
  sendTestWebhook,
  setWebhookPaused,
} from "#domain/webhooks/endpoints.ts";
import * as contract from "#domain/webhooks/webhooks.contract.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { requireAdminApi } from "../middleware/session.ts";
import { recordSecurityEvent } from "#domain/security/security-log.ts";
import { securityActorOf, securityClientOf } from "../middleware/security-log.ts";
import type { WebhookServices } from "../services.ts";
import { defineRoute, refuse } from "./define-route.ts";

const NOT_FOUND = "staff.webhooks.errors.notFound";

/** The signed-in admin (requireAdminApi has run). */
function signedInAdmin(res: Response) {
  const session = res.locals.session;
  if (!session || session.role !== "staff") throw new Error("requireAdminApi must run first");
  return session.user;
}

/** A receiver's address as the security log keeps it: its origin only (a query may hold a key). */
function originOf(url: string): string | null {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return null;
  }
}

/** A malformed endpoint id in the path names no endpoint: 404. */
const notFound = () => refuse(404, "endpoint_not_found", NOT_FOUND);

/** The webhook calls (domain/webhooks/webhooks.contract.ts): company admins only. */
export function webhookRoutes(
  deps: Deps,
  webhooks: WebhookServices,
  options: { adminEmailDomain: string; publicUrl: string },
): Router {
  const router = Router();
  const sameOrigin = sameOriginOnly(options.publicUrl);
  const requireAdmin = requireAdminApi(options.adminEmailDomain);
  /** One `webhook.changed` entry of the security log: never the secret. */
  const recordChange = (req: Request, res: Response, data: { action: string; id: string }) =>
    recordSecurityEvent(deps.db, {
      type: "webhook.changed",
      actor: securityActorOf(res),
      client: securityClientOf(req),
      data,
    });

  defineRoute(router, contract.registerWebhook, {
    before: [sameOrigin, requireAdmin],
    async handle({ body, req, res }) {
      const admin = signedInAdmin(res);
      const created = await registerWebhook(deps, webhooks.config.outbound, {
        url: body.url,
        events: body.events,
        includeContact: body.includeContact ?? false,
        createdBy: `staff:${admin.email}`,
      });
      // Never the secret: only that an endpoint was registered, and by whom.
      deps.log.info({ webhookId: created.id, by: admin.id }, "webhook endpoint registered");
      await recordSecurityEvent(deps.db, {
        type: "webhook.changed",
        actor: securityActorOf(res),
        client: securityClientOf(req),
        data: { action: "registered", id: created.id, origin: originOf(body.url) },
      });
      return { status: 201, body: created };
    },
  });

  defineRoute(router, contract.listWebhooks, {
    before: [requireAdmin],
    async handle() {
      return { status: 200, body: { endpoints: await listWebhooks(deps) } };
    },
  });

  for (const [operation, paused] of [
    [contract.pauseWebhook, true],
    [contract.resumeWebhook, false],
  ] as const)
    defineRoute(router, operation, {
      before: [sameOrigin, requireAdmin],
      onInvalid: notFound,
      async handle({ params, req, res }) {
        const endpoint = await setWebhookPaused(deps, params.id, paused);
        if (!endpoint) return notFound();
        await recordChange(req, res, { action: paused ? "paused" : "resumed", id: params.id });
        if (!paused) webhooks.worker.kick();
        return { status: 200, body: endpoint };
      },
    });

  defineRoute(router, contract.rotateWebhookSecret, {
    before: [sameOrigin, requireAdmin],
    onInvalid: notFound,
    async handle({ params, req, res }) {
      const rotated = await rotateWebhookSecret(deps, params.id);
      if (!rotated) return notFound();
      await recordChange(req, res, { action: "rotated", id: params.id });
      deps.log.info({ webhookId: params.id, by: signedInAdmin(res).id }, "webhook secret rotated");
      return { status: 200, body: rotated };
    },
  });

  defineRoute(router, contract.sendTestWebhook, {
    before: [sameOrigin, requireAdmin],
    onInvalid: notFound,
    async handle({ params, req, res }) {
      const delivery = await sendTestWebhook(deps, params.id, { by: signedInAdmin(res).email });
      if (!delivery) return notFound();
      await recordChange(req, res, { action: "test_sent", id: params.id });
      webhooks.worker.kick();
      return { status: 200, body: delivery };
    },
  });

  defineRoute(router, contract.deleteWebhook, {
    before: [sameOrigin, requireAdmin],
    onInvalid: notFound,
    async handle({ params, req, res }) {
      if (!(await deleteWebhook(deps, params.id))) return notFound();
      await recordChange(req, res, { action: "deleted", id: params.id });
      deps.log.info(
        { webhookId: params.id, by: signedInAdmin(res).id },
        "webhook endpoint deleted",
      );
      return { status: 204 };
    },
  });

  defineRoute(router, contract.listWebhookDeliveries, {
    before: [requireAdmin],
    onInvalid: notFound,
    async handle({ params }) {
      const deliveries = await listWebhookDeliveries(deps, params.id);
      if (!deliveries) return notFound();
      return { status: 200, body: { deliveries } };
    },
  });

  return router;
}
