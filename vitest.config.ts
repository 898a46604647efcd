import { defineConfig } from "vitest/config";
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
    // a suite waits (child processes, SMTP, timers), so the fast tier runs two files at once;
    // the whole suite keeps the default, its timings measured that way.
    maxWorkers: TEST_TIER === "fast" ? 2 : undefined,
  },
});
