import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { type Database, withTransaction } from "#db/client.ts";
import { staffSetupTokens, staffUsers } from "#db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { createStaffAccount, type PasswordProblem } from "./accounts.ts";
import type { StaffSetup } from "./setup.schema.ts";
import { isCompanyEmail, type StaffUser } from "./staff-user.ts";

/** A setup link works this long after the server printed it. */
export const SETUP_LINK_TTL_MS = 24 * 60 * 60_000;

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{22}$/;

function hashSetupToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Whether an enabled admin at the company domain exists: someone who can use the staff area.
 * Until one does, nobody can let anyone in, so a setup link is offered.
 */
async function hasCompanyAdmin(db: Database, adminEmailDomain: string): Promise<boolean> {
  const [admin] = await db
    .select({ id: staffUsers.id })
    .from(staffUsers)
    .where(
      and(
        eq(staffUsers.isAdmin, true),
        eq(staffUsers.disabled, false),
        sql`lower(${staffUsers.email}) like ${`%@${adminEmailDomain.toLowerCase()}`}`,
      ),
    )
    .limit(1);
  return Boolean(admin);
}

/**
 * While no enabled admin at the company domain exists (a fresh installation), makes a one-time
 * setup token (128 bits; only its hash is stored) and returns it so the server can print the
 * link once. Returns null once such an admin exists.
 */
export async function issueSetupToken(
  deps: Pick<Deps, "db">,
  adminEmailDomain: string,
): Promise<string | null> {
  if (await hasCompanyAdmin(deps.db, adminEmailDomain)) return null;
  const token = randomBytes(16).toString("base64url");
  await deps.db.insert(staffSetupTokens).values({
    tokenHash: hashSetupToken(token),
    expiresAt: new Date(Date.now() + SETUP_LINK_TTL_MS),
  });
  return token;
}

/** Whether a setup token can still be used (the setup page asks before showing its form). */
export async function isSetupTokenUsable(
  deps: Pick<Deps, "db">,
  token: string,
  adminEmailDomain: string,
): Promise<boolean> {
  if (!TOKEN_SHAPE.test(token)) return false;
  const [row] = await deps.db
    .select({ tokenHash: staffSetupTokens.tokenHash })
    .from(staffSetupTokens)
    .where(
      and(
        eq(staffSetupTokens.tokenHash, hashSetupToken(token)),
        isNull(staffSetupTokens.usedAt),
        gt(staffSetupTokens.expiresAt, sql`now()`),
      ),
    );
  if (!row) return false;
  return !(await hasCompanyAdmin(deps.db, adminEmailDomain));
}

export type SetupResult =
  | { outcome: "created"; user: StaffUser }
  | { outcome: "link_invalid" }
  | { outcome: "invalid_email" }
  | { outcome: "duplicate" }
  | { outcome: "wrong_domain"; domain: string }
  | { outcome: "weak_password"; problem: PasswordProblem };

/**
 * Creates the first admin from a setup link, in one transaction: the token is spent and the
 * account created together, and only while no admin at the company domain exists (a second
 * tab, or a second instance's link, cannot make a second "first" admin).
 */
export async function completeStaffSetup(
  deps: Pick<Deps, "db">,
  input: StaffSetup,
  adminEmailDomain: string,
): Promise<SetupResult> {
  if (!TOKEN_SHAPE.test(input.token)) return { outcome: "link_invalid" };
  if (!isCompanyEmail(input.email.trim(), adminEmailDomain))
    return z.email().safeParse(input.email.trim()).success
      ? { outcome: "wrong_domain", domain: adminEmailDomain }
      : { outcome: "invalid_email" };
  return withTransaction(deps.db, async (db) => {
    // Serialises concurrent setups: the spent token row is locked until this commits.
    const [token] = await db
      .update(staffSetupTokens)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(staffSetupTokens.tokenHash, hashSetupToken(input.token)),
          isNull(staffSetupTokens.usedAt),
          gt(staffSetupTokens.expiresAt, sql`now()`),
        ),
      )
      .returning({ tokenHash: staffSetupTokens.tokenHash });
    if (!token) return { outcome: "link_invalid" } as const;
    await db.execute(sql`lock table ${staffUsers} in share row exclusive mode`);
    if (await hasCompanyAdmin(db, adminEmailDomain)) return { outcome: "link_invalid" } as const;
    const created = await createStaffAccount(
      { db },
      {
        email: input.email,
        password: input.password,
        displayName: input.displayName,
        isAdmin: true,
        language: input.language,
      },
    );
    if (created.outcome !== "created") {
      // Nothing written: the token stays usable for the corrected form.
      await db
        .update(staffSetupTokens)
        .set({ usedAt: null })
        .where(eq(staffSetupTokens.tokenHash, token.tokenHash));
      return created;
    }
    // Every other outstanding link dies with the first admin.
    await db
      .update(staffSetupTokens)
      .set({ usedAt: sql`now()` })
      .where(isNull(staffSetupTokens.usedAt));
    return created;
  });
}
