import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import fc from "fast-check";
import { afterAll, beforeAll, expect } from "vitest";
import { z } from "zod";
import { API_ERROR_CODE_LIST } from "#domain/api/error-codes.ts";
import { createExpressApp } from "#server/app.ts";
import { buildOpenApiDocument } from "#server/api/openapi.ts";
import { createServices, type Services, type ServicesEnv } from "#server/services.ts";
import type { TestDatabase } from "../setup/database.ts";
import { testServicesEnv } from "../setup/intake.ts";
import {
  FUZZ_RUNS,
  fuzzRunsOn,
  hostileHeaders,
  hostileQuery,
  prototypesAreClean,
} from "./hostile.ts";
import { isStorableText } from "#domain/storable-text.ts";
import { encodeLoosely, hostileString } from "./hostile.ts";
import { type InjectedAnswer, inject } from "./inject.ts";

const PUBLIC_URL = "http://localhost";
const DOCUMENT = buildOpenApiDocument(PUBLIC_URL);

/** What a fuzz run drives: an app, and how many requests it gets per endpoint (FUZZ_RUNS). */
export interface FuzzTarget {
  app: Express;
  runs?: number;
}

export interface FuzzApp extends FuzzTarget {
  services: Services;
  /** Generated requests per endpoint on the suite's backend (fuzzRunsOn). */
  runs: number;
}

/**
 * The whole Express app (API, sessions, bot check, rate limits, mail outbox) on the suite's
 * database, driven in-process. Limits are high so the fuzz reaches validation, not a 429. The
 * bot check is Turnstile with a stand-in siteverify that passes tokens made by `passingToken`,
 * so any number of generated forms can be stored without solving a proof of work each.
 */
export function fuzzApp(
  database: () => TestDatabase,
  env: Partial<ServicesEnv> = {},
): () => FuzzApp {
  const deps = () => database().deps;
  let current: FuzzApp | undefined;
  let siteverify: Server | undefined;
  beforeAll(async () => {
    siteverify = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const { response } = JSON.parse(body) as { response?: string };
        res.setHeader("Content-Type", "application/json");
        res.end(JSON.stringify({ success: response?.startsWith(PASSING_TOKEN_PREFIX) === true }));
      });
    });
    await new Promise<void>((resolve) => siteverify!.listen(0, "127.0.0.1", resolve));
    const port = (siteverify.address() as AddressInfo).port;
    const services = await createServices(
      deps(),
      testServicesEnv({
        TURNSTILE_SITE_KEY: "fuzz-site-key",
        TURNSTILE_SECRET_KEY: "fuzz-secret",
        TURNSTILE_VERIFY_URL: `http://127.0.0.1:${port}/siteverify`,
        RATE_LIMIT_FORMS_MAX: 1_000_000_000,
        RATE_LIMIT_CHALLENGE_MAX: 1_000_000_000,
        OWNER_CODES_PER_IP: 1_000_000,
        // Queued mail stays queued: the fuzz checks what is stored, not what is sent.
        MAIL_POLL_MS: 3_600_000,
        ...env,
      }),
    );
    const app = createExpressApp({
      deps: deps(),
      env: { NODE_ENV: "test", PUBLIC_URL },
      services,
    });
    current = { app, services, runs: fuzzRunsOn(database().handle.backend) };
  });
  afterAll(async () => {
    await current?.services.close();
    await new Promise<void>((resolve) =>
      siteverify ? siteverify.close(() => resolve()) : resolve(),
    );
  });
  return () => {
    if (!current) throw new Error("fuzz app not started");
    return current;
  };
}

const PASSING_TOKEN_PREFIX = "fuzz-pass-";

/** A bot-check token the stand-in siteverify passes, new each time (tokens are single-use). */
export function passingToken(): string {
  return `${PASSING_TOKEN_PREFIX}${randomUUID()}`;
}

export interface FuzzCase {
  /** The path with its parameters filled in, without the query. */
  path: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

export interface FuzzEndpoint {
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  /** The path as the OpenAPI document names it, e.g. `/api/admin/estates/{id}/owner-email`. */
  documented: string;
  /** Path (parameters filled), body and headers of one generated request. */
  cases: fc.Arbitrary<FuzzCase>;
  /** Headers every request carries (a session cookie) unless the generated ones replace them. */
  baseHeaders?: () => Record<string, string>;
  /** The socket's address; loopback trusts X-Forwarded-For, anything else ignores it. */
  remoteAddress?: string;
  /** Async work on a generated case before it is sent (a freshly solved bot-check token). */
  prepare?: (fuzzCase: FuzzCase) => Promise<FuzzCase>;
  /**
   * Cases sent first, with clean headers, whatever the random ones: a valid one makes sure the
   * run reaches storage however few requests the tier generates.
   */
  examples?: () => FuzzCase[];
}

export interface FuzzReport {
  runs: number;
  statuses: Record<number, number>;
  ms: number;
}

/** Where the seeds of past failures are kept, each replayed before every random run. */
export const REGRESSIONS_FILE = new URL("./regressions.json", import.meta.url);

const RegressionsSchema = z.array(
  z.strictObject({
    /** `METHOD /documented/path`, as the failure message names the endpoint. */
    endpoint: z.string().regex(/^(POST|PATCH|DELETE) \/api\//),
    seed: z.int(),
    /** fast-check's counterexample path: the run (and shrink steps) that failed. */
    path: z.string().regex(/^\d+(:\d+)*$/),
  }),
);
export type FuzzRegression = z.infer<typeof RegressionsSchema>[number];

/** The kept seeds (tests/fuzz/regressions.json), checked: a typo fails every fuzz suite. */
export function loadRegressions(file: URL = REGRESSIONS_FILE): FuzzRegression[] {
  return RegressionsSchema.parse(JSON.parse(readFileSync(file, "utf8")));
}

/**
 * fast-check's parameters that replay one kept failure: the same seed walks to the same run by
 * its path and generates that one case again (nothing before it, nothing after it). The same
 * case only while the endpoint's arbitraries are unchanged: a seed outlives a change to them
 * as a random case, not as the case it was.
 */
export function replayParameters<T>(regression: FuzzRegression): fc.Parameters<T> {
  return { seed: regression.seed, path: regression.path, numRuns: 1, endOnFailure: true };
}

/**
 * Sends `target.runs` generated requests (body, headers and query string, all hostile) to one
 * endpoint and checks every answer: never a 5xx; every refusal a 4xx that the OpenAPI
 * document lists for the operation, as JSON `{message, errors?: [{path, message}]}`; and
 * Object.prototype untouched. First it replays each seed kept for the endpoint in
 * tests/fuzz/regressions.json. A failure prints the request that failed, with its seed and
 * path to keep.
 */
export async function fuzzEndpoint(
  { app, runs: randomRuns = FUZZ_RUNS }: FuzzTarget,
  endpoint: FuzzEndpoint,
  regressions: FuzzRegression[] = loadRegressions(),
): Promise<FuzzReport> {
  const name = `${endpoint.method} ${endpoint.documented}`;
  const operation = (DOCUMENT.paths as Record<string, Record<string, { responses: object }>>)[
    endpoint.documented
  ]?.[endpoint.method.toLowerCase()];
  if (!operation) throw new Error(`${name} is not documented`);
  const documented = new Set(Object.keys(operation.responses));
  const statuses: Record<number, number> = {};
  const started = performance.now();

  const request = fc.record({
    fuzzCase: endpoint.cases,
    // Half the requests carry clean headers, so hostile bodies reach validation and storage.
    headers: fc.oneof(fc.constant({}), hostileHeaders),
    query: hostileQuery,
  });
  const property = fc.asyncProperty(request, async ({ fuzzCase: generated, headers, query }) => {
    const fuzzCase = endpoint.prepare ? await endpoint.prepare(generated) : generated;
    const answer = await inject(app, {
      method: endpoint.method,
      url: fuzzCase.path + query,
      headers: {
        "content-type": "application/json",
        ...endpoint.baseHeaders?.(),
        ...headers,
        ...fuzzCase.headers,
      },
      body: fuzzCase.body,
      remoteAddress: endpoint.remoteAddress,
    });
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    expectDocumentedAnswer(answer, documented);
    expect(prototypesAreClean(), "Object.prototype polluted").toBe(true);
  });

  let runs = 0;
  for (const regression of regressions.filter((kept) => kept.endpoint === name)) {
    const replayed = await fc.check(property, replayParameters(regression));
    runs += replayed.numRuns;
    if (replayed.failed)
      throw new Error(
        `${name} fails again on the kept seed ${regression.seed}, path ${regression.path} (tests/fuzz/regressions.json):\n` +
          describeFailure(replayed),
      );
  }
  const details = await fc.check(property, {
    numRuns: randomRuns,
    endOnFailure: true,
    examples: (endpoint.examples?.() ?? []).map((fuzzCase) => [
      { fuzzCase, headers: {}, query: "" },
    ]),
  });
  if (details.failed) {
    const kept = JSON.stringify({
      endpoint: name,
      seed: details.seed,
      path: details.counterexamplePath,
    });
    throw new Error(
      `${name} failed after ${details.numRuns} requests (seed ${details.seed}, path ${details.counterexamplePath}):\n` +
        `${describeFailure(details)}\n` +
        `Keep it as a regression case, replayed on every run: add ${kept} to tests/fuzz/regressions.json.`,
    );
  }
  runs += randomRuns;
  return { runs, statuses, ms: Math.round(performance.now() - started) };
}

/** The error and the counterexample, with long texts cut, so the report stays readable. */
function describeFailure(details: { counterexample: unknown; errorInstance: unknown }): string {
  const shown = JSON.stringify(details.counterexample, (_key, value: unknown) =>
    typeof value === "string" && value.length > 300
      ? `${value.slice(0, 300)}… (${value.length} characters)`
      : value,
  );
  return `${String((details.errorInstance as Error | undefined)?.message ?? details.errorInstance)}\n${shown}`;
}

function expectDocumentedAnswer(answer: InjectedAnswer, documented: Set<string>) {
  const where = `${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).toBeLessThan(500);
  expect(documented.has(String(answer.status)), `undocumented ${where}`).toBe(true);
  if (answer.status < 400) return;
  expect(String(answer.headers["content-type"]), where).toMatch(/^application\/json/);
  const body = answer.json as { message?: unknown; code?: unknown; errors?: unknown };
  expect(typeof body?.message, where).toBe("string");
  expect((body.message as string).length, where).toBeGreaterThan(0);
  // Clients tell refusals apart by their code, never by the shape of the body.
  expect(API_ERROR_CODE_LIST, `unknown code: ${where}`).toContain(body.code);
  if (body.errors !== undefined) {
    expect(Array.isArray(body.errors), where).toBe(true);
    for (const issue of body.errors as { path?: unknown; message?: unknown }[]) {
      expect(typeof issue.path, where).toBe("string");
      expect(typeof issue.message, where).toBe("string");
    }
  }
}

/** Prints the wall time and the answers of one endpoint's run (the report names both). */
export function logReport(name: string, report: FuzzReport) {
  console.info(
    `fuzz ${name}: ${report.runs} requests in ${(report.ms / 1000).toFixed(1)} s; answers ${JSON.stringify(report.statuses)}`,
  );
}

// ─── GET query strings ───────────────────────────────────────────────────────────────────────
// A separate block on purpose: fuzzEndpoint above drives bodies; this drives the query string of
// every documented GET from the parameters the OpenAPI document gives it.

interface DocumentedParameter {
  name: string;
  in: string;
  schema?: { type?: string; enum?: unknown[]; items?: { enum?: unknown[] } };
}
interface DocumentedGet {
  parameters?: DocumentedParameter[];
  responses: object;
}

/** Every GET the OpenAPI document lists, by its documented path. */
export function documentedGets(): string[] {
  return Object.entries(DOCUMENT.paths as Record<string, Record<string, unknown>>)
    .filter(([, operations]) => operations.get)
    .map(([path]) => path);
}

/** Values that stress a query parser or what reads its result: all sent percent-encoded. */
const HOSTILE_QUERY_VALUES = [
  "\u0000",
  "a\u0000b",
  "\uD800",
  "x\uDC00y",
  "1e309",
  "-1",
  "0",
  "-0",
  "0x10",
  "1.5",
  "NaN",
  "Infinity",
  "9007199254740993",
  "99999999999999999999999999999999",
  "2147483648",
  "-2147483649",
  "1~1",
  "99999999999~99999999999",
  ",,,",
  "a,b,c,d,e,f,g,h,i,j,k,l,m,n",
  "x".repeat(101),
];

/** Valid-looking values for one documented parameter (its enum, or numbers), else a word. */
function plausibleValues(parameter: DocumentedParameter): string[] {
  const schema = parameter.schema ?? {};
  const listed = schema.enum ?? schema.items?.enum;
  if (listed?.length) return listed.map(String);
  if (schema.type === "integer" || schema.type === "number") return ["1", "15", "24", "100"];
  if (schema.type === "boolean") return ["true", "false", "1", "0"];
  return ["gordon", "castle", "2026-01-01", "1", ""];
}

/**
 * A query string over one operation's documented parameters: any of them (and an unknown one,
 * prototype keys, bracket forms), repeated or not (`q=a&q=b`), each with a plausible, hostile
 * or random value. Lone surrogates, which percent-encoding cannot carry, go as CESU-8 junk.
 */
export function queryOf(parameters: DocumentedParameter[]): fc.Arbitrary<string> {
  const names = parameters.filter((p) => p.in === "query").map((p) => p.name);
  const name = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...(names.length ? names : ["q"])) },
    { weight: 1, arbitrary: fc.constantFrom("unknown", "__proto__", "constructor", "lang") },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...(names.length ? names : ["q"])), fc.constantFrom("[]", "[a]"))
        .map(([base, suffix]) => base + suffix),
    },
  );
  const value = (parameterName: string) => {
    const parameter = parameters.find((p) => p.name === parameterName);
    return fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(...(parameter ? plausibleValues(parameter) : ["x"])),
      },
      { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_QUERY_VALUES) },
      { weight: 2, arbitrary: hostileString.map((text) => text.slice(0, 300)) },
    );
  };
  const pair = name.chain((key) => value(key).map((text) => [key, text] as const));
  return fc
    .array(pair, { minLength: 0, maxLength: 6 })
    .map((pairs) =>
      pairs.length
        ? "?" + pairs.map(([key, text]) => `${encodeLoosely(key)}=${encodeLoosely(text)}`).join("&")
        : "",
    );
}

export interface FuzzQueryCall {
  /** The path as the OpenAPI document names it, e.g. `/api/castles/{idOrSlug}`. */
  documented: string;
  /** The path with its parameters filled in, without the query. */
  paths: fc.Arbitrary<string>;
  /** Headers every request carries (a session cookie). */
  headers?: () => Record<string, string>;
}

/**
 * Sends `target.runs` GETs with generated query strings (every documented parameter of the call,
 * with hostile values) and checks every answer: never a 5xx; every refusal a 4xx the OpenAPI
 * document lists for the operation, as JSON `{message}`. The one refusal every call shares, a
 * 400 for text no database holds (a NUL; server/middleware/query-text.ts), is accepted when the
 * query holds such text, whether or not the operation's entry lists it yet.
 */
/** The OpenAPI document's GET operation at `documented`. */
export function documentedGet(documented: string): DocumentedGet {
  const operation = (DOCUMENT.paths as Record<string, Record<string, DocumentedGet>>)[documented]
    ?.get;
  if (!operation) throw new Error(`GET ${documented} is not documented`);
  return operation;
}

export async function fuzzQuery(
  { app, runs = FUZZ_RUNS }: FuzzTarget,
  call: FuzzQueryCall,
): Promise<FuzzReport> {
  const operation = documentedGet(call.documented);
  const documented = new Set(Object.keys(operation.responses));
  const statuses: Record<number, number> = {};
  const started = performance.now();
  const details = await fc.check(
    fc.asyncProperty(call.paths, queryOf(operation.parameters ?? []), async (path, query) => {
      const answer = await inject(app, {
        method: "GET",
        url: path + query,
        headers: call.headers?.() ?? {},
      });
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const isUnstorable = [...new URLSearchParams(query)].some(
        ([key, value]) => !isStorableText(key) || !isStorableText(value),
      );
      expectDocumentedAnswer(answer, isUnstorable ? new Set([...documented, "400"]) : documented);
      expect(prototypesAreClean(), "Object.prototype polluted").toBe(true);
    }),
    { numRuns: runs, endOnFailure: true },
  );
  if (details.failed)
    throw new Error(
      `GET ${call.documented} failed after ${details.numRuns} requests (seed ${details.seed}):\n` +
        `${String((details.errorInstance as Error | undefined)?.message ?? details.errorInstance)}\n` +
        JSON.stringify(details.counterexample),
    );
  return { runs, statuses, ms: Math.round(performance.now() - started) };
}
