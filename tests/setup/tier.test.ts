import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fuzzRunsOn } from "../fuzz/hostile.ts";
import { LONGEST_FIRST } from "./sequencer.ts";
import { ALL_TIER_ONLY, readFuzzRuns, readTier, testDatabaseUrl } from "./tier.ts";

const POSTGRES = { TEST_DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test" };

describe("test tiers", () => {
  it("runs the fast tier unless TEST_TIER=all, and refuses another name", () => {
    expect(readTier(undefined)).toBe("fast");
    expect(readTier("")).toBe("fast");
    expect(readTier("all")).toBe("all");
    expect(() => readTier("full")).toThrow(/TEST_TIER must be "fast" or "all"/);
  });

  it("ignores TEST_DATABASE_URL in the fast tier and requires it in the whole suite", () => {
    expect(testDatabaseUrl("fast", POSTGRES)).toBeUndefined();
    expect(testDatabaseUrl("all", POSTGRES)).toBe(POSTGRES.TEST_DATABASE_URL);
    expect(() => testDatabaseUrl("all", {})).toThrow(/set TEST_DATABASE_URL/);
  });

  it("fuzzes 100 requests per endpoint in the fast tier and at least 2,000 in the whole suite", () => {
    expect(readFuzzRuns(undefined, "fast")).toBe(100);
    expect(readFuzzRuns(undefined, "all")).toBe(2_000);
    expect(readFuzzRuns("500", "fast")).toBe(500);
    expect(readFuzzRuns("100000", "all")).toBe(100_000);
    expect(() => readFuzzRuns("500", "all")).toThrow(/below the 2000/);
    expect(() => readFuzzRuns("many", "fast")).toThrow(/whole number/);
    // PostgreSQL, the second backend, fuzzes a quarter of them.
    expect(fuzzRunsOn("pglite", 2_000)).toBe(2_000);
    expect(fuzzRunsOn("postgres", 2_000)).toBe(500);
  });

  it("names only files that exist among the longest and the whole suite's own", () => {
    const root = join(import.meta.dirname, "../..");
    for (const path of [...LONGEST_FIRST, ...ALL_TIER_ONLY])
      expect(existsSync(join(root, path)), path).toBe(true);
  });
});
