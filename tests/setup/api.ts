import { isDeepStrictEqual } from "node:util";
import { expect } from "vitest";
import { type ApiAnswer, readAnswer } from "#app/api-client.ts";
import type { AnswerOf, Operation, StatusOf } from "#domain/api/operation.ts";

/** A response's body as JSON, typed `unknown` until a schema reads it. */
export async function readJson(response: Response): Promise<unknown> {
  return (await response.json()) as unknown;
}

/** An answer as the browser's `callApi` reads it: its body read with the schema of its status. */
export async function answerOf<O extends Operation>(
  operation: O,
  response: Response,
): Promise<ApiAnswer<O>> {
  return readAnswer(operation, response.status, await readJson(response));
}

/** An answer already read: a `fetch` Response, or `staffCall`'s `{status, body, text}`. */
export type AnswerLike = Response | ReadAnswer;

/** An answer whose body was read (as JSON when it is JSON): `staffCall`'s `{status, body, text}`. */
export interface ReadAnswer {
  status: number;
  body: unknown;
  text?: string;
}

/**
 * The body of an answer that must have `status`, read with the schema the operation documents
 * for it. Fails the test with the status and body when the status differs, the body breaks the
 * schema, or the schema would drop part of it (a field it does not name), so the typed data
 * is exactly what the server sent.
 */
export async function expectAnswer<O extends Operation, S extends StatusOf<O>>(
  operation: O,
  answer: AnswerLike,
  status: S,
): Promise<AnswerOf<O, S>> {
  return dataOf(operation, answer instanceof Response ? await bodyOf(answer) : answer, status);
}

/** `expectAnswer` for an answer whose body was already read (`staffCall`). */
export function dataOf<O extends Operation, S extends StatusOf<O>>(
  operation: O,
  answer: ReadAnswer,
  status: S,
): AnswerOf<O, S> {
  const text = answer.text ?? JSON.stringify(answer.body);
  const where = `${operation.id} ${answer.status}: ${text.slice(0, 2000)}`;
  expect(answer.status, where).toBe(status);
  const spec = operation.responses[status];
  if (!spec) throw new Error(`${operation.id} does not document ${status}`);
  if (!spec.schema) return undefined as AnswerOf<O, S>;
  const parsed = spec.schema.safeParse(answer.body);
  if (!parsed.success) throw new Error(`${where}\n${parsed.error.message}`);
  if (!isDeepStrictEqual(parsed.data, answer.body))
    throw new Error(`${where}\nthe body carries what its schema does not name`);
  return parsed.data as AnswerOf<O, S>;
}

async function bodyOf(response: Response): Promise<ReadAnswer> {
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown, text };
  } catch {
    return { status: response.status, body: undefined, text };
  }
}
