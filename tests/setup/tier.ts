/**
 * The two test tiers. `npm test` runs the fast one (the default): PGlite only, a short fuzz,
 * no ALL_TIER_ONLY suite, two files at a time; the loop a person runs all day.
 * `npm run test:all` (what CI runs) sets `TEST_TIER=all`: every suite, each database suite on
 * PGlite and on PostgreSQL (`TEST_DATABASE_URL`, required), the full fuzz. Test code asks
 * this module, never `TEST_TIER` itself.
 */
export type TestTier = "fast" | "all";

export const TEST_TIER: TestTier = readTier(process.env.TEST_TIER);

/**
 * Suites only the whole suite runs. Each spends its time outside the code it checks: starting
 * a Node process per command (each opens the embedded database from its files, the first makes
 * it), or building a catalogue of thousands of estates. Every command of the CLIs also runs
 * in-process in both tiers (server/staff-cli.test.ts, server/catalogue-cli.test.ts), a few
 * milliseconds a command where a process took seconds.
 */
export const ALL_TIER_ONLY = [
  // `npm run staff` and `npm run db:seed -- --demo-admin` as a user runs them: exit codes,
  // stdin, a new data directory and its lock.
  "server/staff-cli.process.test.ts",
  // `npm run catalogue` export and import as a user runs them: exit codes, files, the lock.
  "server/catalogue-cli.process.test.ts",
  // Every filter, text and cursor served by an index, on a generated catalogue (~30 s).
  "domain/catalogue/search-plans.test.ts",
  // The in-memory facts index against SQL on 3,000 generated estates with a year of calendars
  // (~20 s); the catalogue suites check search on the demo catalogue in both tiers.
  "domain/catalogue/facts-index.test.ts",
  // `npm run dev` as a developer starts it: a Node process building the app in development
  // (~20 s); the server's code is exercised in-process by every server suite.
  "server/index.test.ts",
];

/**
 * Generated requests per fuzzed endpoint: the default of each tier, and the least of `all`.
 * `all` was 10,000, then 5,000 once the fuzzed calls reached some 70 on two backends; at 5,000
 * the fuzz files alone took over 35 minutes of a CI rehearsal that passed 70, so it is 2,000:
 * the kept regression seeds replay every failure found, and a long run sets FUZZ_RUNS. `fast`
 * is 100: enough to reach each endpoint's refusals in the loop a person runs all day, where the
 * fuzz files took a sixth of the tier's time at 200.
 */
export const FUZZ_RUNS_BY_TIER: Record<TestTier, number> = { fast: 100, all: 2_000 };

/**
 * The share of the runs an endpoint is fuzzed with on PostgreSQL, the second backend of the `all`
 * tier; PGlite gets them all. A generated request takes the same path through the app on either
 * backend (parsing, validation, the domain's checks, the same SQL) and differs only where the
 * database answers, which the hostile constants (NUL, lone surrogates, 2^31, 1e309, long text)
 * reach within a few hundred requests; the rest fuzzed the same code a second time. Kept
 * regression seeds replay in full on both backends.
 */
export const SECOND_BACKEND_FUZZ_SHARE = 0.25;

export function readTier(raw: string | undefined): TestTier {
  if (raw === undefined || raw === "" || raw === "fast") return "fast";
  if (raw === "all") return "all";
  throw new Error(`TEST_TIER must be "fast" or "all", not ${JSON.stringify(raw)}`);
}

/**
 * The PostgreSQL server of the second backend: `TEST_DATABASE_URL` in the `all` tier (where it
 * must be set), nothing in the fast tier even when it is set, so `npm test` stays fast.
 */
export function testDatabaseUrl(
  tier: TestTier = TEST_TIER,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (tier === "fast") return undefined;
  const url = env.TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      "TEST_TIER=all runs every database suite on PostgreSQL too: set TEST_DATABASE_URL " +
        "(e.g. postgres://postgres@127.0.0.1:5432/test), as .ci/run does.",
    );
  return url;
}

/**
 * FUZZ_RUNS: the tier's default when unset. A larger number is a longer run; the `all` tier
 * refuses a smaller one, so what CI runs is never quietly shortened.
 */
export function readFuzzRuns(raw: string | undefined, tier: TestTier = TEST_TIER): number {
  if (raw === undefined || raw === "") return FUZZ_RUNS_BY_TIER[tier];
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS must be a whole number >= 1`);
  if (tier === "all" && runs < FUZZ_RUNS_BY_TIER.all)
    throw new Error(
      `FUZZ_RUNS=${runs} is below the ${FUZZ_RUNS_BY_TIER.all} of the whole suite (TEST_TIER=all): unset it`,
    );
  return runs;
}
