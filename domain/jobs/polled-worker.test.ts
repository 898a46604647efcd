import { describe, expect, it } from "vitest";
import { startPolledWorker } from "./polled-worker.ts";

/** A job whose passes each wait for the test to let them end, counting the ones that began. */
function gatedJob(options: { failFirst?: boolean } = {}) {
  let began = 0;
  let release: (() => void) | undefined;
  const errors: unknown[] = [];
  const worker = startPolledWorker({
    pollMs: 3_600_000,
    runOnce: async () => {
      began += 1;
      await new Promise<void>((resolve) => (release = resolve));
      if (options.failFirst && began === 1) throw new Error("first pass fails");
      return false;
    },
    onError: (error) => errors.push(error),
  });
  const passBegan = (n: number) => expect.poll(() => began).toBe(n);
  return { worker, errors, passBegan, endPass: () => release?.(), began: () => began };
}

describe("a polled worker's runNow", () => {
  it("answers after a whole pass that began after the call, not the one in progress", async () => {
    const job = gatedJob();
    await job.passBegan(1);
    let answered = false;
    const done = job.worker.runNow().then(() => (answered = true));
    job.endPass();
    await job.passBegan(2);
    expect(answered).toBe(false);
    job.endPass();
    await done;
    expect(job.began()).toBe(2);
    await job.worker.stop();
  });

  it("answers its callers when their pass fails, and the next caller still gets a pass", async () => {
    const job = gatedJob({ failFirst: true });
    await job.passBegan(1);
    job.endPass();
    await expect.poll(() => job.errors.length).toBe(1);
    const next = job.worker.runNow();
    await job.passBegan(2);
    job.endPass();
    await next;
    await job.worker.stop();
  });

  it("answers at once once the worker has stopped", async () => {
    const job = gatedJob();
    await job.passBegan(1);
    const waiting = job.worker.runNow();
    const stopped = job.worker.stop();
    job.endPass();
    await stopped;
    await waiting;
    await job.worker.runNow();
    expect(job.began()).toBe(1);
  });
});
