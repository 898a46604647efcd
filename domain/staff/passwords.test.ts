import { randomBytes, scryptSync } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { COMMON_PASSWORDS } from "./common-passwords.ts";
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  checkPasswordPolicy,
  hashPassword,
  verifyPassword,
  verifyPasswordOfUnknownAccount,
} from "./passwords.ts";

const PASSWORD = "lantern ivy drawbridge 42";

describe("hashPassword and verifyPassword", () => {
  let stored: string;
  beforeAll(async () => {
    stored = await hashPassword(PASSWORD);
  });

  it("writes argon2id with its parameters, a 16-byte salt and a 32-byte digest into the hash", () => {
    const [, scheme, version, parameters, salt, key] = stored.split("$");
    expect([scheme, version, parameters]).toEqual(["argon2id", "v=19", "m=65536,t=4,p=1"]);
    expect(Buffer.from(salt ?? "", "base64")).toHaveLength(16);
    expect(Buffer.from(key ?? "", "base64")).toHaveLength(32);
  });

  it("refuses a stored argon2 hash that asks for absurd memory, without running it", async () => {
    const hostile = stored.replace("m=65536", "m=99999999");
    expect(await verifyPassword(hostile, PASSWORD)).toBe(false);
  });

  it("accepts the password the hash was made from", async () => {
    expect(await verifyPassword(stored, PASSWORD)).toBe(true);
  });

  it("refuses another password, even one differing only in case or spacing", async () => {
    expect(await verifyPassword(stored, "lantern ivy drawbridge 43")).toBe(false);
    expect(await verifyPassword(stored, PASSWORD.toUpperCase())).toBe(false);
    expect(await verifyPassword(stored, ` ${PASSWORD}`)).toBe(false);
  });

  it("salts each hash, so the same password hashes differently", async () => {
    const again = await hashPassword(PASSWORD);
    expect(again).not.toBe(stored);
    expect(await verifyPassword(again, PASSWORD)).toBe(true);
  });

  it("refuses a tampered hash", async () => {
    const parts = stored.split("$"); // ["", "argon2id", "v=19", "m=…", salt, digest]
    const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");
    const flipped = Buffer.from(parts[5] ?? "", "base64");
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    const tamperedKey = [...parts.slice(0, 5), b64(flipped)].join("$");
    const otherSalt = [...parts.slice(0, 4), b64(Buffer.alloc(16)), parts[5]].join("$");
    // The untouched parts still verify: the refusals below are for the tampering alone.
    expect(await verifyPassword([...parts].join("$"), PASSWORD)).toBe(true);
    expect(await verifyPassword(tamperedKey, PASSWORD)).toBe(false);
    expect(await verifyPassword(otherSalt, PASSWORD)).toBe(false);
  });

  it("still verifies a scrypt hash of the first version, and refuses a tampered one", async () => {
    const salt = randomBytes(16);
    const key = scryptSync(PASSWORD, salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const old = `scrypt$N=16384,r=8,p=1$${salt.toString("base64url")}$${key.toString("base64url")}`;
    expect(await verifyPassword(old, PASSWORD)).toBe(true);
    key[0] = (key[0] ?? 0) ^ 1;
    const tampered = `scrypt$N=16384,r=8,p=1$${salt.toString("base64url")}$${key.toString("base64url")}`;
    expect(await verifyPassword(tampered, PASSWORD)).toBe(false);
  });

  it.each([
    ["empty", ""],
    ["not a hash", "hunter2"],
    ["another scheme", "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW"],
    ["argon2id without a digest", "$argon2id$v=19$m=65536,t=4,p=1$AAAAAAAAAAAAAAAAAAAAAA"],
    [
      "argon2i, not argon2id",
      "$argon2i$v=19$m=65536,t=4,p=1$AAAAAAAAAAAAAAAAAAAAAA$" + "A".repeat(43),
    ],
    ["missing key", "scrypt$N=131072,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA"],
    ["extra field", "scrypt$N=131072,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$a$b"],
    ["N not a power of two", "scrypt$N=100000,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$" + "A".repeat(43)],
    ["needs 64 GiB", "scrypt$N=67108864,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$" + "A".repeat(43)],
    ["salt not base64url", "scrypt$N=16384,r=8,p=1$AAAA+AAAAAAAAAAAAAAAAA$" + "A".repeat(43)],
    ["salt too short", "scrypt$N=16384,r=8,p=1$AAAA$" + "A".repeat(43)],
  ])("answers false for a malformed stored hash (%s) and does not throw", async (_, bad) => {
    await expect(verifyPassword(bad, PASSWORD)).resolves.toBe(false);
  });

  it("verifies with the parameters written in the stored hash, not the current ones", async () => {
    // A hash made with N=2^14 (stand-in for one made before the parameters were raised).
    const salt = randomBytes(16);
    const key = scryptSync(PASSWORD, salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const old = `scrypt$N=16384,r=8,p=1$${salt.toString("base64url")}$${key.toString("base64url")}`;
    expect(await verifyPassword(old, PASSWORD)).toBe(true);
    expect(await verifyPassword(old, "lantern ivy drawbridge 43")).toBe(false);
  });
});

describe("verifyPasswordOfUnknownAccount", () => {
  it("answers false, even for a password that is someone's", async () => {
    expect(await verifyPasswordOfUnknownAccount(PASSWORD)).toBe(false);
    expect(await verifyPasswordOfUnknownAccount("")).toBe(false);
  });
});

describe("checkPasswordPolicy", () => {
  const refused = (reason: string) => ({ ok: false, reason });

  it("counts code points, not UTF-16 units, at both limits", () => {
    // 11 code points, 12 UTF-16 units: too short.
    expect(checkPasswordPolicy("castle🏰moat")).toEqual(refused("tooShort"));
    expect(checkPasswordPolicy("castle🏰moats")).toEqual({ ok: true });
    // 128 emoji are 256 UTF-16 units but 128 characters.
    expect(checkPasswordPolicy("🏰".repeat(PASSWORD_MAX_LENGTH))).toEqual({ ok: true });
  });

  it("refuses fewer than 12 characters and accepts exactly 12", () => {
    expect(PASSWORD_MIN_LENGTH).toBe(12);
    expect(checkPasswordPolicy("tower-garde")).toEqual(refused("tooShort"));
    expect(checkPasswordPolicy("tower-garden")).toEqual({ ok: true });
  });

  it("refuses more than 128 characters and accepts exactly 128", () => {
    expect(PASSWORD_MAX_LENGTH).toBe(128);
    expect(checkPasswordPolicy("k".repeat(128))).toEqual({ ok: true });
    expect(checkPasswordPolicy("k".repeat(129))).toEqual(refused("tooLong"));
  });

  it.each(["qwerty123456", "1qaz2wsx3edc", "finalfantasy", "123456789qwerty"])(
    "refuses the common password %s whatever its case and surrounding spaces",
    (password) => {
      expect(checkPasswordPolicy(password)).toEqual(refused("common"));
      expect(checkPasswordPolicy(password.toUpperCase())).toEqual(refused("common"));
      expect(checkPasswordPolicy(`  ${password} `)).toEqual(refused("common"));
    },
  );

  it("refuses the account's email or its local part, whatever the case", () => {
    const context = { email: "Jeanne.Dupont@Example.com" };
    expect(checkPasswordPolicy("jeanne.dupont@example.com", context)).toEqual(
      refused("containsEmail"),
    );
    expect(checkPasswordPolicy("JEANNE.DUPONT", context)).toEqual(refused("containsEmail"));
    expect(checkPasswordPolicy("jeanne.dupont", { email: "jeanne.dupont@castellum.test" })).toEqual(
      refused("containsEmail"),
    );
    expect(checkPasswordPolicy("jeanne.dupont")).toEqual({ ok: true });
    expect(checkPasswordPolicy("jeanne.dupont!", context)).toEqual({ ok: true });
  });

  it("accepts a passphrase with no digits, capitals or symbols", () => {
    expect(checkPasswordPolicy("lantern ivy drawbridge", { email: "staff@example.com" })).toEqual({
      ok: true,
    });
  });
});

describe("the common-password list", () => {
  const entries = COMMON_PASSWORDS.split("\n").filter((line) => line !== "");

  it("has exactly 10,000 distinct entries, lowercase and trimmed, most common first", () => {
    expect(entries).toHaveLength(10_000);
    expect(new Set(entries).size).toBe(10_000);
    expect(entries.filter((entry) => entry !== entry.trim().toLowerCase())).toEqual([]);
    expect(entries.slice(0, 2)).toEqual(["123456", "password"]);
  });
});
