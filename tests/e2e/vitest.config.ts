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
    testTimeout: 60_000,
    // Pages load and hydrate on a shared two-core machine: give polled assertions room.
    expect: { poll: { timeout: 5000, interval: 50 } },
    hookTimeout: 120_000,
    // One browser at a time: the machine has two cores and the server needs one.
    fileParallelism: false,
  },
});
