import { Writable } from "node:stream";
import pino from "pino";
import { expect, it } from "vitest";
import { JobRunner, OUTAGE_AFTER_FAILURES } from "./job-runner.ts";

/** A logger that keeps each line's level and message. */
function recordingLogger() {
  const lines: { level: number; msg: string; job?: string }[] = [];
  const log = pino(
    { level: "info", base: undefined },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString("utf8")) as (typeof lines)[number]);
        done();
      },
    }),
  );
  return { log, lines };
}

it("runs named jobs, counts their passes and failures, and logs an outage once and its end once", async () => {
  const { log, lines } = recordingLogger();
  const runner = new JobRunner(log);
  let failing = true;
  const flaky = runner.start("flaky", {
    everyMs: 3_600_000,
    async run() {
      if (failing) throw new Error("database unreachable");
    },
  });
  let steadyPasses = 0;
  runner.start("steady", {
    everyMs: 3_600_000,
    async run() {
      steadyPasses += 1;
      // One more pass follows at once while a pass says more is waiting.
      return steadyPasses < 3;
    },
  });
  expect(() => runner.start("steady", { everyMs: 1000, run: async () => {} })).toThrow(
    /already running/,
  );

  for (let pass = 0; pass < OUTAGE_AFTER_FAILURES + 2; pass++) await flaky.runNow();
  failing = false;
  await runner.job("flaky").runNow();
  await runner.job("steady").runNow();

  const byName = Object.fromEntries(runner.metrics().map((job) => [job.name, job]));
  // The first pass at start, the runNow passes, and the recovered one.
  expect(byName.flaky).toMatchObject({ failures: OUTAGE_AFTER_FAILURES + 3, failingFor: 0 });
  expect(byName.flaky?.runs).toBe(OUTAGE_AFTER_FAILURES + 4);
  expect(byName.steady?.failures).toBe(0);
  expect(steadyPasses).toBeGreaterThanOrEqual(4);
  const about = (job: string) => lines.filter((line) => line.job === job).map((line) => line.msg);
  expect(about("flaky")).toEqual([
    ...Array<string>(OUTAGE_AFTER_FAILURES - 1).fill("job pass failed"),
    "job failing: its passes keep failing",
    "job recovered",
  ]);
  expect(about("steady")).toEqual([]);
  await runner.stop();
  // A stopped runner runs nothing more.
  await flaky.runNow();
  expect(runner.metrics().find((job) => job.name === "flaky")?.runs).toBe(
    OUTAGE_AFTER_FAILURES + 4,
  );
});
