import type { ErrorRequestHandler, Request, Response } from "express";
import type { Logger } from "pino";
import { DomainError } from "../../domain/errors.ts";
import { translate } from "../../i18n/translate.ts";

/** Every API error has the shape `{message}`, in the caller's language. */
export function sendError(res: Response, status: number, messageKey: string, params = {}) {
  res.status(status).json({ message: translate(res.locals.language, messageKey, params) });
}

export function apiNotFound(_req: Request, res: Response) {
  sendError(res, 404, "errors.notFound");
}

/** Maps domain errors to 4xx and anything unexpected to a logged 500, always as JSON. */
export function apiErrorHandler(log: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof DomainError) {
      return sendError(res, error.code === "not_found" ? 404 : 400, error.messageKey, error.params);
    }
    // body-parser style errors carry a status; keep their 4xx, hide their text.
    const status =
      typeof error?.status === "number" && error.status >= 400 && error.status < 500
        ? error.status
        : 500;
    if (status === 500)
      log.error(
        { err: error, requestId: res.locals.requestId, url: req.originalUrl },
        "unhandled error",
      );
    sendError(res, status, status === 404 ? "errors.notFound" : "errors.generic");
  };
}
