/**
 * What visitors see while the database cannot be reached: 503 with a message in their
 * language (JSON `{message, code}` on the API, a small page elsewhere) instead of a 500, and a
 * recovery without restart: the pool replaces dead connections by itself, and the page gate
 * below checks the database again before it answers 503 once more.
 */
import type { ErrorRequestHandler, NextFunction, Request, Response } from "express";
import { pingDatabase } from "#db/health.ts";
import type { Deps } from "#domain/deps.ts";
import { LANGUAGE_TAGS, type Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { loggableUrl } from "../middleware/request-log.ts";

/** Seconds a client is asked to wait before trying again. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;
const PING_TIMEOUT_MS = 2000;

/** SQLSTATE classes and codes that mean the server went away, not that the query was wrong. */
const UNAVAILABLE_SQLSTATE = /^(08...|57P01|57P02|57P03|53300)$/;
const UNAVAILABLE_ERRNO = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable|is not currently accepting connections|the database system is (shutting down|starting up)/i;

/**
 * Whether `error` (or what it wraps: drizzle puts the driver's error in `cause`) says the
 * database cannot be reached, as opposed to a bug or a constraint violation.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message, cause } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (
      typeof code === "string" &&
      (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))
    )
      return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message)) return true;
    current = cause;
  }
  return false;
}

/** Remembers a suspected outage and checks the database (one ping at a time) while it lasts. */
export class DatabaseOutage {
  private isSuspected = false;
  private ping: Promise<boolean> | null = null;

  private readonly deps: Deps;

  constructor(deps: Deps) {
    this.deps = deps;
  }

  /** Something failed in a way the database may explain: check it on the next page request. */
  suspect(): void {
    this.isSuspected = true;
  }

  /** False only when an outage is suspected and the database does not answer now. */
  async isAvailable(): Promise<boolean> {
    if (!this.isSuspected) return true;
    this.ping ??= this.pingDatabase().finally(() => {
      this.ping = null;
    });
    const available = await this.ping;
    if (available) this.isSuspected = false;
    return available;
  }

  private async pingDatabase(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        pingDatabase(this.deps.db),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("database ping timed out")), PING_TIMEOUT_MS);
        }),
      ]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Mount just before the /api error handler: a database outage is 503 with the translated
   * message (the API's `{message, code}` shape) and Retry-After, logged as a warning, not a 500.
   */
  apiErrorHandler(): ErrorRequestHandler {
    return (error, req, res, next) => {
      if (res.headersSent || !isDatabaseUnavailable(error)) return next(error);
      this.suspect();
      this.deps.log.warn(
        { err: error, requestId: res.locals.requestId, url: loggableUrl(req.originalUrl) },
        "database unavailable: answered 503",
      );
      res.setHeader("Retry-After", String(OUTAGE_RETRY_AFTER_SECONDS));
      res.setHeader("Cache-Control", "no-store");
      res.status(503).json({
        message: translate(res.locals.language as Language, "errors.serviceUnavailable"),
        code: "service_unavailable",
      });
    };
  }

  /**
   * Mount just before the page handler (after the response cache, which keeps serving what it
   * holds). A page that failed with 5xx makes the next page request check the database first;
   * while it does not answer, pages are a 503 in the visitor's language.
   */
  pageGate() {
    return async (req: Request, res: Response, next: NextFunction) => {
      res.once("finish", () => {
        if (res.statusCode >= 500 && res.statusCode !== 503) this.suspect();
      });
      if (await this.isAvailable()) return next();
      sendOutagePage(req, res);
    };
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function sendOutagePage(req: Request, res: Response) {
  const language = (res.locals.language ?? "en") as Language;
  const title = escapeHtml(translate(language, "errors.serviceUnavailableTitle"));
  const message = escapeHtml(translate(language, "errors.serviceUnavailable"));
  // The page's Content-Security-Policy admits inline style only with its nonce.
  const cspNonce: unknown = res.locals.cspNonce;
  const nonce = typeof cspNonce === "string" ? ` nonce="${escapeHtml(cspNonce)}"` : "";
  res.setHeader("Retry-After", String(OUTAGE_RETRY_AFTER_SECONDS));
  res.setHeader("Cache-Control", "no-store");
  if (req.path.endsWith(".data")) {
    // A client navigation: the browser then loads the page itself and shows this answer.
    res.status(503).type("text/plain").send(message);
    return;
  }
  res
    .status(503)
    .type("html")
    .send(
      `<!doctype html><html lang="${LANGUAGE_TAGS[language] ?? "en"}"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>` +
        `<style${nonce}>body{font-family:Georgia,serif;max-width:36rem;margin:6rem auto;padding:0 1.5rem;color:#2b2118}h1{font-size:1.75rem}</style>` +
        `</head><body><main><h1>${title}</h1><p>${message}</p></main></body></html>`,
    );
}
