import fc from "fast-check";
import type { DatabaseBackend } from "#db/client.ts";
import { demoEstate } from "../factories/demo-estates.ts";
import { readFuzzRuns, SECOND_BACKEND_FUZZ_SHARE } from "../setup/tier.ts";

/**
 * Generated inputs per endpoint: 200 in `npm test`, 2,000 in `npm run test:all`
 * (tests/setup/tier.ts). FUZZ_RUNS asks for more (e.g. 100000 for a long run).
 */
export const FUZZ_RUNS = readFuzzRuns(process.env.FUZZ_RUNS);

/** Generated inputs per endpoint on `backend`: FUZZ_RUNS on PGlite, a share on PostgreSQL. */
export function fuzzRunsOn(backend: DatabaseBackend, runs: number = FUZZ_RUNS): number {
  return backend === "pglite" ? runs : Math.ceil(runs * SECOND_BACKEND_FUZZ_SHARE);
}

/** Time for one endpoint's run: generous, as a shared machine may be slow (~3 ms a request). */
export const FUZZ_TIMEOUT_MS = Math.max(30_000, FUZZ_RUNS * 20);

/** Texts that have broken web applications: each stands for a family of attacks or accidents. */
export const HOSTILE_TEXTS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\uD800",
  "\uDFFF",
  "x\uDC00y",
  "\uD83D",
  "\u202Eevil\u202C",
  "\u200F\u05E9\u05DC\u05D5\u05DD",
  "\u0645\u0631\u062D\u0628\u0627",
  "\u200B",
  "a\u200Db",
  "\uFEFF",
  "\u2028\u2029",
  "\r\n",
  "\t",
  "\u001B[31m",
  "e\u0301",
  "👩‍👩‍👧‍👦",
  "𝕏𝔂𝔷",
  "城堡",
  "' OR '1'='1",
  "'; DROP TABLE guest_requests; --",
  "1; SELECT pg_sleep(5)",
  '" OR ""="',
  "\\",
  "%",
  "_",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "javascript:alert(1)",
  '=HYPERLINK("http://evil.example")',
  "+1+cmd|' /C calc'!A0",
  "{{constructor.constructor('return 1')()}}",
  "${7*7}",
  "../../../etc/passwd",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "NaN",
  "Infinity",
  "-0",
  "1e309",
  "9007199254740993",
  "null",
  "true",
  "0x1F",
  "2026-02-30",
  "9999-12-31",
  "0000-00-00",
  "a@b",
  "admin@castellum.test",
  demoEstate("gordon-castle").email,
  "x".repeat(255),
  "a".repeat(5_000),
];

export const POLLUTING_KEYS = ["__proto__", "constructor", "prototype"];

/** Any string: hostile constants, any code points (lone surrogates included), long runs. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_TEXTS) },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom(...HOSTILE_TEXTS), fc.string({ maxLength: 8 })), {
        minLength: 2,
        maxLength: 6,
      })
      .map((parts) => parts.join("")),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("x", "é", "城", "\u200B", "'"), fc.integer({ min: 100, max: 12_000 }))
      .map(([unit, count]) => unit.repeat(count)),
  },
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, 5e-324, 15, 1_000_000),
);

/** JSON, kept as a tree so keys may repeat and `__proto__` stays an ordinary key. */
export type JsonTree =
  | { kind: "leaf"; value: string | number | boolean | null }
  | { kind: "array"; items: JsonTree[] }
  | { kind: "object"; entries: [string, JsonTree][] };

export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...POLLUTING_KEYS) },
  { weight: 3, arbitrary: hostileString },
);

const leaf: fc.Arbitrary<JsonTree> = fc
  .oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null))
  .map((value) => ({ kind: "leaf" as const, value }));

export const jsonTree: fc.Arbitrary<JsonTree> = fc.letrec<{ tree: JsonTree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("tree"), { maxLength: 5 }).map((items) => ({ kind: "array" as const, items })),
    fc
      .array(fc.tuple(hostileKey, tie("tree")), { maxLength: 5 })
      .map((entries) => ({ kind: "object" as const, entries })),
  ),
})).tree;

export function serialize(tree: JsonTree): string {
  if (tree.kind === "leaf") return JSON.stringify(tree.value);
  if (tree.kind === "array") return `[${tree.items.map(serialize).join(",")}]`;
  return `{${tree.entries.map(([key, value]) => `${JSON.stringify(key)}:${serialize(value)}`).join(",")}}`;
}

/** JSON text nested `depth` levels: arrays, objects or both. */
export const deepJson: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 20, max: 8_000 }), fc.constantFrom("array", "object", "mixed"))
  .map(([depth, shape]) => {
    if (shape === "array") return "[".repeat(depth) + "]".repeat(depth);
    if (shape === "object") return '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
    const open = Array.from({ length: depth }, (_, i) => (i % 2 ? "[" : '{"__proto__":'));
    const close = open.map((piece) => (piece === "[" ? "]" : "}")).reverse();
    return open.join("") + "0" + close.join("");
  });

/** Bodies that are not JSON or not what a parser expects. */
export const rawText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    "{",
    "}",
    "[",
    '{"a":1,}',
    "{'a':1}",
    "undefined",
    "null",
    "0",
    '"text"',
    "\u0000",
    "\uFEFF{}",
    "a=1&b=2&__proto__[x]=1",
    '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
  ),
  hostileString,
  deepJson,
  fc.integer({ min: 32 * 1024 - 50, max: 70_000 }).map((size) => `{"a":"${"x".repeat(size)}"}`),
);

/** Some field values of `base` replaced by hostile JSON, and hostile keys added. */
export function mutatedBody(base: Record<string, unknown>): fc.Arbitrary<string> {
  const fields = Object.keys(base);
  return fc
    .tuple(
      fc.array(fc.tuple(fc.constantFrom(...fields), jsonTree), { maxLength: 3 }),
      fc.array(fc.tuple(hostileKey, jsonTree), { maxLength: 2 }),
      fc.option(deepJson, { freq: 8 }),
    )
    .map(([replaced, added, deep]) => {
      const entries: [string, string][] = Object.entries(base).map(([key, value]) => [
        key,
        JSON.stringify(value),
      ]);
      for (const [key, tree] of replaced) {
        const at = entries.findIndex(([name]) => name === key);
        entries[at] = [key, serialize(tree)];
      }
      for (const [key, tree] of added) entries.push([key, serialize(tree)]);
      if (deep !== null) entries.push([fields[0] ?? "a", deep]);
      return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(",")}}`;
    });
}

/**
 * `base` with string fields set to hostile text (and nothing else wrong): the inputs most
 * likely to pass the schema and reach the database.
 */
export function hostileStringsIn(base: Record<string, unknown>): fc.Arbitrary<string> {
  const stringFields = Object.keys(base).filter((key) => typeof base[key] === "string");
  if (stringFields.length === 0) return mutatedBody(base);
  return fc
    .array(fc.tuple(fc.constantFrom(...stringFields), hostileString), {
      minLength: 1,
      maxLength: 3,
    })
    .map((changes) => JSON.stringify({ ...base, ...Object.fromEntries(changes) }));
}

/** A header value as it can arrive on the wire: latin1, no CR, LF or NUL. */
/** A body for an endpoint whose valid body is `base`: mostly near-valid, sometimes anything. */
export function hostileBodies(base: Record<string, unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: hostileStringsIn(base) },
    { weight: 3, arbitrary: mutatedBody(base) },
    { weight: 1, arbitrary: jsonTree.map(serialize) },
    { weight: 1, arbitrary: rawText },
  );
}

export const headerText: fc.Arbitrary<string> = hostileString.map((text) =>
  Buffer.from(text.slice(0, 500), "utf8")
    .toString("latin1")
    .replace(/[\r\n\0]/g, ""),
);

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant("application/json") },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "application/json; charset=UTF-16",
      "application/json; charset=latin1",
      "application/json; charset=nope",
      "application/merge-patch+json",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
      "multipart/form-data; boundary=x",
      "text/plain",
      "text/html",
      "",
      "application/json, text/plain",
    ),
  },
  { weight: 1, arbitrary: headerText },
);

/** Hostile request headers; `overrides` (a session cookie) win when given. */
export const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      "content-type": contentType,
      "content-encoding": fc.constantFrom("gzip", "deflate", "br", "identity", "x-unknown"),
      "accept-language": fc.oneof(
        fc.constantFrom("en", "fr", "it", "zh", "*", "zz;q=2"),
        headerText,
      ),
      "idempotency-key": fc.oneof(fc.uuid(), headerText),
      "x-bot-token": headerText,
      cookie: fc.oneof(
        headerText,
        headerText.map((text) => `castellum_session=${text}`),
        headerText.map((text) => `lang=${text}; castellum_owner_proof=${text}`),
      ),
      origin: fc.oneof(
        fc.constantFrom("http://localhost", "http://evil.example", "null"),
        headerText,
      ),
      "sec-fetch-site": fc.constantFrom("same-origin", "cross-site", "none", "same-site"),
      "x-forwarded-for": fc.oneof(
        fc.constantFrom(
          "1.2.3.4",
          "::1",
          "::ffff:127.0.0.1",
          "1.2.3.4, 5.6.7.8",
          ",,",
          "999.1.1.1",
        ),
        headerText,
      ),
      "x-forwarded-proto": fc.constantFrom("https", "http", "gopher"),
      "user-agent": headerText,
    },
    { requiredKeys: [] },
  )
  .map((headers) => {
    // Mostly JSON, so most bodies are read; an encoding only sometimes.
    if (headers["content-encoding"] !== undefined && headers["content-type"] === undefined)
      delete headers["content-encoding"];
    return headers;
  });

/** A query string of hostile keys and values (some not even valid percent-encoding). */
export const hostileQuery: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant("") },
  {
    weight: 4,
    arbitrary: fc
      .array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom(
              "lang",
              "propertyId",
              "estate",
              "__proto__",
              "constructor",
              "a[b]",
              "q",
            ),
            hostileString,
          ),
          fc.oneof(fc.constantFrom("fr", "zh", "15", "-1", "1e3", "abc"), hostileString),
        ),
        { minLength: 1, maxLength: 4 },
      )
      .map(
        (pairs) =>
          "?" +
          pairs
            .map(
              ([key, value]) =>
                `${encodeLoosely(key.slice(0, 300))}=${encodeLoosely(value.slice(0, 300))}`,
            )
            .join("&"),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("?%", "?%ZZ=1", "?a=%00", "?=&=&", "?lang[]=fr", "?%E0%A4%A"),
  },
);

/** A path segment of any text: lone surrogates (which cannot be percent-encoded) become `?`. */
export function encodePathSegment(text: string): string {
  return encodeURIComponent(text.toWellFormed().replace(/\uFFFD/g, "?")) || "x";
}

/**
 * encodeURIComponent, but lone surrogates (which it refuses) become `%ED%A0%80`-like junk:
 * for query strings, which are read leniently. (A path with a malformed escape is a 400 from
 * the router before any route runs.)
 */
export function encodeLoosely(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, "?")) + "%ED%A0%80";
  }
}

/** True when nothing was added to Object.prototype or Array.prototype. */
export function prototypesAreClean(): boolean {
  const probe: Record<string, unknown> = {};
  for (const _key in probe) return false;
  return (
    Object.getOwnPropertyNames(Object.prototype).every((name) => ORIGINAL_OBJECT_KEYS.has(name)) &&
    Object.getOwnPropertyNames(Array.prototype).every((name) => ORIGINAL_ARRAY_KEYS.has(name)) &&
    probe.polluted === undefined
  );
}
const ORIGINAL_OBJECT_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));
const ORIGINAL_ARRAY_KEYS = new Set(Object.getOwnPropertyNames(Array.prototype));
