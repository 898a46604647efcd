import { Router } from "express";
import { createAltchaChallenge } from "#domain/bot-check/bot-check.ts";
import type { Deps } from "#domain/deps.ts";
import { submitGuestRequest } from "#domain/requests/intake/submit-request.ts";
import type { RequestKind } from "#domain/requests/options.ts";
import {
  FORM_OPERATIONS,
  getBotCheckChallenge,
  IDEMPOTENCY_KEY,
} from "#domain/requests/requests.contract.ts";
import { replyToRequest } from "#domain/conversation/messages.contract.ts";
import { replyAsGuest } from "#domain/conversation/messages.ts";
import { BotCheckError } from "#domain/errors.ts";
import { rateLimit, sameOriginOnly } from "../middleware/request-guards.ts";
import type { Services } from "../services.ts";
import { defineRoute, refuse } from "./define-route.ts";

/** The three guest forms' endpoints, and the bot-check challenge. */
export function requestRoutes(deps: Deps, services: Services, publicUrl: string): Router {
  const router = Router();
  const { store, forms, challenge } = services.rateLimits;

  defineRoute(router, getBotCheckChallenge, {
    before: [rateLimit(store, challenge, deps.log)],
    handle: async ({ res }) => {
      const config = services.intake.botCheck;
      if (config.provider !== "altcha") return refuse(404, "not_found", "errors.notFound");
      res.set("Cache-Control", "no-store");
      return { status: 200, body: await createAltchaChallenge(config.altcha) };
    },
  });

  for (const [kind, operation] of Object.entries(FORM_OPERATIONS) as [
    RequestKind,
    (typeof FORM_OPERATIONS)[RequestKind],
  ][]) {
    defineRoute(router, operation, {
      before: [sameOriginOnly(publicUrl), rateLimit(store, forms, deps.log)],
      // The domain reads the body: a known Idempotency-Key answers before the form is checked.
      rawBody: true,
      handle: async ({ body, req, res }) => {
        const idempotencyKey = req.get("idempotency-key");
        if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey))
          return refuse(400, "idempotency_key_invalid", "errors.idempotencyKeyInvalid");
        const result = await submitGuestRequest(deps, services.intake, {
          kind,
          body,
          language: res.locals.language,
          idempotencyKey,
          headerBotToken: req.get("x-bot-token") ?? undefined,
          remoteIp: req.ip,
        });
        res.set("Cache-Control", "no-store").set("Idempotent-Replayed", String(result.replayed));
        return { status: result.status, body: result.body };
      },
    });
  }
  // The guest's reply from their status page: the forms' origin check and rate limit (one
  // budget for everything a guest sends), then the bot check, as the forms do it.
  defineRoute(router, replyToRequest, {
    before: [sameOriginOnly(publicUrl), rateLimit(store, forms, deps.log)],
    handle: async ({ params, body, req, res }) => {
      const botToken = body.turnstileToken || req.get("x-bot-token") || "";
      if (!botToken) throw new BotCheckError();
      const messages = await replyAsGuest(
        deps,
        { botCheck: services.intake.botCheck },
        { token: params.token, body: body.body, botToken, remoteIp: req.ip },
      );
      res.set("Cache-Control", "no-store");
      if (!messages) return refuse(404, "not_found", "errors.notFound");
      return { status: 201, body: messages };
    },
  });
  return router;
}
