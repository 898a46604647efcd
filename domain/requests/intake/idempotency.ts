import { createHash } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { idempotencyKeys } from "#db/schema/index.ts";
import type { Deps } from "#domain/deps.ts";
import { IdempotencyConflictError } from "#domain/errors.ts";
import type { RequestKind } from "../options.ts";
import { canonicalJson } from "./canonical-json.ts";

/** Idempotency-Keys are kept (and honoured) this long. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** The answer the API gives, also what a retry with the same Idempotency-Key gets again. */
export interface StoredRequestAnswer {
  id: string;
  reference: string;
  status: "New";
  createdAt: string;
}

/** SHA-256 of the body with its keys sorted: the same form gives the same hash. */
export function hashRequestBody(body: unknown): string {
  return createHash("sha256").update(canonicalJson(body)).digest("hex");
}

/**
 * The answer stored for `key` in `scope`, or null when the key is unknown or past its 24
 * hours (then forgotten). The same key with another body is an IdempotencyConflictError.
 */
export async function findStoredAnswer(
  db: Database,
  scope: RequestKind,
  key: string,
  bodyHash: string,
): Promise<StoredRequestAnswer | null> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
  if (!row) return null;
  if (row.expiresAt.getTime() <= Date.now()) {
    await db
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    return null;
  }
  if (row.bodyHash !== bodyHash) throw new IdempotencyConflictError();
  return row.responseBody as unknown as StoredRequestAnswer;
}

/**
 * Claims `key` with the answer it will replay, inside the caller's transaction. False when
 * another request holds the key: a concurrent twin waits on the row until the first commits.
 */
export async function claimIdempotencyKey(
  db: Database,
  claim: {
    scope: RequestKind;
    key: string;
    bodyHash: string;
    answer: StoredRequestAnswer;
    createdAt: Date;
  },
): Promise<boolean> {
  const claimed = await db
    .insert(idempotencyKeys)
    .values({
      scope: claim.scope,
      key: claim.key,
      bodyHash: claim.bodyHash,
      responseStatus: 201,
      responseBody: claim.answer as unknown as Record<string, unknown>,
      createdAt: claim.createdAt,
      expiresAt: new Date(claim.createdAt.getTime() + IDEMPOTENCY_TTL_MS),
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return claimed.length > 0;
}

/** Forgets Idempotency-Keys past their 24 hours (run by the housekeeping timer). */
export async function purgeExpiredIdempotencyKeys(deps: Pick<Deps, "db">): Promise<void> {
  await deps.db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, sql`now()`));
}
