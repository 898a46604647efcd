import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.ts";

describe("environment", () => {
  it("runs with nothing set: PGlite under ./data on port 3000", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DATA_DIR).toMatch(/\/data$/);
    expect(env.PUBLIC_URL).toBe("http://localhost:3000");
    expect(env.SEED_DEMO_CATALOGUE).toBe(true);
  });

  it("treats empty values as unset", () => {
    expect(parseEnv({ PORT: "", DATABASE_URL: "" }).PORT).toBe(3000);
  });

  it("names each bad variable and its value", () => {
    const bad = { PORT: "eighty", DATABASE_URL: "mysql://x", SEED_DEMO_CATALOGUE: "maybe" };
    expect(() => parseEnv(bad)).toThrow(EnvError);
    expect(() => parseEnv(bad)).toThrow(/PORT="eighty"/);
    expect(() => parseEnv(bad)).toThrow(/DATABASE_URL="mysql:\/\/x"/);
    expect(() => parseEnv(bad)).toThrow(/SEED_DEMO_CATALOGUE="maybe"/);
  });

  it("strips a trailing slash from PUBLIC_URL", () => {
    expect(parseEnv({ PUBLIC_URL: "https://castellum.example/" }).PUBLIC_URL).toBe(
      "https://castellum.example",
    );
  });

  it("defaults the intake to ALTCHA, mail files and memory rate limits", () => {
    const env = parseEnv({});
    expect(env.TURNSTILE_SITE_KEY).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
    expect(env.ALTCHA_COST).toBe(5000);
    expect(env.BOOKING_HORIZON_MONTHS).toBe(18);
  });

  it("wants both Turnstile keys or neither", () => {
    expect(() => parseEnv({ TURNSTILE_SITE_KEY: "site" })).toThrow(
      /TURNSTILE_SITE_KEY and TURNSTILE_SECRET_KEY/,
    );
    expect(
      parseEnv({ TURNSTILE_SITE_KEY: "a", TURNSTILE_SECRET_KEY: "b" }).TURNSTILE_SECRET_KEY,
    ).toBe("b");
  });

  it("refuses an SMTP_URL or REDIS_URL of the wrong kind", () => {
    expect(() => parseEnv({ SMTP_URL: "http://mail" })).toThrow(/SMTP_URL/);
    expect(() => parseEnv({ REDIS_URL: "postgres://x" })).toThrow(/REDIS_URL/);
  });
});
