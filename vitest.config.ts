import { defineConfig } from "vitest/config";

// Unit and integration tests. Browser journeys have their own config (tests/e2e).
export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "build/**", "tests/e2e/**"],
    globalSetup: ["./tests/setup/global.ts"],
    setupFiles: ["./tests/setup/console.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
