import pino, { type DestinationStream, type Logger } from "pino";
import type { Env } from "./env.ts";

/**
 * What an error keeps in the log besides its type, message, stack and causes: where and how it
 * failed, never a value. A database driver's error (pg, PGlite) also carries `detail` ("Key
 * (email)=(…) already exists", "Failing row contains (…)"), `where`, `hint`, `internalQuery`,
 * and the query and its parameters (`query`, `params`); a mail relay's error carries the
 * envelope and the refused addresses. None of those is kept, from any library.
 */
const KEPT_ERROR_FIELDS = [
  // Node's system and network errors.
  "code",
  "errno",
  "syscall",
  "address",
  "port",
  // PostgreSQL's answer, from pg or PGlite: its SQLSTATE is `code`.
  "severity",
  "schema",
  "table",
  "column",
  "dataType",
  "constraint",
  "routine",
  // The mail relay's answer (nodemailer) and the outbox's reading of it.
  "kind",
  "responseCode",
  "command",
  "response",
  // HTTP clients.
  "status",
  "statusCode",
] as const;

/** An email address, any case, so a message quoting one is logged with `[email]` instead. */
const EMAIL_ADDRESS =
  /[\p{L}\p{N}._%+'!#$&*=?^`{|}~-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;

/** Drizzle's message for a failed query: the SQL, then a line with every parameter's value. */
const FAILED_QUERY = /^(Failed query: [\s\S]*?)\nparams: [\s\S]*$/;

/** A string literal in SQL text. */
const SQL_STRING = /'(?:[^']|'')*'/g;

/** A PostgreSQL data exception (SQLSTATE class 22): its message quotes the value refused. */
const DATA_EXCEPTION = /^22[0-9A-Z]{3}$/;

/** Text that may quote an address, with each one replaced by `[email]`. */
function withoutEmailAddresses(text: string): string {
  return text.replace(EMAIL_ADDRESS, "[email]");
}

/**
 * An error's message as it may be logged: a failed query's SQL without its parameters and
 * literals, a refused value (a data exception's quoted input) as `[value]`, no email address.
 */
function loggableMessage(message: string, code: unknown): string {
  let text = message.replace(FAILED_QUERY, (_all, query: string) =>
    query.replace(SQL_STRING, "'[value]'"),
  );
  if (typeof code === "string" && DATA_EXCEPTION.test(code))
    text = text.replace(/"(?:[^"]|"")*"/g, '"[value]"');
  return withoutEmailAddresses(text);
}

interface ErrorLike {
  message: string;
  stack?: unknown;
  cause?: unknown;
  errors?: unknown;
  [field: string]: unknown;
}

const isErrorLike = (value: unknown): value is ErrorLike =>
  typeof value === "object" && value !== null && typeof (value as ErrorLike).message === "string";

/**
 * The `err` of a log line: its type, message and stack (the message rewritten as
 * `loggableMessage` says, the stack's frames kept), the fields of KEPT_ERROR_FIELDS that hold a
 * plain value, and its cause and aggregated errors the same way. An error given as text (the
 * outbox logs a relay's answer so) loses its addresses. No value a guest typed (a name, an
 * address, a phone number, a message) reaches the log through an error.
 */
export function loggableError(error: unknown, seen = new Set<object>()): unknown {
  if (typeof error === "string") return loggableMessage(error, undefined);
  if (!isErrorLike(error)) return error;
  if (seen.has(error)) return { message: "(circular cause)" };
  seen.add(error);
  const type =
    typeof error.constructor === "function" && error.constructor.name
      ? error.constructor.name
      : String(error.name ?? "Error");
  const message = loggableMessage(error.message, error.code);
  const logged: Record<string, unknown> = { type, message };
  if (typeof error.stack === "string") {
    // The stack opens with the message (the whole of it, on as many lines as it has): only
    // the frames after it are kept.
    const frames = error.stack.indexOf("\n    at ");
    logged.stack = `${type}: ${message}${frames === -1 ? "" : error.stack.slice(frames)}`;
  }
  for (const field of KEPT_ERROR_FIELDS) {
    const value = error[field];
    if (typeof value === "string") logged[field] = withoutEmailAddresses(value);
    else if (typeof value === "number" || typeof value === "boolean") logged[field] = value;
  }
  if (isErrorLike(error.cause)) logged.cause = loggableError(error.cause, seen);
  if (Array.isArray(error.errors))
    logged.aggregateErrors = error.errors.map((inner) => loggableError(inner, seen));
  return logged;
}

/**
 * The server's logger: JSON lines on standard output (or `destination`), each error through
 * `loggableError` (docs/privacy.md, "Application logs").
 */
export function createLogger(env: Pick<Env, "LOG_LEVEL">, destination?: DestinationStream): Logger {
  return pino(
    { level: env.LOG_LEVEL, base: undefined, serializers: { err: loggableError } },
    destination,
  );
}
