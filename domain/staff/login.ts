import { eq } from "drizzle-orm";
import { staffUsers } from "#db/schema/index.ts";
import { createSession, type SessionPolicy } from "../auth/sessions.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { type RateLimitStore } from "../rate-limit/rate-limiter.ts";
import { recordSecurityEvent } from "../security/security-log.ts";
import { secondFactorMethods, type SecondFactorMethod } from "./mfa/second-factor.ts";
import { findStaffByEmail } from "./accounts.ts";
import { verifyPassword, verifyPasswordOfUnknownAccount } from "./passwords.ts";
import type { StaffLogin } from "./login.schema.ts";
import type { StaffUser } from "./staff-user.ts";

export interface LoginLimits {
  store: RateLimitStore;
  /** Tries per account (email) from one client IP and window (10 per 15 minutes). */
  perAccount: number;
  /** Tries per client IP and window (covers many accounts from one place). */
  perIp: number;
  /**
   * Tries per account across every address in the window (default: 3 × perAccount). Its
   * refusal does not stop the right password of an account with a second factor, whose next
   * step is limited on its own: strangers cannot lock the real person out.
   */
  perAccountAllAddresses?: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS = { perAccount: 10, perIp: 50, windowMs: 15 * 60_000 };

export type LoginResult =
  | { outcome: "signed_in"; user: StaffUser; token: string; expiresAt: Date }
  /** The password was right; the session waits for the second factor (`methods`). */
  | {
      outcome: "second_factor";
      user: StaffUser;
      token: string;
      expiresAt: Date;
      methods: SecondFactorMethod[];
    }
  /** The password was right; no factor yet while one is required: the session may only enrol. */
  | { outcome: "enrolment"; user: StaffUser; token: string; expiresAt: Date }
  | { outcome: "invalid" }
  | { outcome: "rate_limited"; retryAfterSeconds: number }
  /** The limiter's store could not be reached: login is refused, never let through unmetered. */
  | { outcome: "unavailable" };

interface Counted {
  scope: "account_address" | "address" | "account";
  count: number;
  max: number;
  resetMs: number;
}

/** The sign-in's counters of one account from one address: each with its key and limit. */
function loginCounters(limits: LoginLimits, email: string, ip: string) {
  return [
    {
      scope: "account_address",
      key: `rate:login-account-ip:${email}|${ip}`,
      max: limits.perAccount,
    },
    { scope: "address", key: `rate:login-ip:${ip}`, max: limits.perIp },
    {
      scope: "account",
      key: `rate:login-account:${email}`,
      max: limits.perAccountAllAddresses ?? limits.perAccount * 3,
    },
  ] as const;
}

/**
 * Counts a password try of a signed-in person (asked again) on the sign-in's two counters of
 * the account: how long to wait, 0 when it may go on. A store error is thrown.
 */
export async function countLoginTry(limits: LoginLimits, email: string, ip: string) {
  let retryAfterSeconds = 0;
  for (const counter of loginCounters(limits, email, ip)) {
    if (counter.scope === "address") continue;
    const { count, resetMs } = await limits.store.hit(counter.key, limits.windowMs);
    if (count > counter.max)
      retryAfterSeconds = Math.max(retryAfterSeconds, Math.max(1, Math.ceil(resetMs / 1000)));
  }
  return { retryAfterSeconds };
}

/**
 * Gives back a try whose password was right: only failures count towards the limits, so a
 * person who signs in often is never locked out by their own successes.
 */
export async function refundLoginTry(
  limits: LoginLimits,
  email: string,
  ip: string,
  scopes: readonly Counted["scope"][] = ["account_address", "account"],
) {
  for (const counter of loginCounters(limits, email, ip))
    if (scopes.includes(counter.scope)) await limits.store.hit(counter.key, limits.windowMs, -1);
}

/**
 * Signs a staff member in. Every try counts against the account from this address, the
 * address, and the account across addresses before any password is checked, and a right
 * password gives its try back: the limits count failures. Unknown email,
 * wrong password and disabled account all answer `invalid` after the same amount of hashing
 * work, so neither the answer nor its timing tells which it was. With a second factor (or
 * `mfaRequired`), a right password opens a session that can only take the next step.
 */
export async function loginStaff(
  deps: Pick<Deps, "db" | "log" | "passwordCost" | "clock">,
  limits: LoginLimits,
  input: StaffLogin & { ip?: string; userAgent?: string },
  policy?: SessionPolicy,
  options: { mfaRequired?: boolean } = {},
): Promise<LoginResult> {
  const email = input.email.trim().toLowerCase();
  const ip = input.ip ?? "unknown";
  const client = { ip: input.ip, userAgent: input.userAgent };
  const anonymous = { kind: "anonymous", email } as const;
  let counted: Counted[];
  try {
    counted = [];
    for (const { scope, key, max } of loginCounters(limits, email, ip)) {
      const { count, resetMs } = await limits.store.hit(key, limits.windowMs);
      counted.push({ scope, count, max, resetMs });
    }
  } catch (error) {
    deps.log.error({ err: error }, "login limiter unavailable; login refused");
    return { outcome: "unavailable" };
  }
  const over = counted.filter((c) => c.count > c.max);
  // A limit just reached is a lockout for the log (once per window, not at every refused try).
  for (const c of over)
    if (c.count === c.max + 1)
      await recordSecurityEvent(deps.db, {
        type: "lockout",
        actor: anonymous,
        client,
        data: { scope: c.scope, seconds: Math.ceil(c.resetMs / 1000) },
      });
  const retryAfterSeconds = Math.max(
    0,
    ...over.map((c) => Math.max(1, Math.ceil(c.resetMs / 1000))),
  );
  const rateLimited = async () => {
    // The address typed is not logged: it may be anyone's (a guest's, mistyped); the security
    // log keeps it for the admins.
    deps.log.warn({ ip: input.ip }, "login rate limit reached");
    await recordSecurityEvent(deps.db, {
      type: "sign_in.failed",
      actor: anonymous,
      client,
      data: { reason: "rate_limited" },
    });
    return { outcome: "rate_limited", retryAfterSeconds } as const;
  };
  // Limits of this address (with or without this account) refuse before any password work.
  if (over.some((c) => c.scope !== "account")) return rateLimited();

  const account = await findStaffByEmail(deps, email);
  const matches = account
    ? await verifyPassword(account.passwordHash, input.password)
    : await verifyPasswordOfUnknownAccount(input.password, deps.passwordCost);
  const accountLocked = over.length > 0;
  if (!account || !matches || account.disabled) {
    if (accountLocked) return rateLimited();
    deps.log.info({ staffUserId: account?.id, ip: input.ip }, "staff login refused");
    await recordSecurityEvent(deps.db, {
      type: "sign_in.failed",
      actor: account ? { kind: "staff", staffUserId: account.id, email } : anonymous,
      client,
      data: { reason: !account ? "unknown_account" : !matches ? "wrong_password" : "disabled" },
    });
    return { outcome: "invalid" };
  }
  const methods = await secondFactorMethods(deps, account.id);
  const hasFactor = methods.some((method) => method !== "recovery");
  // The account-wide backoff lets a right password through only towards a second factor.
  if (accountLocked && !hasFactor) return rateLimited();
  // The password was right: its try is given back, so only failures count.
  await refundLoginTry(limits, email, ip, ["account_address", "address", "account"]).catch(
    (error: unknown) =>
      deps.log.warn({ err: error }, "a right password's try could not be given back"),
  );
  const stage = hasFactor ? "second_factor" : options.mfaRequired ? "enrolment" : "complete";
  const session = await createSession(
    deps,
    { role: "staff", staffUserId: account.id },
    client,
    policy,
    stage,
  );
  const { passwordHash: _hash, ...user } = account;
  const actor = { kind: "staff", staffUserId: account.id, email } as const;
  if (stage === "second_factor") {
    deps.log.info({ staffUserId: user.id }, "staff password right; second factor awaited");
    return { outcome: "second_factor", user, ...session, methods };
  }
  if (stage === "enrolment") {
    deps.log.info({ staffUserId: user.id }, "staff password right; enrolment required");
    return { outcome: "enrolment", user, ...session };
  }
  const signedInAt = nowOf(deps);
  await deps.db
    .update(staffUsers)
    .set({ lastLoginAt: signedInAt })
    .where(eq(staffUsers.id, account.id));
  await recordSecurityEvent(deps.db, {
    type: "sign_in.succeeded",
    actor,
    client,
    data: { method: "password" },
  });
  deps.log.info({ staffUserId: user.id }, "staff signed in");
  return {
    outcome: "signed_in",
    user: { ...user, lastLoginAt: signedInAt.toISOString() },
    ...session,
  };
}
