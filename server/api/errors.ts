import type { ErrorRequestHandler, Request, Response } from "express";
import type { Logger } from "pino";
import { DomainError, ValidationError } from "../../domain/errors.ts";
import { translate } from "../../i18n/translate.ts";

/** Every API error has the shape `{message}`, in the caller's language. */
export function sendError(res: Response, status: number, messageKey: string, params = {}) {
  res.status(status).json({ message: translate(res.locals.language, messageKey, params) });
}

export function apiNotFound(_req: Request, res: Response) {
  sendError(res, 404, "errors.notFound");
}

const DOMAIN_STATUS: Record<DomainError["code"], number> = {
  not_found: 404,
  invalid: 400,
  validation: 400,
  bot_check: 403,
  conflict: 422,
  forbidden: 403,
};

/** Maps domain errors to 4xx and anything unexpected to a logged 500, always as JSON. */
export function apiErrorHandler(log: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof ValidationError) {
      // Spec point 8: `{message, errors:[{path, message}]}`, every message in the caller's language.
      const language = res.locals.language;
      return res.status(400).json({
        message: translate(language, error.messageKey),
        errors: error.issues.map((issue) => ({
          path: issue.path,
          message: translate(language, issue.message, issue.params ?? {}),
        })),
      });
    }
    if (error instanceof DomainError) {
      const status = DOMAIN_STATUS[error.code];
      if (error.code === "bot_check")
        return res.status(status).json({
          error: "invalid_bot_token",
          message: translate(res.locals.language, error.messageKey),
        });
      return sendError(res, status, error.messageKey, error.params);
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
