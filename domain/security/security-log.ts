import { sql } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { securityEvents } from "#db/schema/index.ts";

/**
 * Every kind of entry in the security log (ASVS 16.3). A new kind is added here first,
 * so the admin page's filter and the export know it.
 */
export const SECURITY_EVENT_TYPES = [
  // Staff sign-in
  "sign_in.succeeded",
  /** data.reason: unknown_account | wrong_password | disabled | rate_limited | second_factor */
  "sign_in.failed",
  "sign_out",
  /** data.method: totp | passkey */
  "second_factor.used",
  "recovery_code.used",
  /** data.method: totp | passkey | recovery_codes */
  "factor.added",
  "factor.removed",
  /** An account or an address was throttled: data.scope (account | address), data.seconds. */
  "lockout",
  /** A signed-in person's password asked again was wrong or throttled: data.reason, data.action. */
  "password_again.failed",
  // Refused access to a staff or owner call: data.status (401 | 403), data.method, data.path, and
  // data.stage when a sign-in short of its second factor asked for it.
  "access.refused",
  // Accounts (data.targetEmail / data.targetId name the account acted on)
  "account.created",
  "account.invited",
  "account.invitation_used",
  "account.disabled",
  "account.enabled",
  "account.admin_granted",
  "account.admin_removed",
  "account.sessions_ended",
  "account.password_changed",
  "account.password_reset_requested",
  "account.password_reset",
  "account.mfa_reset",
  // Data leaving: data.export (inbox | catalogue | security-events), data.filters
  "export.csv",
  // Owners (actor email: the owner's address)
  "owner.code_requested",
  "owner.code_failed",
  "owner.claimed",
  "owner.signed_in",
  // Integrations: data.action (created | deleted | paused | resumed | rotated | …), data.id
  "calendar_feed.changed",
  "webhook.changed",
  // Guests' rights: data.reason, data.requests, data.references (never the guest's address)
  "personal_data.erased",
  // data.subject: the address looked up (accountability for access to a guest's data)
  "personal_data.viewed",
  // data.subject, data.language: a copy of a guest's data made to be sent to them
  "personal_data.exported",
] as const;
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

export type SecurityActor =
  | { kind: "staff"; staffUserId: string; email: string }
  | { kind: "owner"; email: string }
  | { kind: "anonymous"; email?: string }
  | { kind: "system" };

/** The client a request came from, as the server saw it (after the trusted proxies). */
export interface SecurityClient {
  ip?: string | null;
  userAgent?: string | null;
}

export interface SecurityEvent {
  type: SecurityEventType;
  actor: SecurityActor;
  client?: SecurityClient;
  /** What happened beyond the type. Never a password, code, token or secret. */
  data?: Record<string, unknown>;
}

/**
 * Appends an entry to the security log. Pass the transaction that makes the change where there
 * is one, so the entry exists exactly when the change committed; a failed sign-in has none and
 * uses the pool.
 */
export async function recordSecurityEvent(db: Database, event: SecurityEvent): Promise<void> {
  const { actor } = event;
  await db.insert(securityEvents).values({
    type: event.type,
    actorKind: actor.kind,
    staffUserId: actor.kind === "staff" ? actor.staffUserId : null,
    actorEmail:
      actor.kind === "staff" || actor.kind === "owner"
        ? actor.email.toLowerCase()
        : actor.kind === "anonymous" && actor.email
          ? actor.email.trim().toLowerCase().slice(0, 320)
          : null,
    ip: event.client?.ip?.slice(0, 64) ?? null,
    userAgent: event.client?.userAgent?.slice(0, 300) ?? null,
    data: event.data ?? {},
  });
}

/**
 * Deletes entries older than `retentionDays` and returns how many went. The only delete the
 * table's triggers let through: the setting is local to this transaction.
 */
export async function pruneSecurityEvents(db: Database, retentionDays: number): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('castellum.security_events_prune', 'on', true)`);
    const rows = await tx
      .delete(securityEvents)
      .where(sql`${securityEvents.at} < now() - make_interval(days => ${retentionDays})`)
      .returning({ id: securityEvents.id });
    return rows.length;
  });
}
