import { eq, sql } from "drizzle-orm";
import { withTransaction } from "#db/client.ts";
import { staffUsers } from "#db/schema/index.ts";
import {
  advanceSessionStage,
  closeEnrolmentSessions,
  revokeSession,
  revokeStaffSessions,
} from "#domain/auth/sessions.ts";
import {
  hasPasskey,
  listPasskeys,
  removePasskey,
  removeStaffPasskeys,
  type StaffPasskeyHolder,
} from "#domain/auth/passkeys.ts";
import { nowOf } from "#domain/clock.ts";
import type { Deps } from "#domain/deps.ts";
import { type RateLimitStore } from "#domain/rate-limit/rate-limiter.ts";
import { recordSecurityEvent, type SecurityClient } from "#domain/security/security-log.ts";
import type { StaffUser } from "../staff-user.ts";
import {
  countUnusedRecoveryCodes,
  deleteRecoveryCodes,
  replaceRecoveryCodes,
  useRecoveryCode,
} from "./recovery-codes.ts";
import { acceptTotpCode, deleteTotp, hasConfirmedTotp, normaliseTotpCode } from "./totp.ts";

/**
 * How a staff member can give their second factor. "recovery" is no factor of its own: it is
 * offered while unused codes are left.
 */
export type SecondFactorMethod = "totp" | "passkey" | "recovery";

/**
 * The ways this account can pass the second step, in the order the page offers them. This is
 * the one place that knows every factor: a new kind (passkeys) adds its check here.
 */
export async function secondFactorMethods(
  deps: Pick<Deps, "db">,
  staffUserId: string,
): Promise<SecondFactorMethod[]> {
  const [passkey, totp, recovery] = await Promise.all([
    hasPasskey(deps, staffUserId),
    hasConfirmedTotp(deps, staffUserId),
    countUnusedRecoveryCodes(deps, staffUserId),
  ]);
  const methods: SecondFactorMethod[] = [];
  if (passkey) methods.push("passkey");
  if (totp) methods.push("totp");
  if (recovery > 0) methods.push("recovery");
  return methods;
}

/** Whether the account has a real second factor (recovery codes alone are not one). */
export async function hasSecondFactor(deps: Pick<Deps, "db">, staffUserId: string) {
  return (await secondFactorMethods(deps, staffUserId)).some((method) => method !== "recovery");
}

/** The factors of one account, as its security page shows them. */
export async function describeFactors(deps: Pick<Deps, "db">, staffUserId: string) {
  const [totp, recoveryCodesLeft] = await Promise.all([
    hasConfirmedTotp(deps, staffUserId),
    countUnusedRecoveryCodes(deps, staffUserId),
  ]);
  return { totp, recoveryCodesLeft };
}

const staffActor = (user: Pick<StaffUser, "id" | "email">) =>
  ({ kind: "staff", staffUserId: user.id, email: user.email }) as const;

/**
 * Confirms an authenticator app with its first right code: the factor becomes live and a
 * first batch of 10 recovery codes is made, in one transaction with their log entries.
 */
export async function confirmTotpEnrolment(
  deps: Pick<Deps, "db" | "secretsKey" | "clock">,
  input: {
    user: StaffUser;
    code: string;
    /** The session that confirms it: every other one still at enrolment must now give it. */
    sessionId?: string;
    client?: SecurityClient;
  },
): Promise<{ outcome: "confirmed"; recoveryCodes: string[] } | { outcome: "invalid" }> {
  return withTransaction(deps.db, async (db) => {
    const right = await acceptTotpCode(
      { db, secretsKey: deps.secretsKey, clock: deps.clock },
      { staffUserId: input.user.id, code: input.code, pending: true },
    );
    if (!right) return { outcome: "invalid" } as const;
    await closeEnrolmentSessions({ db }, input.user.id, input.sessionId);
    const recoveryCodes = await replaceRecoveryCodes(db, input.user.id);
    for (const method of ["totp", "recovery_codes"])
      await recordSecurityEvent(db, {
        type: "factor.added",
        actor: staffActor(input.user),
        client: input.client,
        data: { method },
      });
    return { outcome: "confirmed", recoveryCodes } as const;
  });
}

/**
 * Holds the account's row until the transaction ends, so that removals of its factors take
 * turns: each reads what is left after the one before it. Without it, the app and the last
 * passkey removed at the same moment would each see the other still there, and both go.
 */
async function lockFactorsOf(db: Pick<Deps, "db">["db"], staffUserId: string) {
  await db
    .select({ id: staffUsers.id })
    .from(staffUsers)
    .where(eq(staffUsers.id, staffUserId))
    .for("update");
}

/**
 * Removes the authenticator app. Refused when the second factor is required and it is the
 * account's last one. With no factor left, the recovery codes go too (they recover nothing).
 */
export async function removeTotp(
  deps: Pick<Deps, "db">,
  input: { user: StaffUser; mfaRequired: boolean; client?: SecurityClient },
): Promise<{ outcome: "removed" | "not_enrolled" | "last_factor" }> {
  return withTransaction(deps.db, async (db) => {
    await lockFactorsOf(db, input.user.id);
    const methods = await secondFactorMethods({ db }, input.user.id);
    if (!methods.includes("totp")) return { outcome: "not_enrolled" as const };
    const others = methods.filter((method) => method !== "totp" && method !== "recovery");
    if (input.mfaRequired && others.length === 0) return { outcome: "last_factor" as const };
    await deleteTotp({ db }, input.user.id);
    const events = ["totp"];
    if (others.length === 0 && (await deleteRecoveryCodes(db, input.user.id)) > 0)
      events.push("recovery_codes");
    for (const method of events)
      await recordSecurityEvent(db, {
        type: "factor.removed",
        actor: staffActor(input.user),
        client: input.client,
        data: { method },
      });
    return { outcome: "removed" as const };
  });
}

/**
 * Removes one of a staff member's passkeys. Refused, like the app, when the second factor is
 * required and it is the account's last factor.
 */
export async function removeStaffPasskey(
  deps: Pick<Deps, "db">,
  input: { holder: StaffPasskeyHolder; id: string; mfaRequired: boolean; client?: SecurityClient },
): Promise<{ outcome: "removed" | "not_found" | "last_factor" }> {
  return withTransaction(deps.db, async (db) => {
    const { staffUserId } = input.holder;
    await lockFactorsOf(db, staffUserId);
    if (input.mfaRequired) {
      const methods = await secondFactorMethods({ db }, staffUserId);
      const keys = await listPasskeys({ db }, input.holder);
      if (!methods.includes("totp") && keys.length === 1 && keys[0]!.id === input.id)
        return { outcome: "last_factor" as const };
    }
    const removed = await removePasskey({ db }, input.holder, input.id, input.client);
    return { outcome: removed ? ("removed" as const) : ("not_found" as const) };
  });
}

/** A new batch of recovery codes (the old ones void); only for an account with a factor. */
export async function regenerateRecoveryCodes(
  deps: Pick<Deps, "db">,
  input: { user: StaffUser; client?: SecurityClient },
): Promise<{ outcome: "created"; recoveryCodes: string[] } | { outcome: "no_factor" }> {
  if (!(await hasSecondFactor(deps, input.user.id))) return { outcome: "no_factor" };
  return withTransaction(deps.db, async (db) => {
    const recoveryCodes = await replaceRecoveryCodes(db, input.user.id);
    await recordSecurityEvent(db, {
      type: "factor.added",
      actor: staffActor(input.user),
      client: input.client,
      data: { method: "recovery_codes" },
    });
    return { outcome: "created" as const, recoveryCodes };
  });
}

export interface SecondStepLimits {
  store: RateLimitStore;
  /** Wrong codes one sign-in may send; the last one ends the session. */
  perSession: number;
  /** Codes one account may receive across sessions in the window. */
  perAccount: number;
  windowMs: number;
}

export const DEFAULT_SECOND_STEP_LIMITS = { perSession: 5, perAccount: 10, windowMs: 15 * 60_000 };

export type SecondStepResult =
  /** `token`: the session's new token (renewed as it becomes complete), for the cookie. */
  | { outcome: "signed_in"; method: "totp" | "recovery"; token: string }
  | { outcome: "invalid"; triesLeft: number }
  /** That was the session's last try: it has been ended. */
  | { outcome: "ended" }
  | { outcome: "rate_limited"; retryAfterSeconds: number }
  | { outcome: "unavailable" };

/**
 * The second step of a sign-in: a TOTP code or an unused recovery code moves the session from
 * `second_factor` to `complete`. Tries are counted per session (the fifth wrong one ends it)
 * and per account across sessions, before any code is checked.
 */
export async function completeSecondFactor(
  deps: Pick<Deps, "db" | "log" | "secretsKey" | "clock">,
  limits: SecondStepLimits,
  input: {
    user: StaffUser;
    token: string;
    sessionId: string;
    code: string;
    client?: SecurityClient;
  },
): Promise<SecondStepResult> {
  const actor = staffActor(input.user);
  let sessionCount: number;
  try {
    sessionCount = (await limits.store.hit(`rate:mfa-session:${input.sessionId}`, limits.windowMs))
      .count;
    const account = await limits.store.hit(`rate:mfa-account:${input.user.id}`, limits.windowMs);
    if (account.count > limits.perAccount) {
      if (account.count === limits.perAccount + 1)
        await recordSecurityEvent(deps.db, {
          type: "lockout",
          actor,
          client: input.client,
          data: { scope: "second_factor", seconds: Math.ceil(account.resetMs / 1000) },
        });
      return {
        outcome: "rate_limited",
        retryAfterSeconds: Math.max(1, Math.ceil(account.resetMs / 1000)),
      };
    }
  } catch (error) {
    deps.log.error({ err: error }, "second-step limiter unavailable; refused");
    return { outcome: "unavailable" };
  }
  const method = normaliseTotpCode(input.code) ? "totp" : "recovery";
  const right =
    method === "totp"
      ? await acceptTotpCode(deps, { staffUserId: input.user.id, code: input.code })
      : await useRecoveryCode(deps, input.user.id, input.code);
  if (right && sessionCount <= limits.perSession) {
    const moved = await advanceSessionStage(deps, input.token, "second_factor", "complete");
    if (!moved) return { outcome: "ended" };
    const token = moved.token;
    await deps.db
      .update(staffUsers)
      .set({ lastLoginAt: nowOf(deps) })
      .where(eq(staffUsers.id, input.user.id));
    await recordSecurityEvent(deps.db, {
      type: method === "totp" ? "second_factor.used" : "recovery_code.used",
      actor,
      client: input.client,
      data: method === "totp" ? { method: "totp" } : {},
    });
    await recordSecurityEvent(deps.db, {
      type: "sign_in.succeeded",
      actor,
      client: input.client,
      data: { method },
    });
    return { outcome: "signed_in", method, token };
  }
  await recordSecurityEvent(deps.db, {
    type: "sign_in.failed",
    actor,
    client: input.client,
    data: { reason: "second_factor" },
  });
  if (sessionCount >= limits.perSession) {
    await revokeSession(deps, input.token);
    await recordSecurityEvent(deps.db, {
      type: "lockout",
      actor,
      client: input.client,
      data: { scope: "session", tries: limits.perSession },
    });
    return { outcome: "ended" };
  }
  return { outcome: "invalid", triesLeft: limits.perSession - sessionCount };
}

/**
 * For a person who lost every factor (`npm run staff -- reset-mfa`): removes the account's
 * authenticator app and recovery codes and ends its sessions, logged as `account.mfa_reset`.
 */
export async function resetStaffMfa(
  deps: Pick<Deps, "db">,
  email: string,
): Promise<{ outcome: "reset"; sessionsEnded: number } | { outcome: "not_found" }> {
  return withTransaction(deps.db, async (db) => {
    const [account] = await db
      .select({ id: staffUsers.id, email: staffUsers.email })
      .from(staffUsers)
      .where(eq(sql`lower(${staffUsers.email})`, email.trim().toLowerCase()));
    if (!account) return { outcome: "not_found" } as const;
    const totp = await deleteTotp({ db }, account.id);
    const codes = await deleteRecoveryCodes(db, account.id);
    const passkeysRemoved = await removeStaffPasskeys({ db }, account.id);
    const sessionsEnded = await revokeStaffSessions({ db }, account.id);
    await recordSecurityEvent(db, {
      type: "account.mfa_reset",
      actor: { kind: "system" },
      data: {
        targetId: account.id,
        targetEmail: account.email,
        totp,
        recoveryCodes: codes,
        passkeys: passkeysRemoved,
      },
    });
    return { outcome: "reset", sessionsEnded } as const;
  });
}
