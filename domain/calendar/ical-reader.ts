import { Worker } from "node:worker_threads";
import {
  type CalendarRead,
  DEFAULT_IMPORT_LIMITS,
  IcalImportError,
  type IcalErrorCode,
  type ReadOptions,
} from "./ical-import.ts";

/** Heap one feed's reading may use: a 2 MB feed needs a fraction of it. */
const WORKER_HEAP_MB = 128;

type WorkerAnswer =
  { ok: true; read: CalendarRead } | { ok: false; code: IcalErrorCode; detail: string };

/** Reads are queued: one at a time per process, so feeds never take more than one core. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Reads a calendar's text as `readCalendar` does, but on a worker thread: the server's own
 * thread keeps answering while a feed is parsed and expanded, whatever the feed holds. The
 * thread is stopped after `limits.maxReadMs` and its heap is capped, so one feed costs at most
 * that much time of one core. Throws an `IcalImportError` as `readCalendar` does.
 */
export function readCalendarOffThread(
  text: string,
  now: Date,
  options: ReadOptions = {},
): Promise<CalendarRead> {
  const read = queue.then(() => readOnce(text, now, options));
  queue = read.catch(() => undefined);
  return read;
}

/**
 * The worker's source file, found from the project's root: this module also runs bundled into
 * the production build (build/server/index.js), where a path next to it names a file the build
 * never writes. Both this file and the bundle sit two folders below the root, and the server
 * runs from the source tree, so the same relative path finds the worker from either.
 */
const WORKER_FILE = new URL("../../domain/calendar/ical-worker.ts", import.meta.url);

function readOnce(text: string, now: Date, options: ReadOptions): Promise<CalendarRead> {
  const limits = options.limits ?? DEFAULT_IMPORT_LIMITS;
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_FILE, {
      workerData: { text, nowMs: now.getTime(), options: { ...options, limits } },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(cap);
      outcome();
      void worker.terminate();
    };
    const cap = setTimeout(
      () =>
        settle(() =>
          reject(
            new IcalImportError(
              "too_many_events",
              `reading the calendar took longer than ${limits.maxReadMs} ms`,
            ),
          ),
        ),
      limits.maxReadMs,
    );
    worker.once("message", (answer: WorkerAnswer) =>
      settle(() =>
        answer.ok ? resolve(answer.read) : reject(new IcalImportError(answer.code, answer.detail)),
      ),
    );
    worker.once("error", (error: Error) =>
      settle(() =>
        reject(
          new IcalImportError(
            "too_many_events",
            `the calendar could not be read within its limits: ${error.message.slice(0, 100)}`,
          ),
        ),
      ),
    );
    worker.once("exit", (code) =>
      settle(() =>
        reject(new IcalImportError("malformed", `the reader stopped (exit code ${code})`)),
      ),
    );
  });
}
