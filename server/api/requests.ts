import { type Request, type Response, Router } from "express";
import { createAltchaChallenge } from "../../domain/bot-check/bot-check.ts";
import type { Deps } from "../../domain/deps.ts";
import { submitGuestRequest } from "../../domain/intake/submit-request.ts";
import type { RequestKind } from "../../domain/requests/options.ts";
import { rateLimit, sameOriginOnly } from "../middleware/request-guards.ts";
import type { Services } from "../services.ts";
import { jsonBody } from "./body.ts";
import { sendError } from "./errors.ts";

/** The three form endpoints of spec point 7, and the bot-check challenge. */
export const REQUEST_ENDPOINTS: Record<RequestKind, string> = {
  booking_request: "/booking-requests",
  property_booking: "/bookings",
  membership: "/membership/apply",
};

/** Printable ASCII, as clients generate them (UUIDs and the like). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

export function requestRoutes(deps: Deps, services: Services, publicUrl: string): Router {
  const router = Router();
  const { store, forms, challenge } = services.rateLimits;

  router.get(
    "/bot-check/challenge",
    rateLimit(store, challenge, deps.log),
    async (_req: Request, res: Response) => {
      const config = services.intake.botCheck;
      if (config.provider !== "altcha") return sendError(res, 404, "errors.notFound");
      res.set("Cache-Control", "no-store").json(await createAltchaChallenge(config.altcha));
    },
  );

  for (const [kind, path] of Object.entries(REQUEST_ENDPOINTS) as [RequestKind, string][]) {
    router.post(
      path,
      sameOriginOnly(publicUrl),
      rateLimit(store, forms, deps.log),
      ...jsonBody(),
      async (req: Request, res: Response) => {
        const idempotencyKey = req.get("idempotency-key");
        if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey))
          return sendError(res, 400, "errors.idempotencyKeyInvalid");
        const result = await submitGuestRequest(deps, services.intake, {
          kind,
          body: req.body,
          language: res.locals.language,
          idempotencyKey,
          headerBotToken: req.get("x-bot-token") ?? undefined,
          remoteIp: req.ip,
        });
        res
          .status(result.status)
          .set("Cache-Control", "no-store")
          .set("Idempotent-Replayed", String(result.replayed))
          .json(result.body);
      },
    );
  }
  return router;
}
