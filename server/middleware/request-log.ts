import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";

/**
 * Paths that carry a secret: logged with `[redacted]` in its place, so whoever reads the logs
 * cannot open what it opens. Express matches paths whatever their case, so these do too.
 */
const SECRET_PATHS = [
  // An estate's export feed: its secret opens the calendar.
  /^(\/+api\/+ical\/)[^?#]*/i,
  // A guest's status page (and its data request): its token opens the request.
  /^(\/+requests\/)[^?#]*/i,
  // The guest's reply from that page: the same token, then `/messages`.
  /^(\/+api\/+requests\/)[^/?#]*/i,
  // A staff invitation or password-reset link, the page or its calls.
  /^((?:\/+api)?\/+admin\/+invitations?\/)[^/?#]*/i,
  /^((?:\/+api)?\/+admin\/+password-resets?\/)[^/?#]*/i,
];

/**
 * Query parameters whose value is a secret (setup `token`, owner `code`, any secret) or may be a
 * guest's personal data (the inbox's search `q`, the address an admin looks up): the logs keep
 * neither (docs/privacy.md).
 */
const SECRET_QUERY_NAME = /token|secret|code|password|^q$|^email$/i;

/** A query parameter's name as the server reads it, or the raw text when it is not decodable. */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, " "));
  } catch {
    return name;
  }
}

/**
 * A request's address as it may be logged: each secret (in the path shapes above, or the value
 * of a query parameter named like a token, code, secret or password) and each search or address
 * that may name a guest replaced by `[redacted]`.
 * Every log line that names a URL goes through this one function.
 */
export function loggableUrl(url: string): string {
  const queryAt = url.search(/[?#]/);
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const rest = queryAt === -1 ? "" : url.slice(queryAt);
  const safePath = SECRET_PATHS.reduce(
    (text, pattern) => text.replace(pattern, "$1[redacted]"),
    path,
  );
  if (!rest.startsWith("?")) return safePath + rest;
  const hashAt = rest.indexOf("#");
  const query = hashAt === -1 ? rest.slice(1) : rest.slice(1, hashAt);
  const hash = hashAt === -1 ? "" : rest.slice(hashAt);
  const safeQuery = query
    .split("&")
    .map((part) => {
      const equals = part.indexOf("=");
      if (equals === -1) return part;
      const name = part.slice(0, equals);
      return SECRET_QUERY_NAME.test(decodedName(name)) ? `${name}=[redacted]` : part;
    })
    .join("&");
  return `${safePath}?${safeQuery}${hash}`;
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
