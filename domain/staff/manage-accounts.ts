import { and, asc, count, desc, eq, gt, ne, sql } from "drizzle-orm";
import { withTransaction } from "#db/client.ts";
import { authSessions, staffUsers } from "#db/schema/index.ts";
import {
  DEFAULT_SESSION_POLICY,
  revokeStaffSessions,
  type SessionPolicy,
} from "../auth/sessions.ts";
import type { Deps } from "../deps.ts";
import type { LoginLimits } from "./login.ts";
import { checkPasswordAgain } from "./password-again.ts";
import {
  recordSecurityEvent,
  type SecurityClient,
  type SecurityEventType,
} from "../security/security-log.ts";
import type { PasswordProblem } from "./accounts.ts";
import { checkPasswordPolicy, hashPassword } from "./passwords.ts";
import { type StaffUser, toStaffUser } from "./staff-user.ts";

/**
 * What admins do to accounts on /admin/accounts and what everyone does to their own on
 * /admin/account. Every change is logged in the security log in its own
 * transaction. "The last enabled admin stays" is the database's rule (the trigger
 * `staff_users_keep_an_admin`, migration 0018): these functions only translate its refusal.
 */

/** The SQLSTATE the trigger raises when a change would leave no enabled admin. */
const LAST_ADMIN_SQLSTATE = "CL001";

/** Whether `error` is the database refusing to leave no enabled admin (any wrapping). */
export function isLastAdminRefusal(error: unknown): boolean {
  for (let current = error; current && typeof current === "object";) {
    if ((current as { code?: unknown }).code === LAST_ADMIN_SQLSTATE) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

const liveSessions = (policy: SessionPolicy) =>
  and(
    gt(authSessions.expiresAt, sql`now()`),
    gt(authSessions.lastSeenAt, new Date(Date.now() - policy.idleMs)),
  );

export interface AccountRow extends StaffUser {
  liveSessions: number;
}

/** Every account, by email, with its count of live sessions. */
export async function listAccounts(
  deps: Pick<Deps, "db">,
  policy: SessionPolicy = DEFAULT_SESSION_POLICY,
): Promise<AccountRow[]> {
  const rows = await deps.db
    .select({ user: staffUsers, live: count(authSessions.tokenHash) })
    .from(staffUsers)
    .leftJoin(authSessions, and(eq(authSessions.staffUserId, staffUsers.id), liveSessions(policy)))
    .groupBy(staffUsers.id)
    .orderBy(asc(staffUsers.email));
  return rows.map((row) => ({ ...toStaffUser(row.user), liveSessions: row.live }));
}

export type AccountChange =
  { outcome: "done"; account: StaffUser } | { outcome: "not_found" } | { outcome: "last_admin" };

interface ChangeContext {
  admin: StaffUser;
  client?: SecurityClient;
}

async function changeAccount(
  deps: Pick<Deps, "db">,
  staffUserId: string,
  set: { disabled?: boolean; isAdmin?: boolean },
  event: (before: StaffUser) => SecurityEventType | null,
  context: ChangeContext,
): Promise<AccountChange> {
  try {
    return await withTransaction(deps.db, async (db) => {
      const [before] = await db
        .select()
        .from(staffUsers)
        .where(eq(staffUsers.id, staffUserId))
        .for("update");
      if (!before) return { outcome: "not_found" } as const;
      const [row] = await db
        .update(staffUsers)
        .set({ ...set, updatedAt: sql`now()` })
        .where(eq(staffUsers.id, staffUserId))
        .returning();
      const account = toStaffUser(row!);
      const type = event(toStaffUser(before));
      let sessionsEnded = 0;
      if (set.disabled) sessionsEnded = await revokeStaffSessions({ db }, staffUserId);
      if (type)
        await recordSecurityEvent(db, {
          type,
          actor: { kind: "staff", staffUserId: context.admin.id, email: context.admin.email },
          client: context.client,
          data: {
            targetId: account.id,
            targetEmail: account.email,
            ...(set.disabled ? { sessionsEnded } : {}),
          },
        });
      return { outcome: "done", account } as const;
    });
  } catch (error) {
    if (isLastAdminRefusal(error)) return { outcome: "last_admin" };
    throw error;
  }
}

/** Disables (ending every session) or enables an account. */
export function setAccountDisabled(
  deps: Pick<Deps, "db">,
  staffUserId: string,
  disabled: boolean,
  context: ChangeContext,
): Promise<AccountChange> {
  return changeAccount(
    deps,
    staffUserId,
    { disabled },
    (before) =>
      before.disabled === disabled ? null : disabled ? "account.disabled" : "account.enabled",
    context,
  );
}

/** Grants or removes the admin flag. */
export function setAccountAdmin(
  deps: Pick<Deps, "db">,
  staffUserId: string,
  isAdmin: boolean,
  context: ChangeContext,
): Promise<AccountChange> {
  return changeAccount(
    deps,
    staffUserId,
    { isAdmin },
    (before) =>
      before.isAdmin === isAdmin
        ? null
        : isAdmin
          ? "account.admin_granted"
          : "account.admin_removed",
    context,
  );
}

/** Ends every session of an account (an admin's act); null when there is no such account. */
export async function endAccountSessions(
  deps: Pick<Deps, "db">,
  staffUserId: string,
  context: ChangeContext,
): Promise<number | null> {
  return withTransaction(deps.db, async (db) => {
    const [row] = await db.select().from(staffUsers).where(eq(staffUsers.id, staffUserId));
    if (!row) return null;
    const ended = await revokeStaffSessions({ db }, staffUserId);
    await recordSecurityEvent(db, {
      type: "account.sessions_ended",
      actor: { kind: "staff", staffUserId: context.admin.id, email: context.admin.email },
      client: context.client,
      data: { targetId: row.id, targetEmail: row.email, sessionsEnded: ended },
    });
    return ended;
  });
}

export interface OwnSession {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  ip: string | null;
  userAgent: string | null;
  isCurrent: boolean;
}

/** The live sessions of the signed-in person, newest first; `isCurrent` marks this one. */
export async function listOwnSessions(
  deps: Pick<Deps, "db">,
  user: StaffUser,
  currentSessionId: string,
  policy: SessionPolicy = DEFAULT_SESSION_POLICY,
): Promise<OwnSession[]> {
  const rows = await deps.db
    .select({
      id: authSessions.id,
      createdAt: authSessions.createdAt,
      lastSeenAt: authSessions.lastSeenAt,
      ip: authSessions.ip,
      userAgent: authSessions.userAgent,
    })
    .from(authSessions)
    .where(and(eq(authSessions.staffUserId, user.id), liveSessions(policy)))
    .orderBy(desc(authSessions.createdAt));
  return rows.map((row) => ({ ...row, isCurrent: row.id === currentSessionId }));
}

/**
 * Ends one of the person's own sessions, named by its id (never its token). False when no
 * session of theirs has that id: another person's session id ends nothing.
 */
export async function endOwnSession(
  deps: Pick<Deps, "db">,
  user: StaffUser,
  sessionId: string,
  client?: SecurityClient,
): Promise<boolean> {
  return withTransaction(deps.db, async (db) => {
    const rows = await db
      .delete(authSessions)
      .where(and(eq(authSessions.id, sessionId), eq(authSessions.staffUserId, user.id)))
      .returning({ id: authSessions.id });
    if (rows.length === 0) return false;
    await recordSecurityEvent(db, {
      type: "account.sessions_ended",
      actor: { kind: "staff", staffUserId: user.id, email: user.email },
      client,
      data: { targetId: user.id, targetEmail: user.email, sessionId, sessionsEnded: 1 },
    });
    return true;
  });
}

export type ChangePasswordResult =
  | { outcome: "done" }
  | { outcome: "wrong_password" }
  | { outcome: "weak_password"; problem: PasswordProblem }
  | { outcome: "rate_limited"; retryAfterSeconds: number }
  | { outcome: "unavailable" };

/**
 * Changes one's own password: the current one is required (counted and logged as at sign-in),
 * and every other session of the account ends (the one in use stays open).
 */
export async function changeOwnPassword(
  deps: Pick<Deps, "db" | "log" | "passwordCost">,
  limits: LoginLimits,
  user: StaffUser,
  currentSessionId: string,
  input: { currentPassword: string; newPassword: string; client?: SecurityClient },
): Promise<ChangePasswordResult> {
  const check = await checkPasswordAgain(deps, limits, {
    user,
    password: input.currentPassword,
    action: "password_change",
    client: input.client ?? {},
  });
  if (check === "wrong") return { outcome: "wrong_password" };
  if (check === "unavailable") return { outcome: "unavailable" };
  if (check !== "right") return { outcome: "rate_limited", ...check };
  const [row] = await deps.db.select().from(staffUsers).where(eq(staffUsers.id, user.id));
  if (!row) return { outcome: "wrong_password" };
  const policy = checkPasswordPolicy(input.newPassword, { email: row.email });
  if (!policy.ok) return { outcome: "weak_password", problem: policy.reason };
  const passwordHash = await hashPassword(input.newPassword, deps.passwordCost);
  return withTransaction(deps.db, async (db) => {
    await db
      .update(staffUsers)
      .set({ passwordHash, updatedAt: sql`now()` })
      .where(eq(staffUsers.id, user.id));
    const ended = await db
      .delete(authSessions)
      .where(and(eq(authSessions.staffUserId, user.id), ne(authSessions.id, currentSessionId)))
      .returning({ id: authSessions.id });
    await recordSecurityEvent(db, {
      type: "account.password_changed",
      actor: { kind: "staff", staffUserId: user.id, email: user.email },
      client: input.client,
      data: { targetId: user.id, targetEmail: user.email, sessionsEnded: ended.length },
    });
    return { outcome: "done" } as const;
  });
}
