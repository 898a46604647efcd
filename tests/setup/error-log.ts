import { Writable } from "node:stream";
import pino, { type Logger } from "pino";

/**
 * The logger the test suites hand to the code: silent below `error`, and an `error` (or
 * `fatal`) line goes to console.error, which fails the test (tests/setup/console.ts), so a
 * server error cannot hide behind a quiet logger. A test that provokes one on purpose says so
 * with `expectErrorLog(/pattern/)`, and fails if it never comes.
 */
export function createTestLogger(): Logger {
  return pino(
    { level: "error", base: undefined },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        const line = chunk.toString("utf8");
        const msg = (JSON.parse(line) as { msg?: string }).msg ?? line;
        const expected =
          expectations.find((e) => !e.seen && e.pattern.test(msg)) ??
          expectations.find((e) => e.pattern.test(msg));
        if (expected) expected.seen = true;
        else console.error(`error logged: ${line}`);
        done();
      },
    }),
  );
}

const expectations: { pattern: RegExp; seen: boolean }[] = [];

/** This test logs an error matching `pattern` on purpose (and must: else it fails). */
export function expectErrorLog(pattern: RegExp) {
  expectations.push({ pattern, seen: false });
}

/**
 * Fails the test that expected an error log it never got, and forgets the expectations. Run
 * after every test by the setup file (tests/setup/console.ts): a hook registered here would
 * run for the first file of a worker only, as a worker loads this module once.
 */
export function checkErrorLogExpectations() {
  const missing = expectations.filter((e) => !e.seen).map((e) => String(e.pattern));
  expectations.length = 0;
  if (missing.length) throw new Error(`expected error log not written: ${missing.join(", ")}`);
}
