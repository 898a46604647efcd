import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { eq } from "drizzle-orm";
import { staffUsers } from "#db/schema/index.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { recordSecurityEvent, type SecurityClient } from "../security/security-log.ts";
import { type StaffUser, staffAccessOf, toStaffUser } from "../staff/staff-user.ts";
import { finishPasskeyAuthentication, type RelyingParty } from "./passkeys.ts";
import { advanceSessionStage, createSession, type SessionPolicy } from "./sessions.ts";

/** Passkey sign-in for staff and owners. */

export type StaffPasskeySignIn =
  | { outcome: "signed_in"; user: StaffUser; token: string; expiresAt: Date }
  /** `token`: the session's new token (renewed as it becomes complete), for the cookie. */
  | { outcome: "second_step_done"; user: StaffUser; token: string }
  | { outcome: "refused" };

/**
 * Signs a staff member in with a passkey. `secondStep` names a session at `second_factor`
 * (the password was right): the assertion must be that account's and the session becomes
 * complete. Without it (passkey-first) the passkey alone, user-verified, opens a new complete
 * session. A disabled account, or one that may not open the staff area, is refused.
 */
export async function signInStaffWithPasskey(
  deps: Pick<Deps, "db" | "log" | "clock">,
  rp: RelyingParty,
  input: {
    response: AuthenticationResponseJSON;
    adminEmailDomain: string;
    client: SecurityClient;
    policy?: SessionPolicy;
    secondStep?: { token: string; user: StaffUser };
  },
): Promise<StaffPasskeySignIn> {
  const { secondStep, client } = input;
  const result = await finishPasskeyAuthentication(
    deps,
    rp,
    "staff",
    input.response,
    secondStep
      ? { role: "staff", staffUserId: secondStep.user.id, email: secondStep.user.email }
      : undefined,
  );
  const staffUserId = result.outcome === "verified" ? result.passkey.staffUserId : null;
  const [row] = staffUserId
    ? await deps.db.select().from(staffUsers).where(eq(staffUsers.id, staffUserId))
    : [];
  const user = row ? toStaffUser(row) : null;
  if (
    result.outcome !== "verified" ||
    !user ||
    user.disabled ||
    staffAccessOf(user, input.adminEmailDomain) !== "granted"
  ) {
    await recordSecurityEvent(deps.db, {
      type: "sign_in.failed",
      actor: user
        ? { kind: "staff", staffUserId: user.id, email: user.email }
        : secondStep
          ? { kind: "staff", staffUserId: secondStep.user.id, email: secondStep.user.email }
          : { kind: "anonymous" },
      client,
      data: { reason: "passkey", ...(user?.disabled ? { disabled: true } : {}) },
    });
    return { outcome: "refused" };
  }
  const passkey = { method: "passkey", name: result.passkey.name };
  if (secondStep) {
    const moved = await advanceSessionStage(deps, secondStep.token, "second_factor", "complete");
    if (!moved) return { outcome: "refused" };
    await recordSecurityEvent(deps.db, {
      type: "second_factor.used",
      actor: { kind: "staff", staffUserId: user.id, email: user.email },
      client,
      data: passkey,
    });
    return { outcome: "second_step_done", user, token: moved.token };
  }
  const session = await createSession(
    deps,
    { role: "staff", staffUserId: user.id },
    { ip: client.ip ?? undefined, userAgent: client.userAgent ?? undefined },
    input.policy,
  );
  await deps.db
    .update(staffUsers)
    .set({ lastLoginAt: nowOf(deps) })
    .where(eq(staffUsers.id, user.id));
  await recordSecurityEvent(deps.db, {
    type: "sign_in.succeeded",
    actor: { kind: "staff", staffUserId: user.id, email: user.email },
    client,
    data: passkey,
  });
  return { outcome: "signed_in", user, ...session };
}

export type OwnerPasskeySignIn =
  | { outcome: "signed_in"; ownerEmail: string; token: string; expiresAt: Date }
  | { outcome: "refused" };

/** Signs an owner in with a passkey: an owner session for the passkey's email. */
export async function signInOwnerWithPasskey(
  deps: Pick<Deps, "db" | "log" | "clock">,
  rp: RelyingParty,
  input: { response: AuthenticationResponseJSON; client: SecurityClient; policy?: SessionPolicy },
): Promise<OwnerPasskeySignIn> {
  const { client } = input;
  const result = await finishPasskeyAuthentication(deps, rp, "owner", input.response);
  const ownerEmail = result.outcome === "verified" ? result.passkey.ownerEmail : null;
  if (result.outcome !== "verified" || !ownerEmail) {
    await recordSecurityEvent(deps.db, {
      type: "sign_in.failed",
      actor: { kind: "anonymous" },
      client,
      data: { reason: "passkey", role: "owner" },
    });
    return { outcome: "refused" };
  }
  const session = await createSession(
    deps,
    { role: "owner", ownerEmail },
    { ip: client.ip ?? undefined, userAgent: client.userAgent ?? undefined },
    input.policy,
  );
  await recordSecurityEvent(deps.db, {
    type: "owner.signed_in",
    actor: { kind: "owner", email: ownerEmail },
    client,
    data: { method: "passkey", name: result.passkey.name },
  });
  return { outcome: "signed_in", ownerEmail, ...session };
}
