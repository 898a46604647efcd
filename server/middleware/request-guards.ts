import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import {
  consumeRateLimit,
  type RateLimitRule,
  type RateLimitStore,
} from "#domain/rate-limit/rate-limiter.ts";
import { sendError } from "../api/errors.ts";

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
      return sendError(res, 403, "cross_origin", "errors.crossOrigin");
    if (!origin && req.get("sec-fetch-site") === "cross-site")
      return sendError(res, 403, "cross_origin", "errors.crossOrigin");
    next();
  };
}

/**
 * Counts the client's requests against `rule` (per IP). Over the limit: 429 with Retry-After.
 * The store already falls back from Redis to the database (domain/rate-limit/fallback-store.ts);
 * if even that cannot count, the request is refused with 503: a limit never fails open.
 */
export function rateLimit(store: RateLimitStore, rule: RateLimitRule, log: Logger) {
  return async (req: Request, res: Response, next: NextFunction) => {
    let decision;
    try {
      decision = await consumeRateLimit(store, rule, req.ip ?? "unknown");
    } catch (error) {
      log.warn({ err: error, rule: rule.name }, "rate-limit store unavailable; request refused");
      res.setHeader("Retry-After", "5");
      return sendError(res, 503, "limiter_unavailable", "errors.serviceUnavailable");
    }
    res.setHeader("RateLimit-Limit", String(decision.limit));
    res.setHeader("RateLimit-Remaining", String(decision.remaining));
    if (!decision.allowed) {
      res.setHeader("Retry-After", String(decision.retryAfterSeconds));
      return sendError(res, 429, "rate_limited", "errors.rateLimited", {
        minutes: Math.ceil(decision.retryAfterSeconds / 60),
      });
    }
    next();
  };
}
