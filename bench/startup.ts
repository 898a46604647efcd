/**
 * Start-up: the production server's first start on a new data directory (migrations, demo
 * seed) and its reopen on the same directory, beside the blank app of the same stack.
 * Medians of several runs; ratios to the blank app's start in the same run.
 */
import { rmSync } from "node:fs";
import { ensureBuilds, startBlank, startCastellum } from "./servers.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export async function benchStartup() {
  ensureBuilds();
  const first: number[] = [];
  const reopen: number[] = [];
  const blank: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const cold = await startCastellum();
    first.push(cold.readyMs);
    await cold.stop();
    const warm = await startCastellum(cold.dataDir);
    reopen.push(warm.readyMs);
    await warm.stop();
    rmSync(cold.dataDir, { recursive: true, force: true });
    const baseline = await startBlank();
    blank.push(baseline.readyMs);
    await baseline.stop();
  }
  const base = median(blank);
  const rows = [
    ["blank app of the same stack", base],
    ["first start (new data dir: migrate + seed 42 estates)", median(first)],
    ["reopen (same data dir)", median(reopen)],
  ] as const;
  console.log(`\nStart-up, process spawn to first answer (median of ${RUNS})`);
  for (const [label, ms] of rows) {
    console.log(
      `  ${label.padEnd(56)} ${(ms / 1000).toFixed(2).padStart(6)} s   ×${(ms / base).toFixed(1)}`,
    );
  }
}

if (import.meta.main) await benchStartup();
