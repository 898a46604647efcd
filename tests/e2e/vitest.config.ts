import { join } from "node:path";
import { defineConfig } from "vitest/config";

// Browser journeys: Chromium (Debian's, through playwright-core) against the production build.
export default defineConfig({
  test: {
    // Vitest's own report, then each file's time, slowest first.
    reporters: ["default", "./tests/setup/file-times.ts"],
    root: join(import.meta.dirname, "../.."),
    include: ["tests/e2e/**/*.spec.ts"],
    globalSetup: ["./tests/e2e/global-setup.ts"],
    // Closes each file's one Chromium after its last test (browser.ts).
    setupFiles: ["./tests/e2e/setup.ts"],
    // Two files at a time, each with its own browser and its own servers (the shared one of its
    // worker, harness.ts): most of a journey's time is spent waiting for a page, a server or a
    // mail, so two of them fill the two cores better than one did.
    maxWorkers: 2,
    // A worker keeps the modules it has loaded (Playwright, axe, the database client) from one
    // file to the next, as the unit suites do; the journeys keep their state in their servers
    // and browsers, which each file starts and stops.
    isolate: false,
    // Timeouts for a loaded two-core machine (two journeys, their servers and other work): a
    // passing wait returns as soon as its signal comes, so a generous one costs nothing.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    expect: { poll: { timeout: 15_000, interval: 50 } },
  },
});
