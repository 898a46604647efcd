/**
 * The whole suite, as CI runs it: checks, the production build, every Vitest suite on both
 * databases with the full fuzz, then the browser journeys. Stops at the first phase that
 * fails, and prints each phase's time at the end, so a run's log says where its minutes went.
 */
import { spawnSync } from "node:child_process";

const PHASES: [name: string, command: string][] = [
  ["checks (types, lint, imports, format)", "npm run check"],
  ["production build", "npm run build"],
  ["unit and integration suites", "vitest run"],
  ["browser journeys", "npm run test:e2e"],
];

const times: [string, number][] = [];
let failed: string | undefined;
for (const [name, command] of PHASES) {
  const started = performance.now();
  const run = spawnSync(command, {
    shell: true,
    stdio: "inherit",
    env: { ...process.env, TEST_TIER: "all" },
  });
  times.push([name, performance.now() - started]);
  if (run.status !== 0) {
    failed = name;
    break;
  }
}

const total = times.reduce((sum, [, ms]) => sum + ms, 0);
const minutes = (ms: number) => `${(ms / 60_000).toFixed(1).padStart(5)} min`;
process.stdout.write(
  `\nWhole suite, time per phase:\n${times.map(([name, ms]) => `${minutes(ms)}  ${name}`).join("\n")}\n` +
    `${minutes(total)}  in all${failed ? `; failed in: ${failed}` : ""}\n`,
);
process.exitCode = failed ? 1 : 0;
