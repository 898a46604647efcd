import { defineConfig } from "vitest/config";
import LongestFirst from "./tests/setup/sequencer.ts";
import { ALL_TIER_ONLY, TEST_TIER } from "./tests/setup/tier.ts";

// Unit and integration tests. Browser journeys have their own config (tests/e2e).
export default defineConfig({
  test: {
    // Vitest's own report, then each file's time, slowest first.
    reporters: ["default", "./tests/setup/file-times.ts"],
    include: ["**/*.test.ts"],
    exclude: [
      "node_modules/**",
      "build/**",
      "tests/e2e/**",
      // The fast tier leaves out the suites that start processes or build a large catalogue.
      ...(TEST_TIER === "fast" ? ALL_TIER_ONLY : []),
    ],
    globalSetup: ["./tests/setup/global.ts"],
    setupFiles: ["./tests/setup/console.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Vitest's default is one worker fewer than the cores: one on a two-core machine. Much of
    // a suite waits (the database server, child processes, SMTP, timers), so both tiers run two
    // files at once.
    maxWorkers: 2,
    // A worker keeps the modules it has loaded from one file to the next: loading the app's
    // module graph again for every file spent about a quarter of each run. The suites hold
    // their state in what they create (a database, a server, services), never in a module,
    // which is what makes this safe; a file that needs a fresh module graph says so itself.
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
