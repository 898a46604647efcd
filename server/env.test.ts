import { readFileSync } from "node:fs";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import express from "express";
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

  it("reads the response windows: 48 hours by default, decimals allowed, memberships never", () => {
    const env = parseEnv({});
    expect(env.REQUEST_RESPONSE_HOURS).toBe(48);
    expect(env.MEMBERSHIP_RESPONSE_HOURS).toBeUndefined();
    expect(env.LIFECYCLE_INTERVAL_SECONDS).toBe(60);
    const set = parseEnv({
      REQUEST_RESPONSE_HOURS: "0.01",
      MEMBERSHIP_RESPONSE_HOURS: "72.5",
      LIFECYCLE_INTERVAL_SECONDS: "5",
    });
    expect(set.REQUEST_RESPONSE_HOURS).toBe(0.01);
    expect(set.MEMBERSHIP_RESPONSE_HOURS).toBe(72.5);
    expect(set.LIFECYCLE_INTERVAL_SECONDS).toBe(5);
    for (const [name, value] of [
      ["REQUEST_RESPONSE_HOURS", "0"],
      ["REQUEST_RESPONSE_HOURS", "two days"],
      ["MEMBERSHIP_RESPONSE_HOURS", "-1"],
      ["LIFECYCLE_INTERVAL_SECONDS", "0"],
    ] as const)
      expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`${name}="${value}"`));
  });

  it("keeps the security log 365 days by default, and never fewer than 30", () => {
    expect(parseEnv({}).SECURITY_LOG_RETENTION_DAYS).toBe(365);
    expect(parseEnv({ SECURITY_LOG_RETENTION_DAYS: "30" }).SECURITY_LOG_RETENTION_DAYS).toBe(30);
    expect(() => parseEnv({ SECURITY_LOG_RETENTION_DAYS: "29" })).toThrow(
      /SECURITY_LOG_RETENTION_DAYS="29"/,
    );
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

  it("reads reference rates from EXCHANGE_RATES_URL only when set, over http(s)", () => {
    expect(parseEnv({}).EXCHANGE_RATES_URL).toBeUndefined();
    const ecb = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml";
    expect(parseEnv({ EXCHANGE_RATES_URL: ecb }).EXCHANGE_RATES_URL).toBe(ecb);
    expect(() => parseEnv({ EXCHANGE_RATES_URL: "file:///etc/rates.xml" })).toThrow(
      /EXCHANGE_RATES_URL="file:\/\/\/etc\/rates.xml"/,
    );
  });

  it("refuses an SMTP_URL or REDIS_URL of the wrong kind", () => {
    expect(() => parseEnv({ SMTP_URL: "http://mail" })).toThrow(/SMTP_URL/);
    expect(() => parseEnv({ REDIS_URL: "postgres://x" })).toThrow(/REDIS_URL/);
  });
});

describe("TRUST_PROXY as compose.yaml sets it", () => {
  const compose = readFileSync(new URL("../compose.yaml", import.meta.url), "utf8");
  const trustProxy = /^\s*TRUST_PROXY:\s*"?([^"\n#]+?)"?\s*(#.*)?$/m.exec(compose)?.[1];
  const nginxAddress = /^\s*ipv4_address:\s*([\d.]+)\s*$/m.exec(compose)?.[1];

  /** An app that trusts proxies as the instances do (server/app.ts) and echoes req.ip. */
  function appTrusting(value: string | number) {
    const app = express();
    app.set("trust proxy", value);
    app.get("/ip", (req, res) => {
      res.send(req.ip);
    });
    return app;
  }

  it("believes X-Forwarded-For from nginx's fixed address and from no one else", () => {
    const env = parseEnv({ TRUST_PROXY: trustProxy });
    expect(nginxAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const trusts = appTrusting(env.TRUST_PROXY).get("trust proxy fn") as (
      address: string,
      hop: number,
    ) => boolean;
    expect(trusts(nginxAddress!, 0)).toBe(true);
    // Another container on the compose network, any private address, the instance itself.
    const neighbour = nginxAddress!.replace(/\d+$/, "99");
    for (const client of [
      neighbour,
      "10.0.0.5",
      "172.18.0.3",
      "192.168.1.20",
      "fd00::1",
      "127.0.0.1",
    ])
      expect(trusts(client, 0), client).toBe(false);
  });

  it("does not let a client outside the trusted set choose its IP", async () => {
    const env = parseEnv({ TRUST_PROXY: trustProxy });
    const server = appTrusting(env.TRUST_PROXY).listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/ip`, {
        headers: { "X-Forwarded-For": "203.0.113.9" },
      });
      expect(await answer.text()).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    } finally {
      server.close();
    }
  });
});
