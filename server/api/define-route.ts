import { isDeepStrictEqual } from "node:util";
import type { NextFunction, Request, RequestHandler, Response, Router } from "express";
import type { z } from "zod";
import type { ApiErrorCode } from "#domain/api/error-codes.ts";
import type { BodySpec, Operation, StatusOf } from "#domain/api/operation.ts";
import { ValidationError } from "#domain/errors.ts";
import { fieldIssues } from "#domain/requests/fields.ts";
import { signInStageGate } from "../middleware/sign-in-stage.ts";
import { ignoredBody, jsonBody, optionalJsonBody } from "./body.ts";
import { answersAreChecked, sendError } from "./errors.ts";

declare global {
  namespace Express {
    interface Locals {
      /** The documented operation this request reached (set by `defineRoute`). */
      operation?: Operation;
    }
  }
}

/** A value as the handler may hand it over: JSON turns a `Date` into the ISO string. */
type Wire<T> = T extends string
  ? T | Date
  : T extends readonly (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

/** A part's parsed value; `undefined` for a part the operation does not declare. */
type ParsedOf<S> = [NonNullable<S>] extends [z.ZodNever]
  ? undefined
  : NonNullable<S> extends z.ZodType
    ? z.output<NonNullable<S>>
    : undefined;

/** What the handler reads: path parameters, query and body, each parsed by its schema. */
export interface RouteInput<O extends Operation> {
  params: ParsedOf<O["params"]>;
  query: ParsedOf<O["query"]>;
  body: NonNullable<O["body"]> extends BodySpec<infer B> ? ParsedOf<B> : undefined;
  req: Request;
  res: Response;
}

/** A documented answer: the status and, where the status has a schema, its body. */
export type Answer<O extends Operation> = {
  [S in StatusOf<O>]: O["responses"][S] extends { schema: infer T extends z.ZodType }
    ? { status: S; body: Wire<z.input<T>> }
    : { status: S; body?: undefined };
}[StatusOf<O>];

/**
 * A refusal `{message, code}`: the message in the caller's language, the code one the
 * operation documents for the status.
 */
export interface Refusal<S extends number = number> {
  status: S;
  code: ApiErrorCode;
  messageKey: string;
  params?: Record<string, string | number>;
}

/** The handler wrote the answer itself (a stream): nothing more to send. */
export const STREAMED = Symbol("streamed");

export function refuse<const S extends number>(
  status: S,
  code: ApiErrorCode,
  messageKey: string,
  params?: Record<string, string | number>,
): Refusal<S> {
  return { status, code, messageKey, params };
}

export interface RouteDefinition<O extends Operation> {
  /** Middleware before the body is read: origin checks, rate limits, guards. */
  before?: RequestHandler[];
  /** Middleware after the body is read (a guard that reads the body, such as `estateAccess`). */
  after?: RequestHandler[];
  /**
   * The domain reads the body itself, in an order the schema cannot express (intake: a known
   * Idempotency-Key answers before validation). The handler then gets the body unparsed.
   */
  rawBody?: boolean;
  /** How a part that breaks its schema is refused; by default a 400 naming each field. */
  onInvalid?: (part: "params" | "query" | "body", error: z.ZodError) => Refusal<StatusOf<O>>;
  handle: (input: RouteInput<O>) => Promise<Answer<O> | Refusal<StatusOf<O>> | typeof STREAMED>;
}

/** Thrown (as a 500) when a route's answer breaks its own contract; only while tests run. */
export class ContractViolation extends Error {
  constructor(operation: Operation, detail: string) {
    super(`${operation.id} (${operation.method.toUpperCase()} ${operation.path}): ${detail}`);
    this.name = "ContractViolation";
  }
}

/** Express's `:name` path of an OpenAPI path `{name}`. */
export const expressPathOf = (path: string) =>
  path.replace(/^\/api/, "").replace(/\{(\w+)\}/g, ":$1");

/**
 * Serves one documented operation on `router` (mounted at /api): refuses a sign-in short of
 * its second factor unless the operation carries it on, reads the body as the operation declares it, parses params, query and body with its schemas, runs the handler and
 * sends its answer. Domain errors thrown by the handler reach `apiErrorHandler`.
 */
export function defineRoute<O extends Operation>(
  router: Router,
  operation: O,
  definition: NoInfer<RouteDefinition<O>>,
): void {
  const bodyReader =
    operation.body?.contentType === "multipart/form-data"
      ? []
      : operation.body?.required === false
        ? [optionalJsonBody()]
        : operation.body
          ? jsonBody()
          : operation.method === "get"
            ? []
            : [ignoredBody()];
  const mark: RequestHandler = (_req, res, next) => {
    res.locals.operation = operation;
    next();
  };
  const serve = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const parse = (
        part: "params" | "query" | "body",
        schema: z.ZodType | undefined,
        value: unknown,
      ) => {
        if (!schema) return { ok: true as const, data: undefined };
        const parsed = schema.safeParse(value);
        if (parsed.success) return { ok: true as const, data: parsed.data };
        if (definition.onInvalid)
          return { ok: false as const, refusal: definition.onInvalid(part, parsed.error) };
        throw new ValidationError(fieldIssues(parsed.error));
      };
      const params = parse("params", operation.params, req.params);
      if (!params.ok) return sendRefusal(res, params.refusal);
      const query = parse("query", operation.query, req.query);
      if (!query.ok) return sendRefusal(res, query.refusal);
      const body =
        definition.rawBody || operation.body?.contentType === "multipart/form-data"
          ? { ok: true as const, data: req.body as unknown }
          : operation.body?.required === false && req.body === undefined
            ? { ok: true as const, data: undefined }
            : parse("body", operation.body?.schema, req.body);
      if (!body.ok) return sendRefusal(res, body.refusal);
      const answer = await definition.handle({
        params: params.data,
        query: query.data,
        body: body.data,
        req,
        res,
      } as RouteInput<O>);
      if (answer === STREAMED) return;
      if ("messageKey" in answer) return sendRefusal(res, answer);
      sendAnswer(operation, res, answer as { status: number; body?: unknown });
    } catch (error) {
      next(error);
    }
  };
  // The stage gate comes first, before any route's own guards: deny by default.
  const handlers = [
    mark,
    signInStageGate,
    ...(definition.before ?? []),
    ...bodyReader,
    ...(definition.after ?? []),
    serve,
  ];
  router[operation.method](expressPathOf(operation.path), ...handlers);
}

function sendRefusal(res: Response, refusal: Refusal) {
  sendError(res, refusal.status, refusal.code, refusal.messageKey, refusal.params);
}

function sendAnswer(
  operation: Operation,
  res: Response,
  answer: { status: number; body?: unknown },
) {
  const spec = operation.responses[answer.status];
  if (answersAreChecked()) {
    if (!spec) throw new ContractViolation(operation, `status ${answer.status} is not documented`);
    if (spec.schema) {
      const wire: unknown =
        answer.body === undefined ? undefined : JSON.parse(JSON.stringify(answer.body));
      const parsed = spec.schema.safeParse(wire);
      if (!parsed.success)
        throw new ContractViolation(
          operation,
          `the ${answer.status} answer breaks its schema: ${parsed.error.issues
            .slice(0, 5)
            .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
            .join("; ")}`,
        );
      if (!isDeepStrictEqual(parsed.data, wire))
        throw new ContractViolation(
          operation,
          `the ${answer.status} answer carries fields its schema does not name`,
        );
    }
  }
  if (spec && !spec.schema) return void res.status(answer.status).end();
  res.status(answer.status).json(answer.body);
}
