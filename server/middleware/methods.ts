import type { NextFunction, Request, Response } from "express";
import { sendError } from "../api/errors.ts";

/** Every method some route of the site answers; anything else is refused before routing. */
export const SUPPORTED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * Refuses a method no route implements (TRACE, PROPFIND, …) with 405 and `{message}` in the
 * caller's language, on pages and the API alike. Without it such a request reached React
 * Router, whose Fetch `Request` throws on TRACE and TRACK: a 500 for every scanner's probe.
 */
export function supportedMethodsOnly() {
  const allow = SUPPORTED_METHODS.join(", ");
  return (req: Request, res: Response, next: NextFunction) => {
    if (SUPPORTED_METHODS.includes(req.method)) return next();
    res.setHeader("Allow", allow);
    sendError(res, 405, "errors.methodNotAllowed", { methods: allow });
  };
}
