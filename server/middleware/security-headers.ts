import { createHash, randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { DEFERRED_MODULE_TYPE } from "#app/first-screen.ts";

declare global {
  namespace Express {
    interface Locals {
      /** This answer's script nonce: fresh for every request, handed to the page renderer. */
      cspNonce?: string;
      /**
       * The hashes of a stored page's inline scripts (`'sha256-…'`), set when the response
       * cache answers: they replace the nonce, which the stored copy cannot carry afresh.
       */
      cspScriptHashes?: string[];
    }
  }
}

/** Cloudflare's origin for the Turnstile script and its challenge frame. */
const TURNSTILE_ORIGIN = "https://challenges.cloudflare.com";

/** Everything that is not a page: JSON, images, feeds, scripts, fonts. */
export const STRICT_CSP = "default-src 'none'; frame-ancestors 'none'";
/**
 * A PDF only forbids framing: Chrome draws a PDF shown inline with an internal page that a
 * stricter policy breaks (crbug.com/271452), and no other directive means anything to a PDF.
 */
export const PDF_CSP = "frame-ancestors 'none'";

export interface SecurityHeadersOptions {
  /** Strict-Transport-Security (production over HTTPS only). */
  hsts: boolean;
  /** Cloudflare Turnstile draws the bot check (its script and frame come from Cloudflare). */
  turnstile?: boolean;
  /** Vite's development server: its hot-reload socket is allowed. */
  development?: boolean;
}

/**
 * The policy of an HTML page. `scriptSources` are the nonce of this answer, or the hashes of
 * a stored page's inline scripts. Scripts come from this origin only, so 'self' and the
 * nonce (or hashes) suffice; 'strict-dynamic' would add nothing but ignore 'self', which the
 * ES module imports of the page's hash-allowed scripts need on a stored page. Styles allow
 * inline ('unsafe-inline'): React renders `style` attributes, and Radix's scroll lock and the
 * ALTCHA widget insert <style> elements at run time that no stored page could give a nonce
 * (docs/decisions/0012-content-security-policy.md).
 */
export function pagePolicy(options: SecurityHeadersOptions, scriptSources: string[]): string {
  const turnstile = options.turnstile ? ` ${TURNSTILE_ORIGIN}` : "";
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${scriptSources.join(" ")}${turnstile}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    // ALTCHA's challenge is fetched from this origin; Vite's hot reload uses a web socket.
    `connect-src 'self'${options.development ? " ws: wss:" : ""}`,
    // ALTCHA solves its proof of work in Web Workers made from blob: URLs.
    "worker-src 'self' blob:",
    `frame-src ${options.turnstile ? TURNSTILE_ORIGIN : "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  return directives.join("; ");
}

/** The policy for an answer of this Content-Type (no nonce or hashes: see `pagePolicy`). */
function policyFor(contentType: string, options: SecurityHeadersOptions, res: Response): string {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "text/html") {
    const sources = res.locals.cspScriptHashes ?? [`'nonce-${res.locals.cspNonce}'`];
    return pagePolicy(options, sources);
  }
  if (type === "application/pdf") return PDF_CSP;
  return STRICT_CSP;
}

/** The headers every answer carries, whatever it is. */
function setCommonHeaders(res: Response, options: { hsts: boolean }) {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  // No other origin's window keeps a handle on ours. The share pop-ups still open: the page
  // only checks that window.open gave a window, and already cuts the pop-up's opener.
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  if (options.hsts)
    res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
}

/**
 * Conservative headers for every answer, and its Content-Security-Policy. The policy depends
 * on what the answer turns out to be, so it is chosen when the headers leave (a page streams
 * its headers before anyone here sees its body): a page gets the page policy with this
 * request's nonce (or the stored page's hashes), a PDF forbids framing, everything else gets
 * the strict policy; a 304 gets none. A route that set its own policy keeps it.
 */
export function securityHeaders(options: SecurityHeadersOptions) {
  return (_req: Request, res: Response, next: NextFunction) => {
    setCommonHeaders(res, options);
    res.locals.cspNonce = randomBytes(16).toString("base64");
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      const status = typeof args[0] === "number" ? args[0] : res.statusCode;
      // A 304 updates the headers the browser keeps with its copy: a new policy there would
      // pair a fresh nonce with the old body's scripts. It sends none, so the kept one holds.
      if (status === 304) res.removeHeader("Content-Security-Policy");
      else if (!res.hasHeader("Content-Security-Policy"))
        res.setHeader(
          "Content-Security-Policy",
          policyFor(String(res.getHeader("Content-Type") ?? ""), options, res),
        );
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as Response["writeHead"];
    next();
  };
}

/**
 * The same headers for the build's static files (`express.static`'s `setHeaders`): scripts,
 * styles, fonts and images, never a page, so the strict policy.
 */
export function staticAssetHeaders(options: { hsts: boolean }) {
  return (res: Response) => {
    setCommonHeaders(res, options);
    res.setHeader("Content-Security-Policy", STRICT_CSP);
  };
}

/**
 * Inline scripts the browser runs: no `src`, and a JavaScript (or module) type, or the type of a
 * public page's deferred module script, which the page's own script runs as a module once the
 * first screen has painted (app/first-screen.ts): its text is allowed by the same hash.
 */
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const EXECUTABLE_TYPE = /^(?:|module|importmap|(?:text|application)\/(?:x-)?(?:java|ecma)script)$/i;

/**
 * The CSP hash sources (`'sha256-…'`) of a page's inline scripts, in order, without repeats.
 * Data blocks (`application/ld+json`) are not run, so not listed. A script's hash covers its
 * text exactly as it stands between the tags (the HTML parser decodes nothing in a script).
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = "", body = ""] of html.matchAll(INLINE_SCRIPT)) {
    if (/\ssrc\s*=/i.test(` ${attributes}`)) continue;
    const type = /\stype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(` ${attributes}`);
    const typeValue = (type?.[1] ?? type?.[2] ?? type?.[3] ?? "").trim();
    if (!EXECUTABLE_TYPE.test(typeValue) && typeValue !== DEFERRED_MODULE_TYPE) continue;
    hashes.add(`'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}
