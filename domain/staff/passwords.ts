/**
 * Staff passwords (OWASP ASVS 5.0, V6): argon2id hashes (PHC strings that name their own
 * parameters; scrypt hashes of the first version still verify), a
 * verification that takes as long for an unknown account as for a known one, and the policy
 * a new password must pass (length in code points, not among the 10,000 most common, not the
 * account's email).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { type Algorithm, hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import { COMMON_PASSWORDS } from "./common-passwords.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-rules.ts";

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH };

export type PasswordPolicyReason = "tooShort" | "tooLong" | "common" | "containsEmail";
export type PasswordPolicyResult = { ok: true } | { ok: false; reason: PasswordPolicyReason };

/** The cost of a new argon2id hash: memory in KiB and passes (one lane always). */
export interface PasswordCost {
  memoryCost: number;
  timeCost: number;
}

/**
 * The cost of new hashes: 64 MiB and 4 passes, above OWASP's minimum (19 MiB, 2 passes) and
 * about 60 ms on this project's 2-core machine (bench:staff), inside the 50-250 ms a login may
 * cost. Stored hashes keep their own parameters, so this can be raised. The server always uses
 * it; only a caller that makes hundreds of throwaway accounts (the test suites) passes another.
 */
export const STANDARD_PASSWORD_COST: PasswordCost = { memoryCost: 65_536, timeCost: 4 };

function argon2Options(cost: PasswordCost) {
  // Algorithm.Argon2id: a const enum, which this project's module syntax cannot read as a value.
  return { algorithm: 2 as Algorithm, ...cost, parallelism: 1 };
}
/** A stored argon2 hash may ask for at most this much memory (KiB): 1 GiB, against corrupt rows. */
const MAX_ARGON2_MEMORY_KIB = 1024 * 1024;
const ARGON2_HASH = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

type ScryptParameters = { N: number; r: number; p: number };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/**
 * The most memory a stored hash may make scrypt use (it needs about 128·N·r bytes). A corrupt
 * or hostile row must not be able to make one login allocate gigabytes; 1 GiB leaves room for
 * N=2^19 at r=8 (512 MiB) should the parameters be raised.
 */
const MAX_SCRYPT_MEMORY = 1024 ** 3;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const PARAMETERS = /^N=([1-9]\d*),r=([1-9]\d*),p=([1-9]\d*)$/;

/**
 * Hashes a password for storage as an argon2id PHC string
 * (`$argon2id$v=19$m=65536,t=4,p=1$<salt>$<hash>`) with a fresh random salt.
 */
export async function hashPassword(
  password: string,
  cost: PasswordCost = STANDARD_PASSWORD_COST,
): Promise<string> {
  return argon2Hash(password, argon2Options(cost));
}

/**
 * Whether `password` is the one `stored` was made from, compared in constant time. Uses the
 * parameters written in `stored`; a malformed or out-of-bounds `stored` gives false, never an
 * exception.
 */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  if (stored.startsWith("$argon2id$")) {
    const match = ARGON2_HASH.exec(stored);
    if (!match || Number(match[1]) > MAX_ARGON2_MEMORY_KIB || Number(match[2]) > 100) return false;
    // argon2 compares in constant time; a hash it cannot read is a mismatch, not a crash.
    return argon2Verify(stored, password).catch(() => false);
  }
  const parsed = parseHash(stored);
  if (!parsed) return false;
  try {
    const key = await deriveKey(password, parsed.salt, parsed.key.length, parsed.parameters);
    return timingSafeEqual(key, parsed.key);
  } catch {
    return false;
  }
}

const dummyHashes = new Map<PasswordCost, string>();

/**
 * Does the work of {@link verifyPassword} for a login whose email matches no account, and
 * answers false, so that response time does not tell which emails have accounts. The dummy
 * hash has the cost of new hashes, a random salt and a random digest: no password matches
 * it, and making it costs no hashing, so even the first call takes the usual time.
 */
export async function verifyPasswordOfUnknownAccount(
  password: string,
  cost: PasswordCost = STANDARD_PASSWORD_COST,
): Promise<false> {
  const b64 = (bytes: number) => randomBytes(bytes).toString("base64").replace(/=+$/, "");
  let dummyHash = dummyHashes.get(cost);
  if (!dummyHash) {
    dummyHash = `$argon2id$v=19$m=${cost.memoryCost},t=${cost.timeCost},p=1$${b64(SALT_BYTES)}$${b64(KEY_BYTES)}`;
    dummyHashes.set(cost, dummyHash);
  }
  await verifyPassword(dummyHash, password);
  return false;
}

let commonPasswords: Set<string> | undefined;

/**
 * Checks a new password against the policy, in this order: 12 to 128 characters (Unicode
 * code points, so an emoji counts once), not one of the 10,000 most common passwords, not the
 * account's email or the part before its @ (both compared trimmed and case-insensitively).
 * No composition rules (ASVS 5.0 6.2.5).
 */
export function checkPasswordPolicy(
  password: string,
  context: { email?: string } = {},
): PasswordPolicyResult {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return { ok: false, reason: "tooShort" };
  if (length > PASSWORD_MAX_LENGTH) return { ok: false, reason: "tooLong" };

  const candidate = password.trim().toLowerCase();
  commonPasswords ??= new Set(COMMON_PASSWORDS.split("\n").filter((line) => line !== ""));
  if (commonPasswords.has(candidate)) return { ok: false, reason: "common" };

  const email = context.email?.trim().toLowerCase();
  if (email) {
    const localPart = email.slice(0, email.lastIndexOf("@"));
    if (candidate === email || (localPart !== "" && candidate === localPart)) {
      return { ok: false, reason: "containsEmail" };
    }
  }
  return { ok: true };
}

function deriveKey(
  password: string,
  salt: Buffer,
  length: number,
  { N, r, p }: ScryptParameters,
): Promise<Buffer> {
  // Node's default maxmem (32 MiB) is below what N=2^17, r=8 needs; allow what these
  // parameters need (128·r·(N + p + 2) bytes, per OpenSSL) plus a margin.
  const options: ScryptOptions = { N, r, p, maxmem: 128 * r * (N + p + 2) + 1024 ** 2 };
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function parseHash(
  stored: string,
): { parameters: ScryptParameters; salt: Buffer; key: Buffer } | undefined {
  const parts = stored.split("$");
  if (parts.length !== 4 || parts[0] !== "scrypt") return undefined;
  const [, parameterText = "", saltText = "", keyText = ""] = parts;
  const match = PARAMETERS.exec(parameterText);
  if (!match || !BASE64URL.test(saltText) || !BASE64URL.test(keyText)) return undefined;
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (r > 64 || p > 16 || 128 * N * r > MAX_SCRYPT_MEMORY) return undefined;
  if (N < 2 || !Number.isInteger(Math.log2(N))) return undefined;
  const salt = Buffer.from(saltText, "base64url");
  const key = Buffer.from(keyText, "base64url");
  if (salt.length < SALT_BYTES || key.length < KEY_BYTES || key.length > 128) return undefined;
  return { parameters: { N, r, p }, salt, key };
}
