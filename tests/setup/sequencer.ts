import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files known to run longest, longest first. A worker runs files one after another, so a
 * long file started last keeps the run going alone while the other worker idles: on a fresh
 * clone Vitest has no timings yet and starts the largest files first, which put the query
 * string fuzz (four minutes of the whole suite) at the very end.
 */
export const LONGEST_FIRST = [
  "tests/fuzz/query-strings.test.ts",
  "tests/fuzz/calendar-feed-endpoints.test.ts",
  "tests/fuzz/staff-endpoints.test.ts",
  "tests/fuzz/owner-endpoints.test.ts",
  "tests/fuzz/webhook-endpoints.test.ts",
  "tests/fuzz/public-endpoints.test.ts",
  "domain/catalogue/facts-index.test.ts",
  "domain/catalogue/search-plans.test.ts",
  "server/query-budgets.test.ts",
  "server/catalogue-cli.process.test.ts",
  "server/staff-cli.process.test.ts",
];

/** Vitest's order (slowest first once it has timings), with the known longest files ahead. */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((path) => file.moduleId.endsWith(`/${path}`));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    // Array.prototype.sort is stable: the rest keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
