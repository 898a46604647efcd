import type { ErrorRequestHandler, Request, Response } from "express";
import type { Logger } from "pino";
import { DomainError, ValidationError } from "../../domain/errors.ts";
import { translate } from "../../i18n/translate.ts";
import { loggableUrl } from "../middleware/request-log.ts";

/**
 * Answers are checked against their operation's contract while tests run: a field the
 * document does not name, a wrong type or an undocumented status fails the request with a 500
 * that names the operation (server/api/define-route.ts). Production sends answers unchecked.
 */
export function answersAreChecked(): boolean {
  return process.env.NODE_ENV === "test" || process.env.API_CHECK_ANSWERS === "1";
}

/** While tests run: answers 500 naming the operation if it does not document `status`. */
function isUndocumented(res: Response, status: number, what: string): boolean {
  const operation = res.locals.operation;
  if (!answersAreChecked() || !operation || status in operation.responses) return false;
  res.status(500).json({
    message: `contract violation: ${operation.id} answered ${status} (${what}), which it does not document`,
  });
  return true;
}

/** Every API error has the shape `{message}`, in the caller's language. */
export function sendError(res: Response, status: number, messageKey: string, params = {}) {
  if (isUndocumented(res, status, messageKey)) return;
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

/** The 4xx a body-parser style error carries in `status`, if any. */
function clientStatusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null || !("status" in error)) return undefined;
  const { status } = error;
  return typeof status === "number" && status >= 400 && status < 500 ? status : undefined;
}

/** Maps domain errors to 4xx and anything unexpected to a logged 500, always as JSON. */
export function apiErrorHandler(log: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof ValidationError) {
      // A 400 says `{message, errors:[{path, message}]}`, every message in the caller's language.
      const language = res.locals.language;
      if (isUndocumented(res, 400, error.messageKey)) return;
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
      if (error.code === "bot_check") {
        if (isUndocumented(res, status, error.messageKey)) return;
        return res.status(status).json({
          error: "invalid_bot_token",
          message: translate(res.locals.language, error.messageKey),
        });
      }
      return sendError(res, status, error.messageKey, error.params);
    }
    if (error instanceof Error && error.name === "ContractViolation") {
      log.error({ err: error, url: loggableUrl(req.originalUrl) }, "contract violation");
      return res.status(500).json({ message: error.message });
    }
    // body-parser style errors carry a status; keep their 4xx, hide their text.
    const status = clientStatusOf(error) ?? 500;
    if (status === 500)
      log.error(
        { err: error, requestId: res.locals.requestId, url: loggableUrl(req.originalUrl) },
        "unhandled error",
      );
    sendError(res, status, status === 404 ? "errors.notFound" : "errors.generic");
  };
}
