import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { fileOffsetClock } from "./clock-file.ts";

const dir = mkdtempSync(join(tmpdir(), "castellum-clock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The clock's offset from the system time, to the minute (a reading takes microseconds). */
const offsetOf = (clock: () => Date): number =>
  Math.round((clock().getTime() - Date.now()) / 60_000) * 60_000;

it("reads the system time plus the file's offset, again whenever the file changes", () => {
  const path = join(dir, "clock.json");
  const clock = fileOffsetClock(path);
  // No file: the system time.
  expect(offsetOf(clock)).toBe(0);
  writeFileSync(path, JSON.stringify({ offsetMs: 49 * 3_600_000 }));
  expect(offsetOf(clock)).toBe(49 * 3_600_000);
  writeFileSync(path, JSON.stringify({ offsetMs: -2 * 3_600_000 }));
  expect(offsetOf(clock)).toBe(-2 * 3_600_000);
  // A file that is not an offset counts as none.
  writeFileSync(path, "soon");
  expect(offsetOf(clock)).toBe(0);
});
