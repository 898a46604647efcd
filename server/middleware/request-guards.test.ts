import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import type { RateLimitStore } from "#domain/rate-limit/rate-limiter.ts";
import { createMemoryRateLimitStore } from "#domain/rate-limit/rate-limiter.ts";
import { createTestLogger } from "#tests/setup/error-log.ts";
import { listenOnFreePort } from "#tests/setup/http.ts";
import { languageMiddleware } from "./language.ts";
import { rateLimit } from "./request-guards.ts";

const RULE = { name: "forms", max: 2, windowMs: 60_000 };

let close: () => Promise<void> = async () => {};
afterEach(() => close());

/** A form endpoint behind the rate limit, served on a free port. */
async function serve(store: RateLimitStore) {
  const app = express();
  app.use(languageMiddleware({ secureCookie: false }));
  app.post("/api/form", rateLimit(store, RULE, createTestLogger()), (_req, res) => {
    res.status(201).json({ stored: true });
  });
  const served = await listenOnFreePort(app);
  close = served.close;
  return (headers: Record<string, string> = {}) =>
    fetch(`${served.baseUrl}/api/form`, { method: "POST", headers });
}

describe("the forms' rate limit", () => {
  it("lets the first requests through and refuses the next with 429 and Retry-After", async () => {
    const post = await serve(createMemoryRateLimitStore());
    expect((await post()).status).toBe(201);
    expect((await post()).status).toBe(201);
    const refused = await post();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("never fails open: a store that cannot count refuses with 503 in the visitor's language", async () => {
    let attempts = 0;
    const broken: RateLimitStore = {
      kind: "database",
      async hit() {
        attempts += 1;
        throw new Error("connection refused");
      },
      async close() {},
    };
    const post = await serve(broken);
    const answer = await post({ "accept-language": "fr" });
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("5");
    const body = (await answer.json()) as { message: string; stored?: boolean };
    expect(body.stored).toBeUndefined();
    expect(body.message).toMatch(/base de données|quelques secondes/i);
    expect(attempts).toBe(1);
  });
});
