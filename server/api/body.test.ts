import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorSchema } from "#domain/api/operation.ts";
import { readJson } from "#tests/setup/api.ts";
import { listenOnFreePort } from "#tests/setup/http.ts";
import { anyOf } from "#tests/setup/matchers.ts";
import { languageMiddleware } from "../middleware/language.ts";
import {
  findJsonBodyFault,
  ignoredBody,
  isNestedDeeperThan,
  jsonBody,
  MAX_JSON_DEPTH,
} from "./body.ts";
import { apiErrorHandler } from "./errors.ts";
import { createTestLogger } from "#tests/setup/error-log.ts";

const nested = (depth: number): unknown => JSON.parse("[".repeat(depth) + "]".repeat(depth));

describe("isNestedDeeperThan", () => {
  it("counts the top-level object or array as level 1", () => {
    expect(isNestedDeeperThan({}, 1)).toBe(false);
    expect(isNestedDeeperThan({ a: [] }, 1)).toBe(true);
    expect(isNestedDeeperThan({ a: [1, { b: "x" }] }, 3)).toBe(false);
    expect(isNestedDeeperThan({ a: [1, { b: {} }] }, 3)).toBe(true);
    expect(isNestedDeeperThan("text", 0)).toBe(false);
  });

  it("names where a NUL or an unpaired surrogate sits, in a key or a value", () => {
    expect(findJsonBodyFault({ a: [1, { b: "x\u0000" }] }, 32)).toEqual({
      fault: "unstorable_text",
      path: "a.1.b",
    });
    expect(findJsonBodyFault({ ok: "城堡 👩‍👩‍👧 \u202e" }, 32)).toBeNull();
    expect(findJsonBodyFault({ ["k\ud800"]: 1 }, 32)?.fault).toBe("unstorable_text");
    expect(findJsonBodyFault(["\udfff"], 32)).toEqual({ fault: "unstorable_text", path: "0" });
  });

  it("walks 100,000 levels without overflowing the stack", () => {
    expect(isNestedDeeperThan(nested(100_000), MAX_JSON_DEPTH)).toBe(true);
  });
});

describe("the API's body readers", () => {
  let server: Awaited<ReturnType<typeof listenOnFreePort>>;
  beforeAll(async () => {
    const app = express();
    app.use(languageMiddleware({ secureCookie: false }));
    app.post("/json", ...jsonBody(), (req, res) => {
      const received: unknown = req.body;
      res.json({ received });
    });
    app.post("/none", ignoredBody(), (req, res) => {
      const body: unknown = req.body;
      res.json({ body: body ?? null });
    });
    app.use(apiErrorHandler(createTestLogger()));
    server = await listenOnFreePort(app);
  });
  afterAll(() => server.close());

  const post = async (path: string, body: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body,
    });
    return { status: response.status, body: await readJson(response) };
  };

  it("takes JSON nested up to the limit", async () => {
    const answer = await post("/json", JSON.stringify(nested(MAX_JSON_DEPTH)));
    expect(answer.status).toBe(200);
  });

  it("answers 400 {message} in the caller's language to JSON nested deeper", async () => {
    const body = "[".repeat(5_000) + "]".repeat(5_000);
    const english = await post("/json", body);
    expect(english).toEqual({
      status: 400,
      body: {
        message: `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels).`,
        code: "json_too_deep",
      },
    });
    const french = await post("/json", JSON.stringify(nested(MAX_JSON_DEPTH + 1)), {
      "Accept-Language": "fr",
    });
    expect(french.status).toBe(400);
    expect(ErrorSchema.parse(french.body).message).toContain("imbriqué");
  });

  it("refuses urlencoded and other non-JSON bodies with 415, bodies over 32 KB with 413", async () => {
    const form = await post("/json", "a=1&b=2", {
      "Content-Type": "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(415);
    expect(ErrorSchema.parse(form.body).message).toEqual(anyOf(String));
    const large = await post("/json", JSON.stringify({ text: "x".repeat(40_000) }));
    expect(large).toEqual({
      status: 413,
      body: { message: "The request is too large (at most 32kb).", code: "payload_too_large" },
    });
  });

  it("reads and drops a small body a call does not use, and refuses a large one with 413", async () => {
    expect(await post("/none", '{"ignored":true}')).toEqual({ status: 200, body: { body: null } });
    const large = await post("/none", "a=" + "x".repeat(40_000), {
      "Content-Type": "application/x-www-form-urlencoded",
    });
    expect(large.status).toBe(413);
    expect(ErrorSchema.parse(large.body).message).toContain("32kb");
  });
});
