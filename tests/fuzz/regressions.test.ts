import express from "express";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FuzzRegression, fuzzEndpoint, loadRegressions, replayParameters } from "./harness.ts";

describe("kept fuzz seeds (tests/fuzz/regressions.json)", () => {
  it("reads the committed file: an array of {endpoint, seed, path}", () => {
    expect(Array.isArray(loadRegressions())).toBe(true);
  });

  it("replays the very case a seed and path name, and only that case", async () => {
    // A deterministic arbitrary, and a property that fails on a few of its values only, so
    // the failing run is not the first (a replay that ignored the path would start elsewhere).
    const arbitrary = fc.record({ text: fc.string(), count: fc.integer({ min: 0, max: 999 }) });
    const fails = (value: { count: number }) => value.count % 37 === 5;
    for (const endOnFailure of [true, false]) {
      const found = await fc.check(
        fc.asyncProperty(arbitrary, async (value) => !fails(value)),
        { seed: 20261125, numRuns: 10_000, endOnFailure },
      );
      expect(found.failed).toBe(true);
      const kept: FuzzRegression = {
        endpoint: "POST /api/booking-requests",
        seed: found.seed,
        path: found.counterexamplePath!,
      };
      expect(Number(kept.path.split(":")[0]), "the failure is not the first run").toBeGreaterThan(
        0,
      );
      if (!endOnFailure) expect(kept.path, "a shrunk case has a longer path").toContain(":");

      const seen: unknown[] = [];
      const replayed = await fc.check(
        fc.asyncProperty(arbitrary, async (value) => {
          seen.push(value);
          return !fails(value);
        }),
        replayParameters(kept),
      );
      expect(seen).toEqual([found.counterexample![0]]);
      expect(replayed.failed).toBe(true);
      expect(replayed.counterexample).toEqual(found.counterexample);
    }
  });

  it("says which seed and path to keep, then fails on them before any random run", async () => {
    // An endpoint that answers 500 to some bodies: the harness must find it and name the seed.
    const app = express();
    app.post("/api/booking-requests", (req, res) => {
      let length = 0;
      req.on("data", (chunk: Buffer) => (length += chunk.length));
      req.on("end", () => {
        res.status(length % 5 === 3 ? 500 : 400).json({ message: "refused" });
      });
    });
    const endpoint = {
      method: "POST" as const,
      documented: "/api/booking-requests",
      cases: fc.string().map((body) => ({ path: "/api/booking-requests", body })),
    };
    const first = await fuzzEndpoint({ app }, endpoint, []).then(
      () => "passed",
      (error: Error) => error.message,
    );
    const advice = /add (\{.*\}) to tests\/fuzz\/regressions\.json/.exec(first);
    expect(advice, first).not.toBeNull();
    const kept = JSON.parse(advice![1]!) as FuzzRegression;
    expect(kept.endpoint).toBe("POST /api/booking-requests");
    expect(first).toContain(`seed ${kept.seed}, path ${kept.path}`);

    // Kept (with an entry for another endpoint, which this one ignores): the replay fails
    // first, on the same request.
    const other = { endpoint: "POST /api/bookings", seed: 1, path: "0" };
    const again = await fuzzEndpoint({ app }, endpoint, [other, kept]).then(
      () => "passed",
      (error: Error) => error.message,
    );
    expect(again).toContain(`fails again on the kept seed ${kept.seed}, path ${kept.path}`);
    const lastLine = (message: string) => message.split("\n").filter(Boolean).at(-1);
    expect(lastLine(again)).toBe(first.split("\n").filter(Boolean).at(-2));
  });
});
