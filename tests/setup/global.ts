import { FUZZ_RUNS } from "../fuzz/hostile.ts";
import { dropPostgresTemplates } from "./postgres-templates.ts";
import { TEST_TIER, testDatabaseUrl } from "./tier.ts";

/** Says which tier runs and on which database backends, before and after the run. */
export default function setup() {
  // Both throw on a bad setting (TEST_TIER=all without TEST_DATABASE_URL, a short FUZZ_RUNS):
  // before any suite starts rather than in each of them.
  const url = testDatabaseUrl();
  const backends = url
    ? `PGlite (embedded) and PostgreSQL (${redact(url)})`
    : "PGlite (embedded) only; `npm run test:all` adds PostgreSQL (TEST_DATABASE_URL)";
  const line =
    `Test tier: ${TEST_TIER} (fuzz: ${FUZZ_RUNS} requests per endpoint). ` +
    `Database suites run on: ${backends}`;
  console.log(`\n${line}\n`);
  return async () => {
    if (url) await dropPostgresTemplates(url);
    console.log(`\n${line}\n`);
  };
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "invalid URL";
  }
}
