import { afterEach, vi } from "vitest";
import { checkErrorLogExpectations } from "./error-log.ts";

// Setup files run before every test file; the modules they import load once per worker.
afterEach(checkErrorLogExpectations);

// An unexpected console.error is a failure, not noise (Epic Stack's rule).
const errors: unknown[][] = [];
vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
  errors.push(args);
});
afterEach(() => {
  if (errors.length === 0) return;
  const logged = errors.splice(0).map((args) => args.map(String).join(" "));
  throw new Error(`console.error was called:\n${logged.join("\n")}`);
});
