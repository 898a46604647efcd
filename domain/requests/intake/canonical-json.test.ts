import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.ts";

/** What the hash was made from before canonicalJson stopped recursing: hashes must not move. */
function recursiveCanonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(recursiveCanonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${recursiveCanonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

describe("canonicalJson", () => {
  it("sorts keys at every level, so key order does not change the text", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: null }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[1,{"y":null,"z":0}]},"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });

  it("writes what the recursive version wrote for any JSON value (stored keys keep their hash)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(recursiveCanonicalJson(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it("writes undefined values and array holes as the recursive version did", () => {
    // eslint-disable-next-line no-sparse-arrays
    const value = { a: undefined, b: [undefined, , 2], c: () => 1 };
    expect(canonicalJson(value)).toBe(recursiveCanonicalJson(value));
  });

  it("takes JSON nested 100,000 levels deep without overflowing the stack", () => {
    const depth = 100_000;
    const deep: unknown = JSON.parse("[".repeat(depth) + "]".repeat(depth));
    expect(() => recursiveCanonicalJson(deep)).toThrow(RangeError);
    expect(canonicalJson(deep)).toBe("[".repeat(depth) + "]".repeat(depth));
  });
});
