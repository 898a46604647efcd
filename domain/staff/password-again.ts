import { eq } from "drizzle-orm";
import { staffUsers } from "#db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { recordSecurityEvent, type SecurityClient } from "../security/security-log.ts";
import { countLoginTry, type LoginLimits, refundLoginTry } from "./login.ts";
import { verifyPassword } from "./passwords.ts";
import type { StaffUser } from "./staff-user.ts";

/** What the password was asked again for, as the security log names it. */
export type PasswordAgainAction =
  | "totp_enrolment"
  | "totp_removal"
  | "recovery_codes"
  | "passkey_registration"
  | "passkey_removal"
  | "password_change";

export type PasswordAgain =
  | "right"
  | "wrong"
  | { retryAfterSeconds: number }
  /** The counters could not be reached: refused, never checked unmetered. */
  | "unavailable";

/**
 * Checks a signed-in person's password again before a factor or the password itself changes.
 * Each try counts on the sign-in's own counters of the account (from this address, and from
 * every address), so a stolen session cannot guess the password faster here than at sign-in;
 * a right password gives its try back, as at sign-in. Every refusal is in the security log.
 */
export async function checkPasswordAgain(
  deps: Pick<Deps, "db" | "log">,
  limits: LoginLimits,
  input: {
    user: Pick<StaffUser, "id" | "email">;
    password: string;
    action: PasswordAgainAction;
    client: SecurityClient;
  },
): Promise<PasswordAgain> {
  const email = input.user.email.toLowerCase();
  const actor = { kind: "staff", staffUserId: input.user.id, email } as const;
  const ip = input.client.ip ?? "unknown";
  let counted: Awaited<ReturnType<typeof countLoginTry>>;
  try {
    counted = await countLoginTry(limits, email, ip);
  } catch (error) {
    deps.log.error({ err: error }, "login limiter unavailable; password check refused");
    return "unavailable";
  }
  if (counted.retryAfterSeconds > 0) {
    await recordSecurityEvent(deps.db, {
      type: "password_again.failed",
      actor,
      client: input.client,
      data: { reason: "rate_limited", action: input.action },
    });
    return { retryAfterSeconds: counted.retryAfterSeconds };
  }
  const [row] = await deps.db
    .select({ passwordHash: staffUsers.passwordHash })
    .from(staffUsers)
    .where(eq(staffUsers.id, input.user.id));
  if (row && (await verifyPassword(row.passwordHash, input.password))) {
    await refundLoginTry(limits, email, ip).catch((error: unknown) =>
      deps.log.warn({ err: error }, "a right password's try could not be given back"),
    );
    return "right";
  }
  await recordSecurityEvent(deps.db, {
    type: "password_again.failed",
    actor,
    client: input.client,
    data: { reason: "wrong_password", action: input.action },
  });
  return "wrong";
}
