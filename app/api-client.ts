import {
  type AnswerOf,
  FieldIssueSchema,
  type InputOf,
  type Operation,
  pathOf,
  type StatusOf,
  type SuccessStatusOf,
} from "#domain/api/operation.ts";
import { z } from "zod";

export type FieldError = z.output<typeof FieldIssueSchema>;

/** What every answer carries besides its body: the server's `{message}` and field issues. */
interface AnswerCommon {
  /** The server's `{message}`, already in the page's language, if it sent one. */
  message: string | null;
  /** The field issues of a 400 (`errors[]`), if any. */
  errors: FieldError[];
  /** The refusal's stable `code` (domain/api/error-codes.ts), to branch on; null if none came. */
  code: string | null;
}

/**
 * What a page reads of any refusal, documented or not: a proxy's 502 or an older server may
 * send a message without a code, and the message is still worth showing.
 */
const RefusalSchema = z.object({
  message: z.string().min(1),
  code: z.string().min(1).optional(),
  errors: z.array(FieldIssueSchema).optional(),
});

/** A documented answer: its status, whether it is a success, and its body as the schema reads it. */
type DocumentedAnswer<O extends Operation> = {
  [S in StatusOf<O>]: AnswerCommon & {
    status: S;
    ok: S extends SuccessStatusOf<O> ? true : false;
    data: AnswerOf<O, S>;
  };
}[StatusOf<O>];

/**
 * An answer the operation does not document, or one that breaks its schema (a proxy's error
 * page, a server older than this page), or no answer at all (status 0: the network failed).
 */
interface UnexpectedAnswer extends AnswerCommon {
  status: number;
  ok: false;
  data: undefined;
}

export type ApiAnswer<O extends Operation> = DocumentedAnswer<O> | UnexpectedAnswer;

/** The parts of the input the operation declares; parts it does not declare are left out. */
export type CallInput<O extends Operation> = {
  [K in keyof InputOf<O> as InputOf<O>[K] extends undefined ? never : K]: InputOf<O>[K];
};

export interface CallOptions {
  /** The page's language: the server answers its messages in it. */
  language?: string;
  signal?: AbortSignal;
}

/** `query` as a search string: arrays repeat their key; undefined, null and "" are left out. */
function searchOf(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (item === undefined || item === null || item === "") continue;
      search.append(key, String(item as string | number | boolean));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

function commonOf(body: unknown): AnswerCommon {
  const refusal = RefusalSchema.safeParse(body);
  if (!refusal.success) return { message: null, errors: [], code: null };
  const { message, errors, code } = refusal.data;
  return { message, errors: errors ?? [], code: code ?? null };
}

/**
 * Calls one /api operation from the browser (same origin, session cookie, JSON in and out),
 * from the same object the server serves it with: the path is filled from `params`, the query
 * from `query`, and the answer's body is read with the schema of its status, so `data` has
 * the type the contract gives it. Network failures answer status 0 instead of throwing (an
 * abort still throws), so every caller handles one shape.
 */
export async function callApi<O extends Operation>(
  operation: O,
  input: NoInfer<CallInput<O>>,
  options: CallOptions = {},
): Promise<ApiAnswer<O>> {
  const parts = input as Partial<Record<"params" | "query" | "body", unknown>>;
  const url =
    pathOf(operation.path, parts.params as Record<string, unknown> | undefined) +
    searchOf(parts.query as Record<string, unknown> | undefined);
  let response: Response;
  try {
    response = await fetch(url, {
      method: operation.method.toUpperCase(),
      credentials: "same-origin",
      signal: options.signal,
      headers: {
        Accept: "application/json",
        ...(options.language ? { "Accept-Language": options.language } : {}),
        ...(parts.body !== undefined ? { "Content-Type": "application/json" } : {}),
      },
      body: parts.body !== undefined ? JSON.stringify(parts.body) : undefined,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    return { status: 0, ok: false, data: undefined, message: null, errors: [], code: null };
  }
  const body: unknown = await response.json().catch(() => undefined);
  return readAnswer(operation, response.status, body);
}

/** Reads an answer's body with the schema its operation documents for the status. */
export function readAnswer<O extends Operation>(
  operation: O,
  status: number,
  body: unknown,
): ApiAnswer<O> {
  const unexpected: UnexpectedAnswer = { status, ok: false, data: undefined, ...commonOf(body) };
  const spec = operation.responses[status];
  if (!spec) return unexpected;
  const ok = status >= 200 && status < 300;
  if (!spec.schema) return answerOf<O>({ status, ok, data: undefined, message: null, errors: [] });
  const parsed = spec.schema.safeParse(body);
  if (!parsed.success) return unexpected;
  return answerOf<O>({ status, ok, data: parsed.data, ...commonOf(parsed.data) });
}

/**
 * The one place an answer meets its static type: `data` was just read with the schema the
 * operation documents for `status`, which is what `DocumentedAnswer` says, but TypeScript
 * cannot follow a status read at run time to the schema chosen by it.
 */
function answerOf<O extends Operation>(answer: {
  status: number;
  ok: boolean;
  data: unknown;
  message: string | null;
  errors: FieldError[];
}): ApiAnswer<O> {
  return answer as ApiAnswer<O>;
}
