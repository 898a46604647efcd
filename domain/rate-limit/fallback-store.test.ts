import { createServer } from "node:net";
import { Writable } from "node:stream";
import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitCounters } from "#db/schema/index.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { listenOnFreePort } from "#tests/setup/http.ts";
import { testServicesEnv } from "#tests/setup/intake.ts";
import { createExpressApp } from "#server/app.ts";
import { createServices, type Services } from "#server/services.ts";
import { createDatabaseRateLimitStore } from "./database-store.ts";
import { createFallbackRateLimitStore } from "./fallback-store.ts";
import {
  consumeRateLimits,
  createMemoryRateLimitStore,
  createRedisRateLimitStore,
  type RateLimitStore,
} from "./rate-limiter.ts";

/** A port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A primary store whose health the test switches. */
function switchablePrimary() {
  const inner = createMemoryRateLimitStore();
  const state = { mode: "up" as "up" | "down" | "hang", hits: 0 };
  const store: RateLimitStore = {
    kind: "redis",
    hit(key, windowMs) {
      state.hits += 1;
      if (state.mode === "down") return Promise.reject(new Error("ECONNREFUSED"));
      if (state.mode === "hang") return new Promise(() => {});
      return inner.hit(key, windowMs);
    },
    close: () => inner.close(),
  };
  return { store, state };
}

describe("createFallbackRateLimitStore", () => {
  it("counts in the fallback while the primary fails, reports the outage once and the recovery", async () => {
    let now = 0;
    const outages: unknown[] = [];
    let recoveries = 0;
    const { store: primary, state } = switchablePrimary();
    const store = createFallbackRateLimitStore(primary, createMemoryRateLimitStore(), {
      retryAfterMs: 1000,
      now: () => now,
      onOutage: (error) => outages.push(error),
      onRecovered: () => (recoveries += 1),
    });
    const rule = [{ name: "login-ip", key: "203.0.113.9", max: 3, windowMs: 60_000 }];
    expect(await consumeRateLimits(store, rule)).toBe(0);

    state.mode = "down";
    // Three more tries within the limit's window: counted in the fallback, so the fourth
    // (the fifth overall) is refused. The limit never fails open.
    expect(await consumeRateLimits(store, rule)).toBe(0);
    expect(await consumeRateLimits(store, rule)).toBe(0);
    expect(await consumeRateLimits(store, rule)).toBe(0);
    expect(await consumeRateLimits(store, rule)).toBeGreaterThan(0);
    expect(outages).toHaveLength(1);
    // Within retryAfterMs the primary is not asked again.
    expect(state.hits).toBe(2);

    now = 1500;
    state.mode = "up";
    expect(await consumeRateLimits(store, rule)).toBe(0); // the primary's own count: 2 of 3
    expect(recoveries).toBe(1);
    expect(store.isPrimaryDown).toBe(false);
  });

  it("treats a primary that does not answer in time as down", async () => {
    const { store: primary, state } = switchablePrimary();
    state.mode = "hang";
    let outages = 0;
    const store = createFallbackRateLimitStore(primary, createMemoryRateLimitStore(), {
      timeoutMs: 50,
      onOutage: () => (outages += 1),
    });
    const started = performance.now();
    const result = await store.hit("k", 60_000);
    expect(result.count).toBe(1);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(outages).toBe(1);
  });

  it("throws when the fallback fails too, so the caller can refuse", async () => {
    const { store: primary, state } = switchablePrimary();
    state.mode = "down";
    const broken: RateLimitStore = {
      kind: "database",
      hit: () => Promise.reject(new Error("database down")),
      close: async () => {},
    };
    const store = createFallbackRateLimitStore(primary, broken);
    await expect(store.hit("k", 1000)).rejects.toThrow("database down");
  });
});

describeEachBackend(
  "rate limits with Redis unreachable",
  (database) => {
    it("count in the database through a real Redis client pointed at a closed port", async () => {
      const redis = new Redis(`redis://127.0.0.1:${await closedPort()}`, {
        maxRetriesPerRequest: 2,
      });
      redis.on("error", () => {});
      let outages = 0;
      const store = createFallbackRateLimitStore(
        createRedisRateLimitStore(redis),
        createDatabaseRateLimitStore(database().deps.db),
        { onOutage: () => (outages += 1) },
      );
      try {
        const rule = [
          { name: "owner-email", key: "owner@estate.example", max: 2, windowMs: 60_000 },
        ];
        expect(await consumeRateLimits(store, rule)).toBe(0);
        expect(await consumeRateLimits(store, rule)).toBe(0);
        expect(await consumeRateLimits(store, rule)).toBeGreaterThan(0);
        expect(outages).toBe(1);
        const rows = await database().deps.db.select().from(rateLimitCounters);
        expect(rows.find((row) => row.key === "rate:owner-email:owner@estate.example")?.count).toBe(
          3,
        );
      } finally {
        await store.close();
      }
    });

    describe("through the app", () => {
      const warnings: string[] = [];
      let services: Services;
      let baseUrl = "";
      let close = async () => {};

      beforeAll(async () => {
        const log = pino(
          { level: "warn", base: undefined },
          new Writable({
            write(chunk: Buffer, _encoding, done) {
              warnings.push((JSON.parse(chunk.toString("utf8")) as { msg: string }).msg);
              done();
            },
          }),
        );
        const deps = { db: database().deps.db, log };
        services = await createServices(
          deps,
          testServicesEnv({
            REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
            RATE_LIMIT_CHALLENGE_MAX: 2,
            RESPONSE_CACHE_MB: 0,
          }),
        );
        const app = createExpressApp({
          deps,
          env: { NODE_ENV: "test", PUBLIC_URL: "http://localhost" },
          services,
        });
        const server = await listenOnFreePort(app);
        baseUrl = server.baseUrl;
        close = async () => {
          await server.close();
          await services.close();
        };
      });
      afterAll(() => close());

      it("the site keeps serving, the challenge limit holds, and the outage is logged once", async () => {
        expect((await fetch(`${baseUrl}/api/castles?lang=en&limit=1`)).status).toBe(200);
        const first = await fetch(`${baseUrl}/api/bot-check/challenge`);
        expect(first.status).toBe(200);
        expect(first.headers.get("ratelimit-remaining")).toBe("1");
        expect((await fetch(`${baseUrl}/api/bot-check/challenge`)).status).toBe(200);
        const refused = await fetch(`${baseUrl}/api/bot-check/challenge`);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(warnings.filter((msg) => /Redis unreachable/.test(msg))).toHaveLength(1);
        expect(warnings.some((msg) => /request allowed/.test(msg))).toBe(false);
      });

      it("sign-in tries are still counted (in the database), not refused as unavailable", async () => {
        const limits = services.staff.loginLimits;
        const rule = [
          { name: "login-test", key: "198.51.100.7", max: 1, windowMs: limits.windowMs },
        ];
        expect(await consumeRateLimits(limits.store, rule)).toBe(0);
        expect(await consumeRateLimits(limits.store, rule)).toBeGreaterThan(0);
      });
    });
  },
  { seed: false },
);
