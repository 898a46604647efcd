import { eq, sql } from "drizzle-orm";
import { staffUsers } from "../../db/schema/index.ts";
import { createSession, type SessionPolicy } from "../auth/sessions.ts";
import type { Deps } from "../deps.ts";
import { consumeRateLimits, type RateLimitStore } from "../rate-limit/rate-limiter.ts";
import { findStaffByEmail } from "./accounts.ts";
import { verifyPassword, verifyPasswordOfUnknownAccount } from "./passwords.ts";
import type { StaffLogin } from "./login.schema.ts";
import type { StaffUser } from "./staff-user.ts";

export interface LoginLimits {
  store: RateLimitStore;
  /** Tries per account (email) and window: at most 10 per 15 minutes. */
  perAccount: number;
  /** Tries per client IP and window (covers many accounts from one place). */
  perIp: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS = { perAccount: 10, perIp: 50, windowMs: 15 * 60_000 };

export type LoginResult =
  | { outcome: "signed_in"; user: StaffUser; token: string; expiresAt: Date }
  | { outcome: "invalid" }
  | { outcome: "rate_limited"; retryAfterSeconds: number }
  /** The limiter's store could not be reached: login is refused, never let through unmetered. */
  | { outcome: "unavailable" };

/**
 * Signs a staff member in. Every try counts against the account and the IP before any password
 * is checked. Unknown email, wrong password and disabled account all answer `invalid` after the
 * same amount of hashing work, so neither the answer nor its timing tells which it was.
 */
export async function loginStaff(
  deps: Pick<Deps, "db" | "log">,
  limits: LoginLimits,
  input: StaffLogin & { ip?: string; userAgent?: string },
  policy?: SessionPolicy,
): Promise<LoginResult> {
  const email = input.email.trim().toLowerCase();
  let retryAfterSeconds: number;
  try {
    retryAfterSeconds = await consumeRateLimits(limits.store, [
      { name: "login-account", max: limits.perAccount, windowMs: limits.windowMs, key: email },
      {
        name: "login-ip",
        max: limits.perIp,
        windowMs: limits.windowMs,
        key: input.ip ?? "unknown",
      },
    ]);
  } catch (error) {
    deps.log.error({ err: error }, "login limiter unavailable; login refused");
    return { outcome: "unavailable" };
  }
  if (retryAfterSeconds > 0) {
    deps.log.warn({ email, ip: input.ip }, "login rate limit reached");
    return { outcome: "rate_limited", retryAfterSeconds };
  }

  const account = await findStaffByEmail(deps, email);
  const matches = account
    ? await verifyPassword(account.passwordHash, input.password)
    : await verifyPasswordOfUnknownAccount(input.password);
  if (!account || !matches || account.disabled) {
    deps.log.info({ email, ip: input.ip }, "staff login refused");
    return { outcome: "invalid" };
  }
  const session = await createSession(
    deps,
    { role: "staff", staffUserId: account.id },
    { ip: input.ip, userAgent: input.userAgent },
    policy,
  );
  await deps.db
    .update(staffUsers)
    .set({ lastLoginAt: sql`now()` })
    .where(eq(staffUsers.id, account.id));
  const { passwordHash: _hash, ...user } = account;
  deps.log.info({ staffUserId: user.id }, "staff signed in");
  return {
    outcome: "signed_in",
    user: { ...user, lastLoginAt: new Date().toISOString() },
    ...session,
  };
}
