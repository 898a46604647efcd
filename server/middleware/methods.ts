import type { NextFunction, Request, Response } from "express";
import { sendError } from "../api/errors.ts";

/** Every method some route of the site answers; anything else is refused before routing. */
export const SUPPORTED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** A 405 with `{message, code}` in the caller's language for any method outside `methods`. */
function methodsOnly(methods: readonly string[]) {
  const allow = methods.join(", ");
  return (req: Request, res: Response, next: NextFunction) => {
    if (methods.includes(req.method)) return next();
    res.setHeader("Allow", allow);
    sendError(res, 405, "method_not_allowed", "errors.methodNotAllowed", { methods: allow });
  };
}

/**
 * Refuses a method no route implements (TRACE, PROPFIND, …) with 405 and `{message, code}` in the
 * caller's language, on pages and the API alike. Without it such a request reached React
 * Router, whose Fetch `Request` throws on TRACE and TRACK: a 500 for every scanner's probe.
 */
export const supportedMethodsOnly = () => methodsOnly(SUPPORTED_METHODS);

/** What a page answers: no page has an action, so a form post to one is refused. */
export const PAGE_METHODS = ["GET", "HEAD"];

/**
 * Refuses a POST (or PUT, DELETE…) to a page with a quiet 405 and `{message, code}`: no page takes a
 * form post (forms call the API), and React Router would log each such request as an error
 * with its stack, outside the JSON log, for anyone to repeat.
 */
export const pageMethodsOnly = () => methodsOnly(PAGE_METHODS);
