import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";

/**
 * Paths whose last segment is a secret (an export feed token, a status page token): logged without it, so
 * whoever reads the logs cannot open what it opens.
 */
const SECRET_PATHS = [
  // An estate's export feed: its token opens the calendar.
  /^(\/api\/ical\/)[^?#]*/,
  // A guest's status page (and its data request): its token opens the request.
  /^(\/requests\/)[^?#]*/,
];

/** A request's address as it may be logged: secrets in the path replaced by `[redacted]`. */
export function loggableUrl(url: string): string {
  return SECRET_PATHS.reduce((text, pattern) => text.replace(pattern, "$1[redacted]"), url);
}

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
        {
          requestId,
          method: req.method,
          url: loggableUrl(req.originalUrl),
          status: res.statusCode,
          ms,
        },
        "request",
      );
    });
    next();
  };
}
