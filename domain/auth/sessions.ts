import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, lte, ne, or } from "drizzle-orm";
import { authSessions, staffUsers } from "#db/schema/index.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { type StaffUser, toStaffUser } from "../staff/staff-user.ts";

/** How long sessions live. Idle: since the last request; absolute: since sign-in. */
export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = {
  idleMs: 12 * 60 * 60_000,
  absoluteMs: 7 * 24 * 60 * 60_000,
};

/** The policy the settings give (SESSION_IDLE_HOURS, SESSION_MAX_DAYS), the defaults otherwise. */
export function sessionPolicyOf(env: {
  SESSION_IDLE_HOURS?: number;
  SESSION_MAX_DAYS?: number;
}): SessionPolicy {
  return {
    idleMs: (env.SESSION_IDLE_HOURS ?? 12) * 60 * 60_000,
    absoluteMs: (env.SESSION_MAX_DAYS ?? 7) * 24 * 60 * 60_000,
  };
}

/** A session's `last_seen_at` is written at most this often (not on every request). */
const TOUCH_EVERY_MS = 60_000;

/** Who a session belongs to. The owner area adds its role beside staff. */
export type SessionSubject =
  { role: "staff"; staffUserId: string } | { role: "owner"; ownerEmail: string };

/** How far a sign-in has come: only `complete` opens the staff area. */
export type SessionStage = "complete" | "second_factor" | "enrolment";

export type SignedIn =
  | { role: "staff"; user: StaffUser; expiresAt: Date; sessionId: string; stage: SessionStage }
  | { role: "owner"; ownerEmail: string; expiresAt: Date; sessionId: string };

/** The SHA-256 of a session token: the only form the database ever sees. */
export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A session token is 128 random bits, base64url (22 characters). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{22}$/;

/**
 * Opens a session and returns its token (for the cookie; never stored) and absolute expiry.
 * Every sign-in gets a new token, so a token planted before sign-in is worthless after it.
 */
export async function createSession(
  deps: Pick<Deps, "db" | "clock">,
  subject: SessionSubject,
  client: { ip?: string; userAgent?: string },
  policy: SessionPolicy = DEFAULT_SESSION_POLICY,
  stage: SessionStage = "complete",
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(16).toString("base64url");
  // Both times from the clock, not the columns' defaults: the idle limit is measured from
  // `last_seen_at` against the same clock.
  const now = nowOf(deps);
  const expiresAt = new Date(now.getTime() + policy.absoluteMs);
  await deps.db.insert(authSessions).values({
    createdAt: now,
    lastSeenAt: now,
    tokenHash: hashSessionToken(token),
    role: subject.role,
    stage: subject.role === "staff" ? stage : "complete",
    staffUserId: subject.role === "staff" ? subject.staffUserId : null,
    ownerEmail: subject.role === "owner" ? subject.ownerEmail : null,
    expiresAt,
    ip: client.ip?.slice(0, 64) ?? null,
    userAgent: client.userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt };
}

/**
 * The live session behind a cookie's token, or null. A session ends at its absolute expiry,
 * after `idleMs` without a request, when it is revoked, or (staff) when its account is
 * disabled: all checked here, on every request, so a revocation takes effect at once.
 */
export async function resolveSession(
  deps: Pick<Deps, "db" | "clock">,
  token: string | undefined,
  policy: SessionPolicy = DEFAULT_SESSION_POLICY,
): Promise<SignedIn | null> {
  if (!token || !TOKEN_SHAPE.test(token)) return null;
  const tokenHash = hashSessionToken(token);
  const now = nowOf(deps);
  const idleSince = new Date(now.getTime() - policy.idleMs);
  const [row] = await deps.db
    .select({ session: authSessions, user: staffUsers })
    .from(authSessions)
    .leftJoin(staffUsers, eq(staffUsers.id, authSessions.staffUserId))
    .where(
      and(
        eq(authSessions.tokenHash, tokenHash),
        gt(authSessions.expiresAt, now),
        gt(authSessions.lastSeenAt, idleSince),
      ),
    );
  if (!row) return null;
  const { session, user } = row;
  if (session.role === "staff" && (!user || user.disabled)) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await deps.db
      .update(authSessions)
      .set({ lastSeenAt: now })
      .where(eq(authSessions.tokenHash, tokenHash));
  }
  if (session.role === "staff" && user)
    return {
      role: "staff",
      user: toStaffUser(user),
      expiresAt: session.expiresAt,
      sessionId: session.id,
      stage: session.stage,
    };
  if (session.role === "owner" && session.ownerEmail)
    return {
      role: "owner",
      ownerEmail: session.ownerEmail,
      expiresAt: session.expiresAt,
      sessionId: session.id,
    };
  return null;
}

/**
 * Moves a staff session to `stage` (the second factor given or enrolled: `complete`). Only a
 * session at `from` moves, so a stage is never skipped. A session that becomes complete gets a
 * new token (the old one is void at once), so a token seen before the second factor opens
 * nothing after it. Returns the session's token from now on (for the cookie), or null.
 */
export async function advanceSessionStage(
  deps: Pick<Deps, "db">,
  token: string,
  from: SessionStage,
  stage: SessionStage,
): Promise<{ token: string } | null> {
  const next = stage === "complete" ? randomBytes(16).toString("base64url") : token;
  const rows = await deps.db
    .update(authSessions)
    .set({ stage, tokenHash: hashSessionToken(next) })
    .where(and(eq(authSessions.tokenHash, hashSessionToken(token)), eq(authSessions.stage, from)))
    .returning({ id: authSessions.id });
  return rows.length === 1 ? { token: next } : null;
}

/**
 * Once an account has a factor, no sign-in may still enrol one on the password alone: every
 * other session of the account at `enrolment` moves to `second_factor`, where it must give the
 * new factor like any sign-in. `exceptSessionId` is the session that just added the factor.
 */
export async function closeEnrolmentSessions(
  deps: Pick<Deps, "db">,
  staffUserId: string,
  exceptSessionId?: string,
): Promise<number> {
  const rows = await deps.db
    .update(authSessions)
    .set({ stage: "second_factor" })
    .where(
      and(
        eq(authSessions.staffUserId, staffUserId),
        eq(authSessions.stage, "enrolment"),
        exceptSessionId ? ne(authSessions.id, exceptSessionId) : undefined,
      ),
    )
    .returning({ id: authSessions.id });
  return rows.length;
}

/** Ends one session (logout). Unknown tokens are fine: the result is the same. */
export async function revokeSession(deps: Pick<Deps, "db">, token: string): Promise<void> {
  await deps.db.delete(authSessions).where(eq(authSessions.tokenHash, hashSessionToken(token)));
}

/** Ends every session of a staff account; returns how many there were. */
export async function revokeStaffSessions(
  deps: Pick<Deps, "db">,
  staffUserId: string,
): Promise<number> {
  const rows = await deps.db
    .delete(authSessions)
    .where(eq(authSessions.staffUserId, staffUserId))
    .returning({ tokenHash: authSessions.tokenHash });
  return rows.length;
}

export interface SessionSummary {
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
}

/** The live sessions of a staff account, newest first (for the CLI). */
export async function listStaffSessions(
  deps: Pick<Deps, "db" | "clock">,
  staffUserId: string,
  policy: SessionPolicy = DEFAULT_SESSION_POLICY,
): Promise<SessionSummary[]> {
  const now = nowOf(deps);
  return deps.db
    .select({
      createdAt: authSessions.createdAt,
      lastSeenAt: authSessions.lastSeenAt,
      expiresAt: authSessions.expiresAt,
      ip: authSessions.ip,
      userAgent: authSessions.userAgent,
    })
    .from(authSessions)
    .where(
      and(
        eq(authSessions.staffUserId, staffUserId),
        gt(authSessions.expiresAt, now),
        gt(authSessions.lastSeenAt, new Date(now.getTime() - policy.idleMs)),
      ),
    )
    .orderBy(desc(authSessions.createdAt));
}

/** Deletes sessions past their absolute expiry (housekeeping). Idle ones go at the next pass. */
export async function purgeExpiredSessions(
  deps: Pick<Deps, "db" | "clock">,
  policy: SessionPolicy = DEFAULT_SESSION_POLICY,
): Promise<void> {
  const now = nowOf(deps);
  await deps.db
    .delete(authSessions)
    .where(
      or(
        lte(authSessions.expiresAt, now),
        lte(authSessions.lastSeenAt, new Date(now.getTime() - policy.idleMs)),
      ),
    );
}
