import type { FieldIssue } from "./requests/fields.ts";

/**
 * Typed domain errors. Adapters (API routes, loaders) map them to HTTP; `messageKey` is a
 * translation key so the answer is in the caller's language. Program logic branches on the
 * class or the `code`, never on `messageKey` (a text may change; a key is no contract).
 */
export type DomainErrorCode =
  "not_found" | "invalid" | "validation" | "bot_check" | "conflict" | "forbidden";

export class DomainError extends Error {
  readonly code: DomainErrorCode;
  readonly messageKey: string;
  readonly params: Record<string, string | number>;

  constructor(
    code: DomainErrorCode,
    messageKey: string,
    params: Record<string, string | number> = {},
  ) {
    super(messageKey);
    this.name = "DomainError";
    this.code = code;
    this.messageKey = messageKey;
    this.params = params;
  }
}

export class NotFoundError extends DomainError {
  constructor(messageKey = "errors.notFound") {
    super("not_found", messageKey);
    this.name = "NotFoundError";
  }
}

/**
 * An owner whose email has no claimed estate (never claimed, or staff gave it to another
 * email): pages offer to claim one, the API answers 404. Adapters tell it by its class, never
 * by its message key.
 */
export class NoClaimedEstateError extends NotFoundError {
  constructor() {
    super("owner.errors.noClaimedEstate");
    this.name = "NoClaimedEstateError";
  }
}

/** Someone signed in who may not act on this thing (an owner on another owner's estate). */
export class ForbiddenError extends DomainError {
  constructor(messageKey = "owner.errors.forbidden") {
    super("forbidden", messageKey);
    this.name = "ForbiddenError";
  }
}

export class InvalidInputError extends DomainError {
  constructor(messageKey: string, params: Record<string, string | number> = {}) {
    super("invalid", messageKey, params);
    this.name = "InvalidInputError";
  }
}

/** A form that breaks its schema: one issue per field, each message a translation key. */
export class ValidationError extends DomainError {
  readonly issues: FieldIssue[];
  constructor(issues: FieldIssue[]) {
    super("validation", "errors.validationFailed");
    this.name = "ValidationError";
    this.issues = issues;
  }
}

/** A bot-check token that is missing, forged, expired or already spent (spec: 403). */
export class BotCheckError extends DomainError {
  constructor() {
    super("bot_check", "errors.botCheckFailed");
    this.name = "BotCheckError";
  }
}

/** An Idempotency-Key already used for a different request body. */
export class IdempotencyConflictError extends DomainError {
  constructor() {
    super("conflict", "errors.idempotencyConflict");
    this.name = "IdempotencyConflictError";
  }
}
