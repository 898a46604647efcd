import express, { Router } from "express";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineOperation, error, PUBLIC } from "#domain/api/operation.ts";
import { listenOnFreePort } from "#tests/setup/http.ts";
import { createTestLogger, expectErrorLog } from "#tests/setup/error-log.ts";
import { defineRoute, refuse } from "./define-route.ts";
import { apiErrorHandler } from "./errors.ts";
import { stringContaining, stringMatching } from "#tests/setup/matchers.ts";

const GreetingSchema = z.object({ greeting: z.string(), count: z.number().int() });

/** One operation whose handler answers what the query asks for: right or deliberately wrong. */
const getGreeting = defineOperation({
  id: "getGreeting",
  method: "get",
  path: "/api/greeting/{name}",
  summary: "A greeting",
  tags: ["catalogue"],
  security: PUBLIC,
  params: z.object({ name: z.string().max(10) }),
  query: z.object({
    answer: z.enum(["right", "wrongType", "extraField", "undocumented", "otherCode"]),
  }),
  responses: {
    200: { description: "The greeting", schema: GreetingSchema },
    400: error("A name over 10 characters", ["validation_failed"]),
  },
});

describe("defineRoute", () => {
  let baseUrl = "";
  let close = async () => {};
  beforeAll(async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.locals.language = "en";
      next();
    });
    const router = Router();
    defineRoute(router, getGreeting, {
      async handle({ params, query }) {
        if (query.answer === "undocumented")
          return refuse(404 as 400, "not_found", "errors.notFound");
        if (query.answer === "otherCode") return refuse(400, "not_found", "errors.notFound");
        const body = { greeting: `Hello ${params.name}`, count: 1 };
        if (query.answer === "wrongType")
          return { status: 200, body: { ...body, count: "one" as unknown as number } };
        if (query.answer === "extraField")
          return { status: 200, body: Object.assign(body, { passwordHash: "x" }) };
        return { status: 200, body };
      },
    });
    app.use("/api", router);
    app.use("/api", apiErrorHandler(createTestLogger()));
    ({ baseUrl, close } = await listenOnFreePort(app));
  });
  afterAll(() => close());

  const get = async (path: string) => {
    const response = await fetch(`${baseUrl}${path}`);
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it("parses the path and query with the operation's schemas and sends a conforming answer", async () => {
    expect(await get("/api/greeting/Ada?answer=right")).toEqual({
      status: 200,
      body: { greeting: "Hello Ada", count: 1 },
    });
  });

  it("refuses input that breaks the schemas with the field named", async () => {
    const answer = await get("/api/greeting/Ada?answer=shout");
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: "validation_failed",
      errors: [{ path: "answer" }],
    });
  });

  it("fails a test with a 500 when an answer breaks its schema", async () => {
    expectErrorLog(/contract violation/);
    const answer = await get("/api/greeting/Ada?answer=wrongType");
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({
      message: stringMatching(/^getGreeting .*the 200 answer breaks its schema: count/),
      code: "contract_violation",
    });
  });

  it("fails when an answer carries a field the schema does not name", async () => {
    expectErrorLog(/contract violation/);
    const answer = await get("/api/greeting/Ada?answer=extraField");
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({
      message: stringContaining("carries fields its schema does not name"),
      code: "contract_violation",
    });
  });

  it("fails when a refusal's status is not documented", async () => {
    const answer = await get("/api/greeting/Ada?answer=undocumented");
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({
      message: stringContaining("getGreeting answered 404"),
      code: "contract_violation",
    });
  });

  it("fails when a refusal's code is not one its status documents", async () => {
    const answer = await get("/api/greeting/Ada?answer=otherCode");
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({
      message: stringContaining("getGreeting answered 400 with code not_found"),
      code: "contract_violation",
    });
  });
});
