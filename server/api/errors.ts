import type { ErrorRequestHandler, Request, Response } from "express";
import type { Logger } from "pino";
import type { ApiErrorCode } from "#domain/api/error-codes.ts";
import {
  DomainError,
  type DomainErrorCode,
  NoClaimedEstateError,
  ValidationError,
} from "#domain/errors.ts";
import { translate } from "#i18n/translate.ts";
import { loggableUrl } from "../middleware/request-log.ts";

/**
 * Answers are checked against their operation's contract while tests run: a field the
 * document does not name, a wrong type or an undocumented status fails the request with a 500
 * that names the operation (server/api/define-route.ts). Production sends answers unchecked.
 */
export function answersAreChecked(): boolean {
  return process.env.NODE_ENV === "test" || process.env.API_CHECK_ANSWERS === "1";
}

/**
 * While tests run: answers 500 naming the operation if it does not document `status`, or
 * documents the status with codes that leave `code` out.
 */
function isUndocumented(res: Response, status: number, code: ApiErrorCode, what: string): boolean {
  const operation = res.locals.operation;
  if (!answersAreChecked() || !operation) return false;
  const spec = operation.responses[status];
  if (spec && (!spec.codes || spec.codes.includes(code))) return false;
  res.status(500).json({
    message: spec
      ? `contract violation: ${operation.id} answered ${status} with code ${code} (${what}), which it does not document`
      : `contract violation: ${operation.id} answered ${status} (${what}), which it does not document`,
    code: "contract_violation",
  });
  return true;
}

/**
 * Every API error has the shape `{message, code}`: the message in the caller's language, the
 * code one of domain/api/error-codes.ts, for programs.
 */
export function sendError(
  res: Response,
  status: number,
  code: ApiErrorCode,
  messageKey: string,
  params = {},
) {
  if (isUndocumented(res, status, code, messageKey)) return;
  res.status(status).json({ message: translate(res.locals.language, messageKey, params), code });
}

export function apiNotFound(_req: Request, res: Response) {
  sendError(res, 404, "not_found", "errors.notFound");
}

const DOMAIN_STATUS: Record<DomainError["code"], number> = {
  not_found: 404,
  invalid: 400,
  validation: 400,
  bot_check: 403,
  conflict: 422,
  forbidden: 403,
};

/** The code of a domain error's refusal; a not-found says what was not found. */
function codeOfDomainError(error: DomainError): ApiErrorCode {
  if (error instanceof NoClaimedEstateError) return "no_claimed_estate";
  if (error.code === "not_found") return NOT_FOUND_CODES[error.messageKey] ?? "not_found";
  return DOMAIN_CODES[error.code];
}

const NOT_FOUND_CODES: Record<string, ApiErrorCode> = {
  "errors.propertyNotFound": "estate_not_found",
  "errors.mediaNotFound": "media_not_found",
};

const DOMAIN_CODES: Record<DomainErrorCode, ApiErrorCode> = {
  not_found: "not_found",
  invalid: "invalid_input",
  validation: "validation_failed",
  bot_check: "bot_check_failed",
  // The one conflict the domain throws: an Idempotency-Key used with another body.
  conflict: "idempotency_conflict",
  forbidden: "forbidden",
};

/** The codes of the 4xx a body-parser style error carries (a body cut short is a 400). */
const CLIENT_CODES: Record<number, ApiErrorCode> = {
  413: "payload_too_large",
  415: "unsupported_media_type",
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
      // A 400 says `{message, code, errors:[{path, message}]}`, every message in the caller's language.
      const language = res.locals.language;
      if (isUndocumented(res, 400, "validation_failed", error.messageKey)) return;
      return res.status(400).json({
        message: translate(language, error.messageKey),
        code: "validation_failed",
        errors: error.issues.map((issue) => ({
          path: issue.path,
          message: translate(language, issue.message, issue.params ?? {}),
        })),
      });
    }
    if (error instanceof DomainError) {
      const status = DOMAIN_STATUS[error.code];
      const code = codeOfDomainError(error);
      if (error.code === "bot_check") {
        if (isUndocumented(res, status, code, error.messageKey)) return;
        // `error` is the older name of the code, kept for the clients that read it.
        return res.status(status).json({
          error: "invalid_bot_token",
          message: translate(res.locals.language, error.messageKey),
          code,
        });
      }
      return sendError(res, status, code, error.messageKey, error.params);
    }
    if (error instanceof Error && error.name === "ContractViolation") {
      log.error({ err: error, url: loggableUrl(req.originalUrl) }, "contract violation");
      return res.status(500).json({ message: error.message, code: "contract_violation" });
    }
    // body-parser style errors carry a status; keep their 4xx, hide their text.
    const status = clientStatusOf(error) ?? 500;
    if (status === 500)
      log.error(
        { err: error, requestId: res.locals.requestId, url: loggableUrl(req.originalUrl) },
        "unhandled error",
      );
    if (status === 404) return sendError(res, 404, "not_found", "errors.notFound");
    sendError(
      res,
      status,
      status === 500 ? "internal_error" : (CLIENT_CODES[status] ?? "bad_request"),
      "errors.generic",
    );
  };
}
