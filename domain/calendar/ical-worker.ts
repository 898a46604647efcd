import { parentPort, workerData } from "node:worker_threads";
import { IcalImportError, type ImportLimits, readBusyTimes } from "./ical-import.ts";

/**
 * One feed's text read on a thread of its own (started by ical-reader.ts): the answer, or the
 * reason it could not be read, goes back as one message.
 */
const input = workerData as { text: string; nowMs: number; limits: ImportLimits };
try {
  const busy = readBusyTimes(input.text, new Date(input.nowMs), input.limits);
  parentPort?.postMessage({ ok: true, busy });
} catch (error) {
  parentPort?.postMessage(
    error instanceof IcalImportError
      ? { ok: false, code: error.code, detail: error.detail }
      : { ok: false, code: "malformed", detail: String((error as Error)?.message).slice(0, 200) },
  );
}
