import { createHash, randomInt } from "node:crypto";
import { and, count, eq, isNull } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { staffRecoveryCodes } from "#db/schema/index.ts";
import { nowOf } from "#domain/clock.ts";
import type { Deps } from "#domain/deps.ts";

/** Codes per batch. */
export const RECOVERY_CODES_PER_BATCH = 10;
/**
 * 24 characters of a 32-letter alphabet: 120 random bits, too many to try offline even with the
 * database in hand, so an unsalted SHA-256 is enough to keep (a slow hash adds nothing at this
 * size). Codes of 12 (60 bits) were issued before; they still work once each until the person
 * makes a new batch, so nobody with printed codes is locked out.
 */
const CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz023456789"; // no i, l, o, 1: nothing to misread
const CODE_LENGTH = 24;
const EARLIER_CODE_LENGTH = 12;

function hashRecoveryCode(normalised: string): string {
  return createHash("sha256").update(normalised).digest("hex");
}

/** Lowercase, without the hyphens and spaces people copy along; null when it cannot be one. */
export function normaliseRecoveryCode(code: string): string | null {
  const plain = code.toLowerCase().replace(/[\s-]+/g, "");
  return (plain.length === CODE_LENGTH || plain.length === EARLIER_CODE_LENGTH) &&
    [...plain].every((c) => CODE_ALPHABET.includes(c))
    ? plain
    : null;
}

function newRecoveryCode(): string {
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code.match(/.{4}/g)!.join("-");
}

/**
 * Replaces the account's recovery codes with a new batch of 10 and returns them (shown once:
 * only their hashes are kept). Pass the transaction that adds the factor where there is one.
 */
export async function replaceRecoveryCodes(db: Database, staffUserId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES_PER_BATCH }, newRecoveryCode);
  await db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffUserId, staffUserId));
  await db.insert(staffRecoveryCodes).values(
    codes.map((code) => ({
      staffUserId,
      codeHash: hashRecoveryCode(normaliseRecoveryCode(code)!),
    })),
  );
  return codes;
}

/** How many unused recovery codes the account has left. */
export async function countUnusedRecoveryCodes(
  deps: Pick<Deps, "db">,
  staffUserId: string,
): Promise<number> {
  const [row] = await deps.db
    .select({ n: count() })
    .from(staffRecoveryCodes)
    .where(and(eq(staffRecoveryCodes.staffUserId, staffUserId), isNull(staffRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

/**
 * Spends one recovery code: one guarded UPDATE (`used_at IS NULL`), so it works once, even
 * when two instances receive it at the same moment. Returns whether it was accepted.
 */
export async function useRecoveryCode(
  deps: Pick<Deps, "db" | "clock">,
  staffUserId: string,
  code: string,
): Promise<boolean> {
  const normalised = normaliseRecoveryCode(code);
  if (!normalised) return false;
  const rows = await deps.db
    .update(staffRecoveryCodes)
    .set({ usedAt: nowOf(deps) })
    .where(
      and(
        eq(staffRecoveryCodes.staffUserId, staffUserId),
        eq(staffRecoveryCodes.codeHash, hashRecoveryCode(normalised)),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: staffRecoveryCodes.id });
  return rows.length === 1;
}

/** Deletes every recovery code of the account; returns how many there were. */
export async function deleteRecoveryCodes(db: Database, staffUserId: string): Promise<number> {
  const rows = await db
    .delete(staffRecoveryCodes)
    .where(eq(staffRecoveryCodes.staffUserId, staffUserId))
    .returning({ id: staffRecoveryCodes.id });
  return rows.length;
}
