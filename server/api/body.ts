import express, { type NextFunction, type Request, type Response } from "express";
import { isStorableText } from "#domain/storable-text.ts";
import { translate } from "#i18n/translate.ts";
import { sendError } from "./errors.ts";

/** The largest request body any API call reads; the longest valid form is far below it. */
export const JSON_BODY_LIMIT = "32kb";
const JSON_BODY_LIMIT_BYTES = 32 * 1024;

/**
 * How deeply a JSON body may nest (the top-level object or array is level 1). The deepest
 * valid body has three levels; anything far deeper is an attack on code that walks it.
 */
export const MAX_JSON_DEPTH = 32;

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

/** What makes a parsed JSON body unfit for any call, whatever its schema, and where. */
export type JsonBodyFault = { fault: "too_deep" } | { fault: "unstorable_text"; path: string };

/**
 * The first fault of a parsed JSON body: nesting deeper than `maxDepth` levels (the top-level
 * object or array is level 1), or a key or string with a NUL character or an unpaired
 * surrogate, which no text column (nor UTF-8) can hold; its path as `a.b.0`. Walks with its
 * own stack, so no input can overflow the call stack, and stops at the first fault.
 */
export function findJsonBodyFault(value: unknown, maxDepth: number): JsonBodyFault | null {
  const pending: [unknown, number, string][] = [[value, 1, ""]];
  while (pending.length > 0) {
    const [item, depth, path] = pending.pop()!;
    if (typeof item === "string") {
      if (!isStorableText(item)) return { fault: "unstorable_text", path };
      continue;
    }
    if (item === null || typeof item !== "object") continue;
    if (depth > maxDepth) return { fault: "too_deep" };
    for (const [key, child] of Object.entries(item)) {
      const childPath = path ? `${path}.${key}` : key;
      if (!isStorableText(key))
        return { fault: "unstorable_text", path: childPath.toWellFormed().replace(/\0/g, "") };
      pending.push([child, depth + 1, childPath]);
    }
  }
  return null;
}

/** False for text with a NUL character or an unpaired surrogate (no text column holds either). */
export { isStorableText };

/** True when `value` nests objects or arrays more than `max` levels deep. */
export function isNestedDeeperThan(value: unknown, max: number): boolean {
  return findJsonBodyFault(value, max)?.fault === "too_deep";
}

/**
 * Turns body-parser's refusals into the API's answers, `{message, code}` in the caller's language:
 * 413 over the limit, 400 for malformed JSON, 415 for encodings and charsets it cannot read.
 * Other 4xx (a body cut short, a wrong length) keep their status in the error handler.
 */
declare global {
  namespace Express {
    interface Request {
      /** The JSON body's bytes as received (set by the JSON body reader). */
      rawBody?: Buffer;
    }
  }
}

function answerParseError(res: Response, next: NextFunction, error: unknown) {
  const type = (error as { type?: string }).type;
  if (type === "entity.too.large")
    return sendError(res, 413, "payload_too_large", "errors.payloadTooLarge", {
      limit: JSON_BODY_LIMIT,
    });
  if (type === "entity.parse.failed")
    return sendError(res, 400, "malformed_json", "errors.malformedJson");
  if (type === "encoding.unsupported" || type === "charset.unsupported")
    return sendError(res, 415, "unsupported_media_type", "errors.unsupportedMediaType");
  next(error);
}

/** Parses a JSON body of at most JSON_BODY_LIMIT and MAX_JSON_DEPTH levels, all storable text. */
function parseJson(): Middleware {
  const parse = express.json({
    limit: JSON_BODY_LIMIT,
    strict: true,
    // The bytes as sent, for a signature over them (a payment provider's notice).
    verify: (req, _res, buf) => {
      (req as Request).rawBody = buf;
    },
  });
  return (req, res, next) => {
    parse(req, res, (error?: unknown) => {
      if (error) return answerParseError(res, next, error);
      const found = findJsonBodyFault(req.body, MAX_JSON_DEPTH);
      if (found?.fault === "too_deep")
        return sendError(res, 400, "json_too_deep", "errors.jsonTooDeep", {
          depth: MAX_JSON_DEPTH,
        });
      if (found?.fault === "unstorable_text") {
        // As a validation error: the form shows the message at the field that holds the text.
        const message = translate(res.locals.language, "errors.unstorableText");
        return res.status(400).json({
          message,
          code: "unstorable_text",
          errors: [{ path: found.path, message }],
        });
      }
      next();
    });
  };
}

/**
 * The body of every JSON call: `application/json` only (anything else, urlencoded forms
 * included, is refused with 415 before a byte is read), at most JSON_BODY_LIMIT and
 * MAX_JSON_DEPTH levels deep, without NUL characters or unpaired surrogates (400).
 */
export function jsonBody(): Middleware[] {
  return [
    (req, res, next) => {
      if (!req.is("application/json"))
        return sendError(res, 415, "unsupported_media_type", "errors.unsupportedMediaType");
      next();
    },
    parseJson(),
  ];
}

/** A JSON body the call may carry but need not: parsed as jsonBody() when it is JSON. */
export function optionalJsonBody(): Middleware {
  const parse = parseJson();
  return (req, res, next) => (req.is("application/json") ? parse(req, res, next) : next());
}

/**
 * For state-changing calls that read no body: whatever is sent is read and dropped as it
 * comes (never decoded or kept), and refused with 413 past JSON_BODY_LIMIT, so no call takes
 * an unbounded upload.
 */
export function ignoredBody(): Middleware {
  return (req, res, next) => {
    let settled = false;
    const settle = (answer: () => void) => {
      if (settled) return;
      settled = true;
      answer();
    };
    const tooLarge = () =>
      settle(() =>
        sendError(res, 413, "payload_too_large", "errors.payloadTooLarge", {
          limit: JSON_BODY_LIMIT,
        }),
      );
    if (Number(req.headers["content-length"]) > JSON_BODY_LIMIT_BYTES) return tooLarge();
    let received = 0;
    req.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > JSON_BODY_LIMIT_BYTES) tooLarge();
    });
    req.on("end", () => settle(next));
    req.on("error", (error) => settle(() => next(error)));
    req.resume();
  };
}
