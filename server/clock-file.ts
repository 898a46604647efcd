import { readFileSync, statSync } from "node:fs";
import type { Clock } from "#domain/clock.ts";

/**
 * A clock browser journeys move (CLOCK_OFFSET_FILE): the system time plus the offset that the
 * file `{ "offsetMs": n }` holds, read again whenever the file changes. A journey then reaches a
 * due time by writing the file, as a unit test sets its manual clock, instead of waiting for
 * hours to pass. A missing or unreadable file means no offset.
 */
export function fileOffsetClock(path: string): Clock {
  let seen = "";
  let offsetMs = 0;
  return () => {
    const stat = statSync(path, { throwIfNoEntry: false });
    const version = stat ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : "";
    if (version !== seen) {
      seen = version;
      offsetMs = stat ? readOffset(path) : 0;
    }
    return new Date(Date.now() + offsetMs);
  };
}

function readOffset(path: string): number {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as { offsetMs?: unknown };
    return typeof parsed.offsetMs === "number" && Number.isFinite(parsed.offsetMs)
      ? parsed.offsetMs
      : 0;
  } catch {
    return 0;
  }
}
