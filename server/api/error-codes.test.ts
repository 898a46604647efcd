import { describe, expect, it } from "vitest";
import { API_ERROR_CODES, type ApiErrorCode } from "#domain/api/error-codes.ts";
import { pathOf } from "#domain/api/operation.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { serveIntake } from "#tests/setup/intake.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { API_OPERATIONS } from "./operations.ts";

/**
 * Every refusal of /api carries a stable `code` beside its message, so that a client branches
 * on the code and not on the message or on which fields a body has. The contracts say which
 * codes each status may carry, the document lists them, and every answer the API sends is
 * checked against them while tests run (server/api/errors.ts, define-route.ts).
 */

const isKnownCode = (code: unknown): code is ApiErrorCode =>
  typeof code === "string" && Object.hasOwn(API_ERROR_CODES, code);

interface JsonSchema {
  $ref?: string;
  type?: string;
  required?: string[];
  properties?: Record<string, JsonSchema>;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

describe("the error codes", () => {
  it("are snake_case, each with what it means", () => {
    for (const [code, meaning] of Object.entries(API_ERROR_CODES)) {
      expect(code).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
      expect(meaning.length, code).toBeGreaterThan(10);
    }
  });

  it("are declared for every refusal of every operation, as a required `code` the document lists", () => {
    const document = buildOpenApiDocument("http://localhost") as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, JsonSchema> };
    };
    const resolve = (schema: JsonSchema): JsonSchema =>
      schema.$ref ? resolve(document.components.schemas[schema.$ref.split("/").pop()!]!) : schema;
    /** The codes a body schema allows, each alternative of a union on its own. */
    const codesOf = (schema: JsonSchema, where: string): unknown[] => {
      const resolved = resolve(schema);
      const alternatives = resolved.anyOf ?? resolved.oneOf;
      if (alternatives) return alternatives.flatMap((one) => codesOf(one, where));
      expect(resolved.required, `${where}: \`code\` is not required`).toContain("code");
      const code = resolve(resolved.properties?.code ?? {});
      const codes = code.enum ?? (code.const === undefined ? [] : [code.const]);
      expect(codes.length, `${where}: \`code\` lists no codes`).toBeGreaterThan(0);
      return codes;
    };
    let refusals = 0;
    for (const operation of API_OPERATIONS)
      for (const [status, spec] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const where = `${operation.id} ${status}`;
        refusals++;
        expect(spec.schema, `${where} has no body`).toBeDefined();
        expect(spec.contentType ?? "application/json", where).toBe("application/json");
        const rendered = document.paths[operation.path]![operation.method]!.responses[status] as {
          content: Record<string, { schema: JsonSchema }>;
        };
        const codes = codesOf(rendered.content["application/json"]!.schema, where);
        for (const code of codes) expect(isKnownCode(code), `${where}: ${String(code)}`).toBe(true);
        // The codes the runtime check holds the route to are the ones the document shows.
        if (spec.codes) expect([...codes].sort(), where).toEqual([...spec.codes].sort());
        // A body without a code breaks the schema, so no route can send one.
        expect(spec.schema!.safeParse({ message: "refused" }).success, where).toBe(false);
      }
    expect(refusals).toBeGreaterThan(300);
  });
});

describeEachBackend("the API's refusals", (database) => {
  const server = serveIntake(() => database().deps);

  /** A refusal's body: JSON with a message and a known code. */
  const expectCoded = (
    answer: { status: number; body: unknown; text: string },
    where: string,
  ): ApiErrorCode => {
    expect(answer.status, `${where}: ${answer.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
    expect(answer.status, `${where}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
    const body = answer.body as { message?: unknown; code?: unknown } | null;
    expect(typeof body?.message, `${where}: ${answer.text.slice(0, 300)}`).toBe("string");
    expect(isKnownCode(body?.code), `${where}: ${answer.text.slice(0, 300)}`).toBe(true);
    return body!.code as ApiErrorCode;
  };

  it("carry a code on every documented call, for nobody, a non-admin and a bad body", async () => {
    await createTestStaff(database().deps, "clerk@castellum.test", { isAdmin: false });
    const clerk = await signIn(server().url, "clerk@castellum.test");
    const seen = new Set<ApiErrorCode>();
    for (const operation of API_OPERATIONS) {
      const params: Record<string, string> = {};
      for (const [, name] of operation.path.matchAll(/\{(\w+)\}/g)) params[name!] = "0";
      const path = pathOf(operation.path, params);
      const method = operation.method.toUpperCase();
      const body = method === "GET" ? undefined : { unexpected: [1, { deep: "x" }] };
      for (const [who, options] of [
        ["nobody", { body }],
        ["a non-admin", { body, cookie: clerk }],
        ["another site", { body, headers: { Origin: "https://elsewhere.example" } }],
      ] as const) {
        const answer = await staffCall(server().url, method, path, options);
        if (answer.status < 400) continue;
        seen.add(expectCoded(answer, `${method} ${path} as ${who}`));
      }
    }
    for (const code of [
      "not_signed_in",
      "not_admin",
      "cross_origin",
      "validation_failed",
      "not_found",
    ] as const)
      expect(seen, code).toContain(code);
  });

  it("carry a code for what every call shares: the path, the method and the body", async () => {
    const url = server().url;
    const cases: [string, Promise<Response>, ApiErrorCode][] = [
      ["an unknown path", fetch(`${url}/api/no-such-thing`), "not_found"],
      [
        "a method no route has",
        fetch(`${url}/api/castles`, { method: "PROPFIND" }),
        "method_not_allowed",
      ],
      [
        "malformed JSON",
        fetch(`${url}/api/admin/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: "{",
        }),
        "malformed_json",
      ],
      [
        "a form post",
        fetch(`${url}/api/admin/login`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: "email=a",
        }),
        "unsupported_media_type",
      ],
      [
        "a body too large",
        fetch(`${url}/api/admin/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email: "x".repeat(64 * 1024) }),
        }),
        "payload_too_large",
      ],
      ["a NUL in the query", fetch(`${url}/api/castles?q=%00`), "unstorable_text"],
      [
        "a NUL in the body",
        fetch(`${url}/api/admin/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email: "a\u0000b", password: "x" }),
        }),
        "unstorable_text",
      ],
      [
        "a wrong password",
        fetch(`${url}/api/admin/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "Accept-Language": "fr" },
          body: JSON.stringify({ email: "nobody@castellum.test", password: "not-the-password" }),
        }),
        "invalid_credentials",
      ],
    ];
    for (const [what, pending, code] of cases) {
      const response = await pending;
      const text = await response.text();
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        // Left null: expectCoded names the text.
      }
      expect(expectCoded({ status: response.status, body, text }, what), what).toBe(code);
    }
  });
});
