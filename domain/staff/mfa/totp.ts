import { createHash } from "node:crypto";
import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import { staffTotp } from "#db/schema/index.ts";
import { getOrCreateSecret } from "#domain/app-secrets.ts";
// The AES-256-GCM seal of the guests' status tokens, under a key of its own here.
import {
  openStatusToken as openSealed,
  sealStatusToken as seal,
} from "#domain/conversation/status-link.ts";
import { nowOf } from "#domain/clock.ts";
import type { Deps } from "#domain/deps.ts";

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;
/** One step either side of now is accepted (a slow typist, a clock a little off). */
const TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;
const ISSUER = "Castellum";
const SECRET_NAME = "staff-totp-key";

/**
 * The 256-bit keys that may open a sealed TOTP secret, the one to seal with first: the key
 * from the environment (APP_SECRETS_KEY) when there is one, then the application secret kept
 * in the database, which sealed the secrets enrolled before the environment's key was set.
 */
async function totpKeys(deps: Pick<Deps, "db" | "secretsKey">): Promise<Buffer[]> {
  const stored = createHash("sha256")
    .update(await getOrCreateSecret(deps, SECRET_NAME))
    .digest();
  if (!deps.secretsKey) return [stored];
  const outside = createHash("sha256").update(`${SECRET_NAME}:${deps.secretsKey}`).digest();
  return [outside, stored];
}

/** The key that seals a new TOTP secret. */
const sealingKey = async (deps: Pick<Deps, "db" | "secretsKey">) => (await totpKeys(deps))[0]!;

/** A sealed TOTP secret opened with whichever key sealed it, or null. */
async function openTotpSecret(deps: Pick<Deps, "db" | "secretsKey">, sealed: string) {
  for (const key of await totpKeys(deps)) {
    const secret = openSealed(key, sealed);
    if (secret) return secret;
  }
  return null;
}

export interface TotpEnrolment {
  /** Base32, for typing into an app by hand. */
  secret: string;
  otpauthUrl: string;
  /** The otpauth URL as a QR code, an SVG document drawn here (no outside service). */
  qrSvg: string;
}

/** Whether the account has a confirmed authenticator app. */
export async function hasConfirmedTotp(deps: Pick<Deps, "db">, staffUserId: string) {
  const [row] = await deps.db
    .select({ confirmedAt: staffTotp.confirmedAt })
    .from(staffTotp)
    .where(eq(staffTotp.staffUserId, staffUserId));
  return Boolean(row?.confirmedAt);
}

/**
 * Starts (or restarts) adding an authenticator app: a new secret, kept sealed and unconfirmed
 * until `confirmTotpEnrolment` sees a right code. Refused while a confirmed one exists (remove
 * it first), so a half-made enrolment never replaces a working factor.
 */
export async function startTotpEnrolment(
  deps: Pick<Deps, "db" | "secretsKey" | "clock">,
  account: { id: string; email: string },
): Promise<{ outcome: "started"; enrolment: TotpEnrolment } | { outcome: "already_enrolled" }> {
  if (await hasConfirmedTotp(deps, account.id)) return { outcome: "already_enrolled" };
  const secret = generateSecret();
  const sealedSecret = seal(await sealingKey(deps), secret);
  const rows = await deps.db
    .insert(staffTotp)
    .values({ staffUserId: account.id, sealedSecret, createdAt: nowOf(deps) })
    .onConflictDoUpdate({
      target: staffTotp.staffUserId,
      set: { sealedSecret, lastUsedStep: null, createdAt: nowOf(deps) },
      // A confirmed row that appeared meanwhile is left alone.
      setWhere: isNull(staffTotp.confirmedAt),
    })
    .returning({ id: staffTotp.staffUserId });
  if (rows.length === 0) return { outcome: "already_enrolled" };
  const otpauthUrl = generateURI({ issuer: ISSUER, label: account.email, secret });
  const qrSvg = await QRCode.toString(otpauthUrl, {
    type: "svg",
    margin: 2,
    errorCorrectionLevel: "M",
  });
  return { outcome: "started", enrolment: { secret, otpauthUrl, qrSvg } };
}

/** Six digits, spaces ignored ("123 456" as apps show it). */
export function normaliseTotpCode(code: string): string | null {
  const digits = code.replace(/\s+/g, "");
  return /^\d{6}$/.test(digits) ? digits : null;
}

/**
 * Checks a code against the account's secret (confirmed or, with `pending`, not yet) and, when
 * right, moves `last_used_step` forward in one guarded UPDATE: a code (or an older one) already
 * accepted is refused, on any instance. The step is the one `deps.clock` is in.
 */
export async function acceptTotpCode(
  deps: Pick<Deps, "db" | "secretsKey" | "clock">,
  input: { staffUserId: string; code: string; pending?: boolean },
): Promise<boolean> {
  const now = nowOf(deps);
  const token = normaliseTotpCode(input.code);
  if (!token) return false;
  const [row] = await deps.db
    .select()
    .from(staffTotp)
    .where(eq(staffTotp.staffUserId, input.staffUserId));
  if (!row || Boolean(row.confirmedAt) === Boolean(input.pending)) return false;
  const secret = await openTotpSecret(deps, row.sealedSecret);
  if (!secret) return false;
  const result = await verify({
    secret,
    token,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOLERANCE_SECONDS,
  });
  if (!result.valid || !("timeStep" in result)) return false;
  const step = result.timeStep;
  const updated = await deps.db
    .update(staffTotp)
    .set({
      lastUsedStep: step,
      ...(input.pending ? { confirmedAt: now } : {}),
    })
    .where(
      and(
        eq(staffTotp.staffUserId, input.staffUserId),
        input.pending ? isNull(staffTotp.confirmedAt) : isNotNull(staffTotp.confirmedAt),
        or(isNull(staffTotp.lastUsedStep), lt(staffTotp.lastUsedStep, step)),
      ),
    )
    .returning({ id: staffTotp.staffUserId });
  return updated.length === 1;
}

/** Removes the account's authenticator app (confirmed or not); returns whether there was one. */
export async function deleteTotp(deps: Pick<Deps, "db">, staffUserId: string): Promise<boolean> {
  const rows = await deps.db
    .delete(staffTotp)
    .where(eq(staffTotp.staffUserId, staffUserId))
    .returning({ id: staffTotp.staffUserId });
  return rows.length > 0;
}
