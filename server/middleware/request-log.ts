import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";

/** Gives each request an id (or keeps a sane incoming X-Request-Id) and logs its outcome. */
export function requestLog(log: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get("x-request-id");
    const requestId = incoming && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    const started = performance.now();
    res.on("finish", () => {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      log.info(
        { requestId, method: req.method, url: req.originalUrl, status: res.statusCode, ms },
        "request",
      );
    });
    next();
  };
}
