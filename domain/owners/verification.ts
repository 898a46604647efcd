import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { withTransaction } from "#db/client.ts";
import { ownerCodeFailures, ownerCodes, properties, propertyClaims } from "#db/schema/index.ts";
import type { Language } from "#i18n/config.ts";
import { createSession, type SessionPolicy } from "../auth/sessions.ts";
import type { Deps } from "../deps.ts";
import { nowOf } from "../clock.ts";
import { enqueueMail } from "../mail/mail-outbox.ts";
import { consumeRateLimits, type RateLimitStore } from "../rate-limit/rate-limiter.ts";
import { recordSecurityEvent, type SecurityClient } from "../security/security-log.ts";
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
  input: { email: string; ip?: string; userAgent?: string; language: Language },
): Promise<CodeRequestResult> {
  const email = normaliseEmail(input.email);
  const client: SecurityClient = { ip: input.ip, userAgent: input.userAgent };
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
  if (estates.length === 0) {
    await recordSecurityEvent(deps.db, {
      type: "owner.code_requested",
      actor: { kind: "anonymous", email: input.email },
      client,
      data: { estateIds: [], sent: false },
    });
    return { outcome: "not_found" };
  }

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
    // Asking for a code uses no guess: the failures of earlier codes stay counted (decision 0021).
    await recordSecurityEvent(tx, {
      type: "owner.code_requested",
      actor: { kind: "anonymous", email: input.email },
      client,
      data: { estateIds: estates.map((estate) => estate.id), sent: true },
    });
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
  | { outcome: "expired" }
  /**
   * The email reached its daily cap of wrong codes: the same answer whatever was typed, until
   * a new code (mailed after the latest wrong guess) is entered right on its one try.
   */
  | { outcome: "locked" };

type Guess =
  | { kind: "proven"; proofToken: string }
  | { kind: "wrong"; attemptsLeft: number; failures: number }
  | { kind: "expired" }
  | { kind: "locked"; checked: boolean; lockedNow: boolean; failures: number };

/**
 * Step 2: checks a code. Guesses for one email are serialised by a transaction-scoped advisory
 * lock, so parallel guesses can exceed neither a code's tries nor the email's daily cap.
 *
 * Every wrong code is a row in `owner_code_failures`; the cap (`maxFailuresPerWindow` within
 * `failureWindowMs`, across codes) survives a new code, and asking for codes adds nothing to
 * it. At the cap the email is locked: a code mailed before its latest wrong guess answers
 * `locked` whatever is typed (nothing is checked, nothing counted); a code mailed after it gets
 * one try, so the owner who reads the new mail gets in while a stranger gains one guess per
 * code he has mailed to the owner (decision 0021 has the odds).
 */
export async function checkOwnerCode(
  deps: Pick<Deps, "db" | "log">,
  input: { email: string; code: string; language: Language; ip?: string; userAgent?: string },
): Promise<CodeCheckResult> {
  const email = normaliseEmail(input.email);
  const client: SecurityClient = { ip: input.ip, userAgent: input.userAgent };
  const { maxAttempts, maxFailuresPerWindow, failureWindowMs } = OWNER_CODE_POLICY;
  const guess = await withTransaction(deps.db, async (tx): Promise<Guess> => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`owner-code:${email}`}))`);
    const [tally] = await tx
      .select({
        failures: sql<number>`count(*)::int`,
        latest: sql<string | null>`max(${ownerCodeFailures.at})`,
      })
      .from(ownerCodeFailures)
      .where(
        and(
          eq(ownerCodeFailures.email, email),
          gt(ownerCodeFailures.at, sql`now() - make_interval(secs => ${failureWindowMs / 1000})`),
        ),
      );
    const failures = tally?.failures ?? 0;
    const isLocked = failures >= maxFailuresPerWindow;
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
    // Locked: only a code mailed after the latest wrong guess, never tried, is checked.
    const isFresh =
      row !== undefined &&
      row.attempts === 0 &&
      tally?.latest != null &&
      row.createdAt.getTime() > new Date(tally.latest).getTime();
    if (isLocked && !isFresh) return { kind: "locked", checked: false, lockedNow: false, failures };
    if (!row || row.attempts >= maxAttempts) return { kind: "expired" };
    const expected = Buffer.from(row.codeHash, "hex");
    const given = Buffer.from(sha256(`${email}:${input.code.trim()}`), "hex");
    if (!timingSafeEqual(expected, given)) {
      // A wrong try on a locked email's fresh code spends the code: it had one try.
      const attempts = isLocked ? maxAttempts : row.attempts + 1;
      await tx.update(ownerCodes).set({ attempts }).where(eq(ownerCodes.id, row.id));
      await tx.insert(ownerCodeFailures).values({ email, ip: input.ip?.slice(0, 64) ?? null });
      const total = failures + 1;
      if (total >= maxFailuresPerWindow)
        return { kind: "locked", checked: true, lockedNow: !isLocked, failures: total };
      // 0 when this try was the code's last: the code has ended.
      const attemptsLeft = Math.min(maxAttempts - attempts, maxFailuresPerWindow - total);
      return { kind: "wrong", attemptsLeft, failures: total };
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
    return { kind: "proven", proofToken };
  });
  const actor = { kind: "anonymous" as const, email: input.email };
  if (guess.kind !== "proven") {
    const reason =
      guess.kind === "locked"
        ? guess.checked
          ? "wrong_code"
          : "locked"
        : guess.kind === "wrong"
          ? "wrong_code"
          : "expired";
    await recordSecurityEvent(deps.db, {
      type: "owner.code_failed",
      actor,
      client,
      data: { reason },
    });
    if (guess.kind === "locked" && guess.lockedNow)
      await recordSecurityEvent(deps.db, {
        type: "lockout",
        actor,
        client,
        data: {
          scope: "owner_email",
          failures: guess.failures,
          windowHours: failureWindowMs / 3_600_000,
        },
      });
    deps.log.info({ outcome: guess.kind }, "owner code refused");
    if (guess.kind === "locked") return { outcome: "locked" };
    // A wrong guess that spent the code's last try ends it: the answer is that of a dead code.
    if (guess.kind === "wrong" && guess.attemptsLeft > 0)
      return { outcome: "wrong", attemptsLeft: guess.attemptsLeft };
    return { outcome: "expired" };
  }
  const estates = await findEstatesByOwnerEmail(deps, { email, language: input.language });
  return { outcome: "proven", proofToken: guess.proofToken, estates };
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
    // The estate's row is locked and its email checked again: a claim recorded after a
    // concurrent change of the owner email would outlive the trigger that ends claims.
    const [current] = await tx
      .select({ ownerEmail: properties.ownerEmail })
      .from(properties)
      .where(eq(properties.id, estate.id))
      .for("update");
    if (!current || normaliseEmail(current.ownerEmail) !== email) return false;
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
  const client: SecurityClient = { ip: input.ip, userAgent: input.userAgent };
  const session = await createSession(
    deps,
    { role: "owner", ownerEmail: email },
    { ip: input.ip, userAgent: input.userAgent },
    policy,
  );
  await recordSecurityEvent(deps.db, {
    type: "owner.claimed",
    actor: { kind: "owner", email },
    client,
    data: { estateId: estate.id },
  });
  await recordSecurityEvent(deps.db, {
    type: "owner.signed_in",
    actor: { kind: "owner", email },
    client,
    data: { method: "code", estateId: estate.id },
  });
  deps.log.info({ propertyId: estate.id }, "estate claimed");
  return { outcome: "claimed", propertyId: estate.id, estate, session };
}

/**
 * Forgets codes (and their proofs) a day after both expired: nothing reads them after, and
 * they hold the address and the IP the code was asked from. Housekeeping, hourly.
 */
export async function purgeExpiredOwnerCodes(deps: Pick<Deps, "db" | "clock">): Promise<number> {
  const before = new Date(nowOf(deps).getTime() - 24 * 60 * 60_000);
  const rows = await deps.db
    .delete(ownerCodes)
    .where(
      and(
        lt(ownerCodes.expiresAt, before),
        or(isNull(ownerCodes.proofExpiresAt), lt(ownerCodes.proofExpiresAt, before)),
      ),
    )
    .returning({ id: ownerCodes.id });
  return rows.length;
}

/**
 * Forgets wrong owner codes older than the window they count in (housekeeping, hourly): the
 * cap reads only the last `failureWindowMs`, so older rows would only grow the table.
 */
export async function purgeOldOwnerCodeFailures(deps: Pick<Deps, "db">): Promise<number> {
  const rows = await deps.db
    .delete(ownerCodeFailures)
    .where(
      sql`${ownerCodeFailures.at} <= now() - make_interval(secs => ${OWNER_CODE_POLICY.failureWindowMs / 1000})`,
    )
    .returning({ id: ownerCodeFailures.id });
  return rows.length;
}
