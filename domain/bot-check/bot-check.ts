import { createHash } from "node:crypto";
import { createChallenge, type Challenge, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { lt, sql } from "drizzle-orm";
import { usedBotTokens } from "#db/schema/index.ts";
import type { Database } from "#db/client.ts";
import type { Deps } from "../deps.ts";
import { type AltchaConfig, type BotCheckConfig, TURNSTILE_TOKEN_SECONDS } from "./config.ts";

const ALGORITHM = "PBKDF2/SHA-256";

/** A fresh signed proof-of-work challenge for the ALTCHA widget. */
export function createAltchaChallenge(config: AltchaConfig): Promise<Challenge> {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: config.cost,
    deriveKey,
    hmacSignatureSecret: config.hmacSecret,
    expiresAt: new Date(Date.now() + config.expiresInSeconds * 1000),
  });
}

/** A token that passed its check: what identifies it, and until when it would stay valid. */
export interface VerifiedBotToken {
  tokenHash: string;
  expiresAt: Date;
}

/**
 * Checks a bot-check token (an ALTCHA payload, or a Turnstile response through siteverify).
 * Answers null for anything missing, malformed, forged or expired. It does not spend the token:
 * `spendBotToken` does, in the transaction that stores the request.
 */
export async function checkBotToken(
  deps: Pick<Deps, "log">,
  config: BotCheckConfig,
  token: string,
  remoteIp?: string,
): Promise<VerifiedBotToken | null> {
  if (!token) return null;
  if (config.provider === "altcha") return checkAltcha(config.altcha, token);
  const { verifyUrl, secretKey } = config.turnstile;
  try {
    const response = await fetch(verifyUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ secret: secretKey, response: token, remoteip: remoteIp }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) {
      deps.log.warn({ status: response.status }, "turnstile siteverify answered an error");
      return null;
    }
    const result = (await response.json()) as { success?: boolean; "error-codes"?: string[] };
    if (result.success !== true) return null;
  } catch (error) {
    deps.log.warn({ err: error }, "turnstile siteverify unreachable");
    return null;
  }
  return {
    tokenHash: hashToken(`turnstile:${token}`),
    expiresAt: new Date(Date.now() + TURNSTILE_TOKEN_SECONDS * 1000),
  };
}

async function checkAltcha(config: AltchaConfig, token: string): Promise<VerifiedBotToken | null> {
  let payload: { challenge?: Challenge; solution?: unknown };
  try {
    payload = JSON.parse(Buffer.from(token, "base64").toString("utf8")) as typeof payload;
  } catch {
    return null;
  }
  const challenge = payload?.challenge;
  if (!challenge?.parameters || typeof challenge.parameters.nonce !== "string" || !payload.solution)
    return null;
  try {
    const result = await verifySolution({
      challenge,
      solution: payload.solution as Parameters<typeof verifySolution>[0]["solution"],
      deriveKey,
      hmacSignatureSecret: config.hmacSecret,
    });
    if (!result.verified || challenge.parameters.algorithm !== ALGORITHM) return null;
  } catch {
    return null;
  }
  const expiresAt = challenge.parameters.expiresAt
    ? new Date(challenge.parameters.expiresAt * 1000)
    : new Date(Date.now() + config.expiresInSeconds * 1000);
  return { tokenHash: hashToken(`altcha:${challenge.parameters.nonce}`), expiresAt };
}

/**
 * Marks a checked token as used; false when it already was (a replay, from this instance or any
 * other: the record is in the shared database until the token would have expired).
 */
export async function spendBotToken(db: Database, token: VerifiedBotToken): Promise<boolean> {
  const inserted = await db
    .insert(usedBotTokens)
    .values(token)
    .onConflictDoNothing()
    .returning({ tokenHash: usedBotTokens.tokenHash });
  return inserted.length === 1;
}

/** Forgets spent tokens that have expired anyway (run by the housekeeping timer). */
export async function purgeExpiredBotTokens(deps: Pick<Deps, "db">): Promise<void> {
  await deps.db.delete(usedBotTokens).where(lt(usedBotTokens.expiresAt, sql`now()`));
}

function hashToken(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
