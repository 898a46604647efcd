import { randomUUID } from "node:crypto";
import { asc, count, eq, sql } from "drizzle-orm";
import { withTransaction } from "#db/client.ts";
import { staffUsers } from "#db/schema/index.ts";
import type { Language } from "#i18n/config.ts";
import { revokeStaffSessions } from "../auth/sessions.ts";
import type { Deps } from "../deps.ts";
import { checkPasswordPolicy, hashPassword } from "./passwords.ts";
import { StaffEmailSchema, type StaffUser, toStaffUser } from "./staff-user.ts";

export type PasswordProblem = "tooShort" | "tooLong" | "common" | "containsEmail";

export type CreateStaffResult =
  | { outcome: "created"; user: StaffUser }
  | { outcome: "invalid_email" }
  | { outcome: "duplicate" }
  | { outcome: "weak_password"; problem: PasswordProblem };

export interface NewStaffAccount {
  email: string;
  password: string;
  displayName?: string;
  isAdmin?: boolean;
  language?: Language;
}

/** Creates a staff account: a valid, unused email and a password that passes the policy. */
export async function createStaffAccount(
  deps: Pick<Deps, "db" | "passwordCost">,
  input: NewStaffAccount,
): Promise<CreateStaffResult> {
  const email = StaffEmailSchema.safeParse(input.email);
  if (!email.success) return { outcome: "invalid_email" };
  const policy = checkPasswordPolicy(input.password, { email: email.data });
  if (!policy.ok) return { outcome: "weak_password", problem: policy.reason };
  const passwordHash = await hashPassword(input.password, deps.passwordCost);
  const [row] = await deps.db
    .insert(staffUsers)
    .values({
      id: randomUUID(),
      email: email.data,
      displayName: input.displayName?.trim() || email.data.split("@")[0] || email.data,
      isAdmin: input.isAdmin ?? false,
      language: input.language ?? "en",
      passwordHash,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) return { outcome: "duplicate" };
  return { outcome: "created", user: toStaffUser(row) };
}

/** The account with this email (any case), or null. */
export async function findStaffByEmail(
  deps: Pick<Deps, "db">,
  email: string,
): Promise<(StaffUser & { passwordHash: string }) | null> {
  const [row] = await deps.db
    .select()
    .from(staffUsers)
    .where(eq(sql`lower(${staffUsers.email})`, email.trim().toLowerCase()));
  return row ? { ...toStaffUser(row), passwordHash: row.passwordHash } : null;
}

/** Every staff account, by email. */
export async function listStaffAccounts(deps: Pick<Deps, "db">): Promise<StaffUser[]> {
  const rows = await deps.db.select().from(staffUsers).orderBy(asc(staffUsers.email));
  return rows.map(toStaffUser);
}

export async function countStaffAccounts(deps: Pick<Deps, "db">): Promise<number> {
  const [row] = await deps.db.select({ n: count() }).from(staffUsers);
  return row?.n ?? 0;
}

export type AccountChangeResult = { outcome: "done"; user: StaffUser } | { outcome: "not_found" };

/**
 * Disables or enables an account. Disabling ends its sessions in the same transaction, so
 * nothing it had open keeps working (the session check also refuses disabled accounts).
 */
export async function setStaffDisabled(
  deps: Pick<Deps, "db">,
  email: string,
  disabled: boolean,
): Promise<AccountChangeResult> {
  return withTransaction(deps.db, async (db) => {
    const [row] = await db
      .update(staffUsers)
      .set({ disabled, updatedAt: sql`now()` })
      .where(eq(sql`lower(${staffUsers.email})`, email.trim().toLowerCase()))
      .returning();
    if (!row) return { outcome: "not_found" } as const;
    if (disabled) await revokeStaffSessions({ db }, row.id);
    return { outcome: "done", user: toStaffUser(row) } as const;
  });
}

export type ResetPasswordResult =
  AccountChangeResult | { outcome: "weak_password"; problem: PasswordProblem };

/** Sets a new password and ends every session of the account (they were opened with the old one). */
export async function resetStaffPassword(
  deps: Pick<Deps, "db" | "passwordCost">,
  email: string,
  password: string,
): Promise<ResetPasswordResult> {
  const policy = checkPasswordPolicy(password, { email });
  if (!policy.ok) return { outcome: "weak_password", problem: policy.reason };
  const passwordHash = await hashPassword(password, deps.passwordCost);
  return withTransaction(deps.db, async (db) => {
    const [row] = await db
      .update(staffUsers)
      .set({ passwordHash, updatedAt: sql`now()` })
      .where(eq(sql`lower(${staffUsers.email})`, email.trim().toLowerCase()))
      .returning();
    if (!row) return { outcome: "not_found" } as const;
    await revokeStaffSessions({ db }, row.id);
    return { outcome: "done", user: toStaffUser(row) } as const;
  });
}

/** Remembers the language a staff member chose for the staff area. */
export async function setStaffLanguage(
  deps: Pick<Deps, "db">,
  staffUserId: string,
  language: Language,
): Promise<void> {
  await deps.db
    .update(staffUsers)
    .set({ language, updatedAt: sql`now()` })
    .where(eq(staffUsers.id, staffUserId));
}
