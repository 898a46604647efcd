/** A background job of one instance: run every `pollMs` and whenever kicked. */
export interface PolledWorker {
  /** Runs now, or once more right after the run in progress. */
  kick(): void;
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
          if (await options.runOnce(isStopped)) again = true;
        } while (again && !stopped);
      } catch (error) {
        options.onError(error);
      } finally {
        running = null;
      }
    })();
  };
  const timer = setInterval(run, options.pollMs);
  timer.unref();
  run();
  return {
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
