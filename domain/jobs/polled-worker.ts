/** A background job of one instance: run every `pollMs` and whenever kicked. */
export interface PolledWorker {
  /** Runs now, or once more right after the run in progress. */
  kick(): void;
  /**
   * Runs a whole pass that starts after this call and resolves when it has ended (at once if
   * the worker has stopped). Whoever needs the work done (a test asserting what a pass did or
   * did not do) waits for this, not for time to pass.
   */
  runNow(): Promise<void>;
  /** No new run starts; resolves when the one in progress has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `runOnce` every `pollMs` and when kicked, one run at a time on this instance: a kick
 * during a run asks for one more pass, and so does a pass answering true (a full batch: more may
 * be waiting). Other instances run their own; leases or row locks keep them apart.
 */
export function startPolledWorker(options: {
  pollMs: number;
  runOnce: (isStopped: () => boolean) => Promise<boolean>;
  onError: (error: unknown) => void;
}): PolledWorker {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  /** Callers of runNow waiting for a pass that has not started yet. */
  let waiting: (() => void)[] = [];
  const isStopped = () => stopped;
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          const thisPass = waiting;
          waiting = [];
          try {
            if (await options.runOnce(isStopped)) again = true;
          } finally {
            for (const done of thisPass) done();
          }
        } while ((again || waiting.length > 0) && !stopped);
      } catch (error) {
        options.onError(error);
      } finally {
        running = null;
        // A pass that failed leaves its waiters answered; later ones still get their pass.
        if (waiting.length > 0) {
          if (stopped) for (const done of waiting.splice(0)) done();
          else queueMicrotask(run);
        }
      }
    })();
  };
  const timer = setInterval(run, options.pollMs);
  timer.unref();
  run();
  return {
    kick: run,
    runNow() {
      if (stopped) return Promise.resolve();
      const ended = new Promise<void>((resolve) => waiting.push(resolve));
      run();
      return ended;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      for (const done of waiting.splice(0)) done();
    },
  };
}
