import type { NextFunction, Request, Response } from "express";
import {
  LANGUAGE_COOKIE,
  LANGUAGE_COOKIE_MAX_AGE_SECONDS,
  type Language,
  negotiateLanguage,
} from "#i18n/config.ts";

declare global {
  namespace Express {
    interface Locals {
      language: Language;
      requestId: string;
    }
  }
}

/** A cookie's value, or undefined when it is absent or not valid percent-encoding. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(";") ?? []) {
    const [key, ...value] = part.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join("="));
    } catch {
      // A client's malformed cookie (`%E0%A4%A`) is no cookie, not a server error.
      return undefined;
    }
  }
  return undefined;
}

/**
 * Settles the request's language (`?lang=`, cookie, Accept-Language, `en`) into
 * `res.locals.language`. A page request with `?lang=` remembers it in the cookie.
 */
export function languageMiddleware(options: { secureCookie: boolean }) {
  return (req: Request, res: Response, next: NextFunction) => {
    const query = typeof req.query.lang === "string" ? req.query.lang : undefined;
    const { language, fromQuery } = negotiateLanguage({
      query,
      cookie: readCookie(req.headers.cookie, LANGUAGE_COOKIE),
      acceptLanguage: req.headers["accept-language"],
    });
    res.locals.language = language;
    const isPage = !req.path.startsWith("/api/") && !req.path.startsWith("/media/");
    if (fromQuery && isPage && req.method === "GET") {
      res.cookie(LANGUAGE_COOKIE, language, {
        maxAge: LANGUAGE_COOKIE_MAX_AGE_SECONDS * 1000,
        sameSite: "strict",
        secure: options.secureCookie,
        path: "/",
      });
    }
    // Pages differ by language; API data is chosen by `?lang=` and images by nothing, so only
    // pages vary (a CDN keeps one copy of each image).
    if (isPage) {
      res.vary("Accept-Language");
      res.vary("Cookie");
    }
    next();
  };
}
