import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { withTransaction } from "../../db/client.ts";
import { ownerCodes, propertyClaims } from "../../db/schema/index.ts";
import type { Language } from "../../i18n/config.ts";
import { createSession, type SessionPolicy } from "../auth/sessions.ts";
import type { Deps } from "../deps.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { consumeRateLimits, type RateLimitStore } from "../rate-limit/rate-limiter.ts";
import { findEstatesByOwnerEmail, normaliseEmail } from "./estates.ts";
import { OWNER_CODE_MINUTES, OWNER_CODE_POLICY } from "./owner-code.ts";
import { renderOwnerCode } from "./owner-mail.ts";

/** How a code lives (one use; its length, lifetime and tries: `owner-code.ts`, browser-safe). */
export { OWNER_CODE_POLICY };

export interface OwnerCodeLimits {
  store: RateLimitStore;
  /** Codes per email and window (no mail bombing of one address). */
  perEmail: number;
  /** Code requests per client IP and window (no sweeping of many addresses). */
  perIp: number;
  windowMs: number;
}

export const DEFAULT_OWNER_CODE_LIMITS = { perEmail: 5, perIp: 20, windowMs: 60 * 60_000 };

function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export type CodeRequestResult =
  | { outcome: "sent"; expiresAt: Date; code: string }
  | { outcome: "not_found" }
  | { outcome: "rate_limited"; retryAfterSeconds: number }
  /** The limiter could not be reached: no code is sent unmetered. */
  | { outcome: "unavailable" };

/**
 * Step 1 of the owner flow. Counts the request against the email and the IP first; then, if
 * an estate has this contact email, replaces any earlier code with a new 6-digit one and puts
 * the mail in the outbox (in `language`) in the same transaction. The code is returned for
 * the caller's development log only; it is stored hashed.
 */
export async function requestOwnerCode(
  deps: Pick<Deps, "db" | "log">,
  limits: OwnerCodeLimits,
  input: { email: string; ip?: string; language: Language },
): Promise<CodeRequestResult> {
  const email = normaliseEmail(input.email);
  let retryAfterSeconds: number;
  try {
    retryAfterSeconds = await consumeRateLimits(limits.store, [
      { name: "owner-code-email", max: limits.perEmail, windowMs: limits.windowMs, key: email },
      {
        name: "owner-code-ip",
        max: limits.perIp,
        windowMs: limits.windowMs,
        key: input.ip ?? "unknown",
      },
    ]);
  } catch (error) {
    deps.log.error({ err: error }, "owner code limiter unavailable; code refused");
    return { outcome: "unavailable" };
  }
  if (retryAfterSeconds > 0) {
    deps.log.warn({ ip: input.ip }, "owner code rate limit reached");
    return { outcome: "rate_limited", retryAfterSeconds };
  }
  const estates = await findEstatesByOwnerEmail(deps, { email, language: input.language });
  if (estates.length === 0) return { outcome: "not_found" };

  const { length } = OWNER_CODE_POLICY;
  const code = String(randomInt(0, 10 ** length)).padStart(length, "0");
  const expiresAt = new Date(Date.now() + OWNER_CODE_POLICY.ttlMs);
  await withTransaction(deps.db, async (tx) => {
    await tx.delete(ownerCodes).where(eq(ownerCodes.email, email));
    await tx.insert(ownerCodes).values({
      id: randomUUID(),
      email,
      codeHash: sha256(`${email}:${code}`),
      expiresAt,
      ip: input.ip?.slice(0, 64) ?? null,
      language: input.language,
    });
    const mail = renderOwnerCode(input.language, code, OWNER_CODE_MINUTES);
    await enqueueMail(tx, [{ ...mail, template: "owner-code", recipient: email }]);
  });
  deps.log.info({ estates: estates.length }, "owner code sent");
  return { outcome: "sent", expiresAt, code };
}

export type CodeCheckResult =
  | {
      outcome: "proven";
      /** For the claim step's cookie; only its hash is stored. */
      proofToken: string;
      estates: { id: number; name: string; location: string }[];
    }
  | { outcome: "wrong"; attemptsLeft: number }
  /** No live code: never sent, expired, used, or out of tries. */
  | { outcome: "expired" };

/**
 * Step 2: checks a code under a row lock (so parallel guesses cannot exceed the 5 tries).
 * A wrong code uses a try; the fifth wrong one ends the code.
 */
export async function checkOwnerCode(
  deps: Pick<Deps, "db" | "log">,
  input: { email: string; code: string; language: Language },
): Promise<CodeCheckResult> {
  const email = normaliseEmail(input.email);
  const result = await withTransaction(deps.db, async (tx): Promise<CodeCheckResult> => {
    const [row] = await tx
      .select()
      .from(ownerCodes)
      .where(
        and(
          eq(ownerCodes.email, email),
          isNull(ownerCodes.provenAt),
          gt(ownerCodes.expiresAt, sql`now()`),
        ),
      )
      .orderBy(desc(ownerCodes.createdAt))
      .limit(1)
      .for("update");
    if (!row || row.attempts >= OWNER_CODE_POLICY.maxAttempts) return { outcome: "expired" };
    const expected = Buffer.from(row.codeHash, "hex");
    const given = Buffer.from(sha256(`${email}:${input.code.trim()}`), "hex");
    if (!timingSafeEqual(expected, given)) {
      const attempts = row.attempts + 1;
      await tx.update(ownerCodes).set({ attempts }).where(eq(ownerCodes.id, row.id));
      const attemptsLeft = OWNER_CODE_POLICY.maxAttempts - attempts;
      return attemptsLeft > 0 ? { outcome: "wrong", attemptsLeft } : { outcome: "expired" };
    }
    const proofToken = randomBytes(16).toString("base64url");
    await tx
      .update(ownerCodes)
      .set({
        provenAt: sql`now()`,
        proofHash: sha256(proofToken),
        proofExpiresAt: new Date(Date.now() + OWNER_CODE_POLICY.proofTtlMs),
      })
      .where(eq(ownerCodes.id, row.id));
    return { outcome: "proven", proofToken, estates: [] };
  });
  if (result.outcome !== "proven") {
    deps.log.info({ outcome: result.outcome }, "owner code refused");
    return result;
  }
  const estates = await findEstatesByOwnerEmail(deps, { email, language: input.language });
  return { ...result, estates };
}

export type ClaimResult =
  | {
      outcome: "claimed";
      propertyId: number;
      estate: { id: number; name: string; location: string };
      session: { token: string; expiresAt: Date };
    }
  /** No proven code for this email behind the token (or it ran out), or not their estate. */
  | { outcome: "refused" };

/**
 * Step 3: with the proof of step 2, claims one of the email's estates: the claim is recorded
 * (email, time, IP) and an owner session opens. The proof is spent. An email with several
 * estates names the one it claims (`propertyId`); with one estate it may leave it out.
 */
export async function claimOwnerEstate(
  deps: Pick<Deps, "db" | "log">,
  input: {
    email: string;
    proofToken: string | undefined;
    propertyId?: number;
    ip?: string;
    userAgent?: string;
    language: Language;
  },
  policy?: SessionPolicy,
): Promise<ClaimResult> {
  const email = normaliseEmail(input.email);
  if (!input.proofToken || !/^[A-Za-z0-9_-]{22}$/.test(input.proofToken))
    return { outcome: "refused" };
  const proofHash = sha256(input.proofToken);
  const estates = await findEstatesByOwnerEmail(deps, { email, language: input.language });
  const estate =
    input.propertyId === undefined
      ? estates.length === 1
        ? estates[0]
        : undefined
      : estates.find((candidate) => candidate.id === input.propertyId);
  if (!estate) return { outcome: "refused" };
  const claimed = await withTransaction(deps.db, async (tx) => {
    const spent = await tx
      .update(ownerCodes)
      .set({ claimedAt: sql`now()` })
      .where(
        and(
          eq(ownerCodes.email, email),
          eq(ownerCodes.proofHash, proofHash),
          isNull(ownerCodes.claimedAt),
          gt(ownerCodes.proofExpiresAt, sql`now()`),
        ),
      )
      .returning({ id: ownerCodes.id });
    if (spent.length === 0) return false;
    await tx.insert(propertyClaims).values({
      propertyId: estate.id,
      email,
      ip: input.ip?.slice(0, 64) ?? null,
      userAgent: input.userAgent?.slice(0, 300) ?? null,
    });
    return true;
  });
  if (!claimed) return { outcome: "refused" };
  const session = await createSession(
    deps,
    { role: "owner", ownerEmail: email },
    { ip: input.ip, userAgent: input.userAgent },
    policy,
  );
  deps.log.info({ propertyId: estate.id }, "estate claimed");
  return { outcome: "claimed", propertyId: estate.id, estate, session };
}
