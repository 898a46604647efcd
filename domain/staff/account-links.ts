import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import { staffAccountLinks, staffUsers } from "#db/schema/index.ts";
import type { Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { revokeStaffSessions } from "../auth/sessions.ts";
import type { Deps } from "../deps.ts";
import { enqueueMail } from "../mail/mail-outbox.ts";
import { escapeHtml, layout, type RenderedMail } from "../mail/templates.ts";
import { consumeRateLimits, type RateLimitStore } from "../rate-limit/rate-limiter.ts";
import {
  recordSecurityEvent,
  type SecurityActor,
  type SecurityClient,
} from "../security/security-log.ts";
import { createStaffAccount, findStaffByEmail, type PasswordProblem } from "./accounts.ts";
import { checkPasswordPolicy, hashPassword } from "./passwords.ts";
import { isCompanyEmail, StaffEmailSchema, type StaffUser, toStaffUser } from "./staff-user.ts";

/**
 * The mailed one-time links of the accounts page: invitations (24 hours) and
 * password resets (1 hour). A token is 128 random bits (base64url); only its SHA-256 is stored,
 * and spending it is one guarded UPDATE (`used_at is null and expires_at > now()`) in the
 * transaction that acts on it, so a link works once.
 */
export const INVITATION_TTL_MS = 24 * 60 * 60_000;
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;

/** Forgotten-password requests: per email and per client address, one hour windows. */
export const PASSWORD_RESET_LIMITS = { perEmail: 3, perIp: 10, windowMs: 60 * 60_000 };

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{22}$/;

const hashLinkToken = (token: string) => createHash("sha256").update(token).digest("hex");

export type LinkKind = "invitation" | "password_reset";

const pathOf = (kind: LinkKind, token: string) =>
  kind === "invitation" ? `/admin/invitation/${token}` : `/admin/password-reset/${token}`;

/** The mail carrying a link, in `language`. */
export function renderAccountLinkMail(
  language: Language,
  kind: LinkKind,
  url: string,
  params: { inviter?: string } = {},
): RenderedMail {
  const t = (key: string, values: Record<string, unknown> = {}) => translate(language, key, values);
  const base =
    kind === "invitation" ? "staff.accounts.mail.invitation" : "staff.account.mail.reset";
  const subject = t(`${base}.subject`);
  const body = t(`${base}.body`, { inviter: params.inviter ?? "" });
  const expiry = t(`${base}.expiry`);
  const text = [body, "", url, "", expiry, "", t("mail.signature")].join("\n");
  const html = layout(
    language,
    subject,
    [
      `<p>${escapeHtml(body)}</p>`,
      `<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`,
      `<p>${escapeHtml(expiry)}</p>`,
      `<p>${escapeHtml(t("mail.signature"))}</p>`,
    ].join("\n"),
  );
  return { subject, text, html };
}

async function issueLink(
  db: Database,
  link: {
    kind: LinkKind;
    email: string;
    staffUserId?: string;
    isAdmin?: boolean;
    createdBy?: string;
  },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(16).toString("base64url");
  const expiresAt = new Date(
    Date.now() + (link.kind === "invitation" ? INVITATION_TTL_MS : PASSWORD_RESET_TTL_MS),
  );
  await db.insert(staffAccountLinks).values({
    tokenHash: hashLinkToken(token),
    kind: link.kind,
    email: link.email,
    staffUserId: link.staffUserId ?? null,
    isAdmin: link.isAdmin ?? false,
    createdBy: link.createdBy ?? null,
    expiresAt,
  });
  return { token, expiresAt };
}

/** The live link of this kind behind a token, or null (unknown, used or expired). */
async function findLiveLink(db: Database, kind: LinkKind, token: string) {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [row] = await db
    .select()
    .from(staffAccountLinks)
    .where(
      and(
        eq(staffAccountLinks.tokenHash, hashLinkToken(token)),
        eq(staffAccountLinks.kind, kind),
        isNull(staffAccountLinks.usedAt),
        gt(staffAccountLinks.expiresAt, sql`now()`),
      ),
    );
  return row ?? null;
}

/** Spends a live link (single use): the row, or null when it was not live any more. */
async function spendLink(db: Database, kind: LinkKind, token: string) {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [row] = await db
    .update(staffAccountLinks)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(staffAccountLinks.tokenHash, hashLinkToken(token)),
        eq(staffAccountLinks.kind, kind),
        isNull(staffAccountLinks.usedAt),
        gt(staffAccountLinks.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return row ?? null;
}

export type InviteResult =
  | { outcome: "invited"; email: string; expiresAt: Date }
  | { outcome: "invalid_email" }
  | { outcome: "wrong_domain"; domain: string }
  | { outcome: "exists" };

/**
 * An admin invites a colleague at the company domain: the link is mailed (in the inviting
 * admin's language), never shown to the admin. An address with an account already is refused.
 */
export async function inviteStaff(
  deps: Pick<Deps, "db">,
  input: {
    email: string;
    isAdmin: boolean;
    admin: StaffUser;
    adminEmailDomain: string;
    publicUrl: string;
    client?: SecurityClient;
  },
): Promise<InviteResult> {
  const parsed = StaffEmailSchema.safeParse(input.email);
  if (!parsed.success) return { outcome: "invalid_email" };
  const email = parsed.data;
  if (!isCompanyEmail(email, input.adminEmailDomain))
    return { outcome: "wrong_domain", domain: input.adminEmailDomain };
  if (await findStaffByEmail(deps, email)) return { outcome: "exists" };
  return withTransaction(deps.db, async (db) => {
    const { token, expiresAt } = await issueLink(db, {
      kind: "invitation",
      email,
      isAdmin: input.isAdmin,
      createdBy: input.admin.id,
    });
    const url = `${input.publicUrl}${pathOf("invitation", token)}`;
    const mail = renderAccountLinkMail(input.admin.language, "invitation", url, {
      inviter: input.admin.displayName,
    });
    await enqueueMail(db, [{ ...mail, template: "staff-invitation", recipient: email }]);
    await recordSecurityEvent(db, {
      type: "account.invited",
      actor: actorOf(input.admin),
      client: input.client,
      data: { targetEmail: email, isAdmin: input.isAdmin },
    });
    return { outcome: "invited", email, expiresAt } as const;
  });
}

/** The invitation behind a token, for the invitation page: its email, or null. */
export async function checkInvitation(
  deps: Pick<Deps, "db">,
  token: string,
): Promise<{ email: string; expiresAt: Date } | null> {
  const row = await findLiveLink(deps.db, "invitation", token);
  return row ? { email: row.email, expiresAt: row.expiresAt } : null;
}

export type AcceptInvitationResult =
  | { outcome: "created"; user: StaffUser }
  | { outcome: "link_invalid" }
  | { outcome: "exists" }
  | { outcome: "weak_password"; problem: PasswordProblem };

/**
 * The invitee sets their name and password: the link is spent and the account created in one
 * transaction (a failed policy check leaves the link usable, since nothing commits).
 */
export async function acceptInvitation(
  deps: Pick<Deps, "db">,
  input: {
    token: string;
    displayName: string;
    password: string;
    language: Language;
    client?: SecurityClient;
  },
): Promise<AcceptInvitationResult> {
  class Rollback extends Error {
    readonly result: AcceptInvitationResult;
    constructor(result: AcceptInvitationResult) {
      super("rollback");
      this.result = result;
    }
  }
  try {
    return await withTransaction(deps.db, async (db) => {
      const link = await spendLink(db, "invitation", input.token);
      if (!link) return { outcome: "link_invalid" } as const;
      const created = await createStaffAccount(
        { db },
        {
          email: link.email,
          password: input.password,
          displayName: input.displayName,
          isAdmin: link.isAdmin,
          language: input.language,
        },
      );
      if (created.outcome === "weak_password") throw new Rollback(created);
      if (created.outcome !== "created") throw new Rollback({ outcome: "exists" });
      const actor: SecurityActor = actorOf(created.user);
      const data = { targetId: created.user.id, targetEmail: created.user.email };
      await recordSecurityEvent(db, {
        type: "account.invitation_used",
        actor,
        client: input.client,
        data,
      });
      await recordSecurityEvent(db, {
        type: "account.created",
        actor,
        client: input.client,
        data: { ...data, isAdmin: created.user.isAdmin, invitedBy: link.createdBy },
      });
      return created;
    });
  } catch (error) {
    if (error instanceof Rollback) return error.result;
    throw error;
  }
}

function actorOf(user: StaffUser): SecurityActor {
  return { kind: "staff", staffUserId: user.id, email: user.email };
}

/** Mails a reset link to an account (in its language) and logs the request. */
async function mailResetLink(
  db: Database,
  account: StaffUser,
  publicUrl: string,
  event: { actor: SecurityActor; client?: SecurityClient },
) {
  const { token } = await issueLink(db, {
    kind: "password_reset",
    email: account.email,
    staffUserId: account.id,
  });
  const url = `${publicUrl}${pathOf("password_reset", token)}`;
  const mail = renderAccountLinkMail(account.language, "password_reset", url);
  await enqueueMail(db, [{ ...mail, template: "staff-password-reset", recipient: account.email }]);
  await recordSecurityEvent(db, {
    type: "account.password_reset_requested",
    actor: event.actor,
    client: event.client,
    data: { targetId: account.id, targetEmail: account.email },
  });
}

/** An admin sends someone a reset link: the admin never sees it. False: no such account. */
export async function sendPasswordResetLink(
  deps: Pick<Deps, "db">,
  input: { staffUserId: string; admin: StaffUser; publicUrl: string; client?: SecurityClient },
): Promise<boolean> {
  return withTransaction(deps.db, async (db) => {
    const [row] = await db.select().from(staffUsers).where(eq(staffUsers.id, input.staffUserId));
    if (!row) return false;
    await mailResetLink(db, toStaffUser(row), input.publicUrl, {
      actor: actorOf(input.admin),
      client: input.client,
    });
    return true;
  });
}

export interface PasswordResetLimits {
  store: RateLimitStore;
  perEmail: number;
  perIp: number;
  windowMs: number;
}

export type ForgottenPasswordResult =
  | { outcome: "accepted" }
  | { outcome: "rate_limited"; retryAfterSeconds: number }
  | { outcome: "unavailable" };

/**
 * "Forgotten password": counts the request against the email from this address, the email
 * from everywhere (five times as many) and the address first, then mails
 * a link only when an enabled account has this email. The answer is `accepted` either way, so it
 * tells nobody whether the account exists.
 */
export async function requestPasswordReset(
  deps: Pick<Deps, "db" | "log">,
  limits: PasswordResetLimits,
  input: { email: string; publicUrl: string; client?: SecurityClient },
): Promise<ForgottenPasswordResult> {
  const email = input.email.trim().toLowerCase();
  let retryAfterSeconds: number;
  try {
    const ip = input.client?.ip ?? "unknown";
    retryAfterSeconds = await consumeRateLimits(limits.store, [
      // Per email from one address: a stranger elsewhere cannot use up the person's own tries.
      {
        name: "password-reset-email-ip",
        max: limits.perEmail,
        windowMs: limits.windowMs,
        key: `${email}|${ip}`,
      },
      // Per email from everywhere, higher: bounds the mail one inbox can be sent.
      {
        name: "password-reset-email",
        max: limits.perEmail * 5,
        windowMs: limits.windowMs,
        key: email,
      },
      {
        name: "password-reset-ip",
        max: limits.perIp,
        windowMs: limits.windowMs,
        key: ip,
      },
    ]);
  } catch (error) {
    deps.log.error({ err: error }, "password reset limiter unavailable; request refused");
    return { outcome: "unavailable" };
  }
  if (retryAfterSeconds > 0) return { outcome: "rate_limited", retryAfterSeconds };
  const account = await findStaffByEmail(deps, email);
  if (!account || account.disabled) return { outcome: "accepted" };
  const { passwordHash: _hash, ...user } = account;
  await withTransaction(deps.db, (db) =>
    mailResetLink(db, user, input.publicUrl, {
      actor: { kind: "anonymous", email },
      client: input.client,
    }),
  );
  return { outcome: "accepted" };
}

export type CompleteResetResult =
  | { outcome: "done"; user: StaffUser }
  | { outcome: "link_invalid" }
  | { outcome: "weak_password"; problem: PasswordProblem };

/**
 * Sets a new password from a reset link: the link is spent, every session of the account ends
 * (whoever had the old password is out), and the other reset links of the account die too.
 */
export async function completePasswordReset(
  deps: Pick<Deps, "db" | "passwordCost">,
  input: { token: string; password: string; client?: SecurityClient },
): Promise<CompleteResetResult> {
  const live = await findLiveLink(deps.db, "password_reset", input.token);
  if (!live) return { outcome: "link_invalid" };
  const policy = checkPasswordPolicy(input.password, { email: live.email });
  if (!policy.ok) return { outcome: "weak_password", problem: policy.reason };
  const passwordHash = await hashPassword(input.password, deps.passwordCost);
  return withTransaction(deps.db, async (db) => {
    const link = await spendLink(db, "password_reset", input.token);
    if (!link?.staffUserId) return { outcome: "link_invalid" } as const;
    const [row] = await db
      .update(staffUsers)
      .set({ passwordHash, updatedAt: sql`now()` })
      .where(eq(staffUsers.id, link.staffUserId))
      .returning();
    if (!row) return { outcome: "link_invalid" } as const;
    await db
      .update(staffAccountLinks)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(staffAccountLinks.staffUserId, row.id),
          eq(staffAccountLinks.kind, "password_reset"),
          isNull(staffAccountLinks.usedAt),
        ),
      );
    const ended = await revokeStaffSessions({ db }, row.id);
    const user = toStaffUser(row);
    await recordSecurityEvent(db, {
      type: "account.password_reset",
      actor: actorOf(user),
      client: input.client,
      data: { targetId: user.id, targetEmail: user.email, sessionsEnded: ended },
    });
    return { outcome: "done", user } as const;
  });
}
