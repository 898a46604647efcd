import { parentPort, workerData } from "node:worker_threads";
import { IcalImportError, readCalendar, type ReadOptions } from "./ical-import.ts";

/**
 * One feed's text read on a thread of its own (started by ical-reader.ts): the answer, or the
 * reason it could not be read, goes back as one message.
 */
const input = workerData as { text: string; nowMs: number; options: ReadOptions };
try {
  const read = readCalendar(input.text, new Date(input.nowMs), input.options);
  parentPort?.postMessage({ ok: true, read });
} catch (error) {
  parentPort?.postMessage(
    error instanceof IcalImportError
      ? { ok: false, code: error.code, detail: error.detail }
      : { ok: false, code: "malformed", detail: String((error as Error)?.message).slice(0, 200) },
  );
}
