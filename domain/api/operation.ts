import { z } from "zod";
import { API_ERROR_CODES, type ApiErrorCode, ApiErrorCodeSchema } from "./error-codes.ts";

/**
 * One HTTP operation of /api, written once: its path, parameters, body and every answer as
 * zod schemas. The server serves it (`server/api/define-route.ts`), the OpenAPI document is
 * generated from it (`server/api/openapi.ts`) and the browser calls it through `callApi`
 * (`app/api-client.ts`), all from this one object. Browser-safe: zod only.
 */

export type HttpMethod = "get" | "post" | "patch" | "put" | "delete";

/** The API's areas, in the product's words (their prose is in server/api/openapi.ts). */
export type ApiTag =
  | "catalogue"
  | "bot-check"
  | "requests"
  | "staff"
  | "inbox"
  | "owners"
  | "estates"
  | "calendar"
  | "pricing"
  | "offers"
  | "webhooks"
  | "privacy";

/** An OpenAPI security requirement list: `[]` is public, `{}` in the list makes it optional. */
export type SecurityRequirements = Record<string, string[]>[];

export const PUBLIC: SecurityRequirements = [];
export const STAFF_SESSION: SecurityRequirements = [{ staffSession: [] }];

/** An answer's header, documented. */
export interface HeaderSpec {
  description: string;
  schema: z.ZodType;
}

/** One answer of an operation: JSON with a schema, another media type, or no body (204). */
export interface ResponseSpec {
  description: string;
  /** The body's schema; absent for an answer without a body. */
  schema?: z.ZodType;
  /** `application/json` unless said otherwise (e.g. `text/csv`). */
  contentType?: string;
  headers?: Record<string, HeaderSpec>;
  /**
   * A refusal's codes (domain/api/error-codes.ts): the `code`s this status may carry. While
   * tests run, a refusal with another code fails as a contract violation.
   */
  codes?: readonly ApiErrorCode[];
}

export type Responses = { [status: number]: ResponseSpec };

/** The request body: JSON (read by `jsonBody()`) or multipart (read by the route's own parser). */
export interface BodySpec<S extends z.ZodType = z.ZodType> {
  schema: S;
  contentType?: "application/json" | "multipart/form-data";
  description?: string;
  /** False for a body the caller may leave out (read when it is JSON). */
  required?: boolean;
  /** Extra OpenAPI for the media type (a multipart body's `encoding`). */
  encoding?: Record<string, { contentType: string }>;
}

export interface Operation<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends Responses = Responses,
> {
  /** The operationId: unique, camelCase, stable (clients generate names from it). */
  id: string;
  method: HttpMethod;
  /** The path as OpenAPI writes it: `/api/admin/mail/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tags: [ApiTag];
  security: SecurityRequirements;
  /** Path parameters (an object schema whose keys are the `{names}` of the path). */
  params?: P;
  /** Query parameters (an object schema; values arrive as strings, so coerce). */
  query?: Q;
  body?: BodySpec<B>;
  /** Request headers the operation reads (documented; the route reads them itself). */
  headers?: z.ZodObject;
  responses: R;
}

/** Declares an operation; `const` keeps its statuses and schemas exact for the types. */
export function defineOperation<
  const P extends z.ZodType = z.ZodNever,
  const Q extends z.ZodType = z.ZodNever,
  const B extends z.ZodType = z.ZodNever,
  const R extends Responses = Responses,
>(operation: Operation<P, Q, B, R>): Operation<P, Q, B, R> {
  return operation;
}

const MessageSchema = z.string().min(1).describe("What went wrong, in the caller's language");

/**
 * Every refusal as a client reads it: `{message, code}`, the message in the caller's language,
 * the code stable. The document shows each answer's own codes (`error`, `invalid`).
 */
export const ErrorSchema = z.object({ message: MessageSchema, code: ApiErrorCodeSchema });

export const FieldIssueSchema = z
  .object({
    path: z.string().describe("The field, as the form names it (dotted for nested fields)"),
    message: z.string().describe("Why, in the caller's language"),
  })
  .meta({ id: "FieldError" });

/** A 400 as a client reads it: field issues (`validation_failed`), or the call's own 400. */
export const ValidationErrorSchema = z.object({
  message: z.string().min(1),
  code: ApiErrorCodeSchema,
  errors: z.array(FieldIssueSchema).optional(),
});

export type Codes = readonly [ApiErrorCode, ...ApiErrorCode[]];

/**
 * The 401 codes of a call that needs a session: none, or a sign-in short of its second factor
 * (`signInStageGate`, which every documented call passes first).
 */
export const SIGNED_OUT = ["not_signed_in", "sign_in_incomplete"] as const satisfies Codes;

/** The schema of a refusal that carries one of `codes`. */
export const errorWith = (codes: Codes) =>
  z.object({
    message: MessageSchema,
    code: z
      .enum(codes)
      .describe(
        "What went wrong, for programs, stable: " +
          codes.map((code) => `\`${code}\`: ${API_ERROR_CODES[code]}.`).join(" "),
      ),
  });

export const OkSchema = z.object({ ok: z.literal(true) }).meta({ id: "Ok" });

/** An ISO 8601 time with zone, as `Date` serializes to JSON. */
export const DateTimeSchema = z.iso.datetime({ offset: true });

/** A refusal `{message, code}` with one of `codes`. */
export const error = (description: string, codes: Codes): ResponseSpec => ({
  description,
  schema: errorWith(codes),
  codes,
});

/**
 * The codes of a 400 any call with a body or a query may answer: a field that breaks its
 * schema, and a body or query string the server cannot read.
 */
export const INVALID_CODES = [
  "validation_failed",
  "malformed_json",
  "bad_request",
  "json_too_deep",
  "unstorable_text",
] as const satisfies Codes;

/**
 * A 400 `{message, code, errors?}`: field issues (`validation_failed`), a malformed body, and
 * the call's own 400s in `codes`.
 */
export const invalid = (description: string, codes: readonly ApiErrorCode[] = []): ResponseSpec => {
  const own = codes.filter((code) => !(INVALID_CODES as readonly ApiErrorCode[]).includes(code));
  if (own.length === 0) return { description, schema: InvalidSchema, codes: INVALID_CODES };
  const all = [...INVALID_CODES, ...own] as unknown as Codes;
  return { description, schema: invalidWith(all), codes: all };
};

const invalidWith = (codes: Codes) =>
  errorWith(codes).extend({ errors: z.array(FieldIssueSchema).optional() });

/** The 400 most calls share: field issues, or a body or query the server cannot read. */
const InvalidSchema = invalidWith(INVALID_CODES).meta({ id: "ValidationError" });

export const JSON_BODY_LIMIT_KB = 32;

/** The answers of `jsonBody()`, which reads every JSON request body. */
export const JSON_BODY_ERRORS = {
  413: error(`Body larger than ${JSON_BODY_LIMIT_KB} KB`, ["payload_too_large"]),
  415: error("Body is not application/json (urlencoded forms included)", [
    "unsupported_media_type",
  ]),
} as const;

/** A call that reads no body still refuses a large one (`ignoredBody()`). */
export const IGNORED_BODY_ERRORS = {
  413: error(`A body (which this call does not read) larger than ${JSON_BODY_LIMIT_KB} KB`, [
    "payload_too_large",
  ]),
} as const;

export const CROSS_ORIGIN = "A browser request from another origin";

/** The 403 of `sameOriginOnly`, for a call that has no other 403. */
export const CROSS_ORIGIN_ERROR = error(CROSS_ORIGIN, ["cross_origin"]);

/**
 * The answers of a call that asks for the password again: its tries count on the sign-in's
 * counters of the account, so wrong ones are limited as at sign-in.
 */
export const PASSWORD_AGAIN_LIMITS = {
  429: {
    ...error("Too many wrong passwords for this account (sign-in's counters); try later", [
      "too_many_attempts",
    ]),
    headers: {
      "Retry-After": {
        description: "Seconds until a try counts again",
        schema: z.number().int().min(1),
      },
    },
  },
  503: error("The limiter cannot be reached, so the password is not checked", [
    "limiter_unavailable",
  ]),
} as const;

/** `Cache-Control` as every private answer sends it. */
export const NO_STORE_HEADER = {
  "Cache-Control": {
    description: "`no-store`: a personal answer, never cached",
    schema: z.string(),
  },
} as const;

/** The JSON body type of a status's answer, as the browser receives it. */
export type AnswerOf<
  O extends Operation,
  S extends keyof O["responses"],
> = O["responses"][S] extends { schema: infer T extends z.ZodType } ? z.output<T> : undefined;

/** The statuses an operation documents, as numbers. */
export type StatusOf<O extends Operation> = {
  [K in keyof O["responses"]]: K extends number
    ? K
    : K extends `${infer N extends number}`
      ? N
      : never;
}[keyof O["responses"]];

/** The 2xx statuses of an operation. */
export type SuccessStatusOf<O extends Operation> = Extract<
  StatusOf<O>,
  200 | 201 | 202 | 203 | 204 | 206
>;

/** The input of an operation as a caller writes it (before the schemas' defaults). */
export interface InputOf<O extends Operation> {
  params: InputPart<O["params"]>;
  query: InputPart<O["query"]>;
  body: NonNullable<O["body"]> extends BodySpec<infer B> ? InputPart<B> : undefined;
}

/** A part as a caller writes it; `undefined` for a part the operation does not declare. */
type InputPart<S> = [NonNullable<S>] extends [z.ZodNever]
  ? undefined
  : NonNullable<S> extends z.ZodType
    ? z.input<NonNullable<S>>
    : undefined;

/** Fills `{name}` in an operation's path from `params`, each value URI-encoded. */
export function pathOf(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`path parameter ${name} missing`);
    return encodeURIComponent(String(value as string | number));
  });
}
