/**
 * Typed domain errors. Adapters (API routes, loaders) map them to HTTP; `messageKey` is a
 * translation key so the answer is in the caller's language.
 */
export class DomainError extends Error {
  readonly code: "not_found" | "invalid";
  readonly messageKey: string;
  readonly params: Record<string, string | number>;

  constructor(
    code: "not_found" | "invalid",
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

export class InvalidInputError extends DomainError {
  constructor(messageKey: string, params: Record<string, string | number> = {}) {
    super("invalid", messageKey, params);
    this.name = "InvalidInputError";
  }
}
