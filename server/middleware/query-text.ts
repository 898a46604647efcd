import type { NextFunction, Request, Response } from "express";
import { isStorableText, toStorableText, UNSTORABLE_TEXT } from "#domain/storable-text.ts";
import { sendError } from "../api/errors.ts";

/**
 * Guards every query-string key and value of a read (GET, HEAD), whatever reads it, against
 * text PostgreSQL cannot take as a parameter (a NUL, an unpaired surrogate), which made
 * searches a 500 and cut the CSV export short. The API and media answer 400 `{message, code}` in the
 * caller's language; a page redirects to the same address without those characters, so a
 * visitor still gets the page. Writes take their input from the body (server/api/body.ts
 * refuses the same text there); their query strings are left to the routes, as before.
 */
export function storableQueryOnly() {
  return (req: Request, res: Response, next: NextFunction) => {
    const at = req.originalUrl.indexOf("?");
    if (at < 0 || (req.method !== "GET" && req.method !== "HEAD")) return next();
    // The decoding the pages (URLSearchParams) use; Express's `qs` decodes %00 alike.
    const params = [...new URLSearchParams(req.originalUrl.slice(at + 1))];
    if (params.every(([key, value]) => isStorableText(key) && isStorableText(value))) return next();
    const path = req.originalUrl.slice(0, at);
    if (path === "/api" || path.startsWith("/api/") || path.startsWith("/media/"))
      return sendError(res, 400, "unstorable_text", UNSTORABLE_TEXT);
    const cleaned = new URLSearchParams(
      params.map(([key, value]) => [toStorableText(key), toStorableText(value)]),
    );
    res.redirect(302, `${path}?${cleaned}`);
  };
}
