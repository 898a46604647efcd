import express, { type NextFunction, type Request, type Response } from "express";
import type { Logger } from "pino";
import {
  consumeRateLimit,
  type RateLimitRule,
  type RateLimitStore,
} from "../../domain/rate-limit/rate-limiter.ts";
import { sendError } from "../api/errors.ts";

/** The largest form body accepted; the longest valid form is far below it. */
export const JSON_BODY_LIMIT = "32kb";

/**
 * Refuses state-changing requests that a browser sends from another site: an `Origin` that is
 * neither the public origin nor the request's own host, or `Sec-Fetch-Site: cross-site`.
 * Clients that send neither header (curl, server-to-server) are not browsers and pass.
 */
export function sameOriginOnly(publicUrl: string) {
  const publicOrigin = new URL(publicUrl).origin;
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.get("origin");
    const ownOrigin = `${req.protocol}://${req.get("host")}`;
    if (origin && origin !== publicOrigin && origin !== ownOrigin)
      return sendError(res, 403, "errors.crossOrigin");
    if (!origin && req.get("sec-fetch-site") === "cross-site")
      return sendError(res, 403, "errors.crossOrigin");
    next();
  };
}

/** JSON bodies only, at most JSON_BODY_LIMIT; errors answer JSON in the caller's language. */
export function jsonBody() {
  const parse = express.json({ limit: JSON_BODY_LIMIT, strict: true });
  return [
    (req: Request, res: Response, next: NextFunction) => {
      if (!req.is("application/json")) return sendError(res, 415, "errors.unsupportedMediaType");
      next();
    },
    (req: Request, res: Response, next: NextFunction) => {
      parse(req, res, (error?: unknown) => {
        if (!error) return next();
        const type = (error as { type?: string }).type;
        if (type === "entity.too.large")
          return sendError(res, 413, "errors.payloadTooLarge", { limit: JSON_BODY_LIMIT });
        if (type === "entity.parse.failed") return sendError(res, 400, "errors.malformedJson");
        if (type === "encoding.unsupported" || type === "charset.unsupported")
          return sendError(res, 415, "errors.unsupportedMediaType");
        next(error);
      });
    },
  ];
}

/**
 * Counts the client's requests against `rule` (per IP). Over the limit: 429 with Retry-After.
 * If the counter store is unreachable the request passes: limits protect, they must not take
 * the forms down with them.
 */
export function rateLimit(store: RateLimitStore, rule: RateLimitRule, log: Logger) {
  return async (req: Request, res: Response, next: NextFunction) => {
    let decision;
    try {
      decision = await consumeRateLimit(store, rule, req.ip ?? "unknown");
    } catch (error) {
      log.warn({ err: error, rule: rule.name }, "rate-limit store unavailable; request allowed");
      return next();
    }
    res.setHeader("RateLimit-Limit", String(decision.limit));
    res.setHeader("RateLimit-Remaining", String(decision.remaining));
    if (!decision.allowed) {
      res.setHeader("Retry-After", String(decision.retryAfterSeconds));
      return sendError(res, 429, "errors.rateLimited", {
        minutes: Math.ceil(decision.retryAfterSeconds / 60),
      });
    }
    next();
  };
}
