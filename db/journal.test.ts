import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const journal = JSON.parse(
  readFileSync(join(import.meta.dirname, "migrations/meta/_journal.json"), "utf8"),
) as { entries: { idx: number; when: number; tag: string }[] };

/**
 * Drizzle's migrator applies the migrations whose `when` is newer than the newest one applied,
 * and /readyz compares the same numbers: a `when` out of order, or one in the future, would make
 * a later migration (stamped with the clock when generated) look applied and be skipped.
 */
describe("the migration journal", () => {
  it("numbers the migrations 0, 1, 2… with strictly rising times, none in the future", () => {
    const entries = journal.entries;
    expect(entries.map((entry) => entry.idx)).toEqual(entries.map((_, index) => index));
    for (const [index, entry] of entries.entries()) {
      expect(entry.tag.startsWith(String(index).padStart(4, "0"))).toBe(true);
      if (index > 0) expect(entry.when).toBeGreaterThan(entries[index - 1]!.when);
      expect(entry.when).toBeLessThanOrEqual(Date.now());
    }
  });
});
