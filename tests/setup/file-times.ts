import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints every test file's time at the end of a run, slowest first, with the total, so a run's
 * log says where its minutes went and a file that slowed down is seen the day it does.
 * Wall time per file (import, hooks, tests), as a file holds its worker while it runs.
 */
export default class FileTimes implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules
      .map((module) => {
        const d = module.diagnostic();
        return { file: module.moduleId, ms: d.collectDuration + d.setupDuration + d.duration };
      })
      .sort((a, b) => b.ms - a.ms);
    const total = rows.reduce((sum, row) => sum + row.ms, 0);
    const root = process.cwd() + "/";
    const lines = rows.map(
      ({ file, ms }) =>
        `${(ms / 1000).toFixed(1).padStart(8)} s  ${file.startsWith(root) ? file.slice(root.length) : file}`,
    );
    process.stdout.write(
      `\nTime per test file (${rows.length} files, ${(total / 1000).toFixed(0)} s in all, ` +
        `slowest first):\n${lines.join("\n")}\n`,
    );
  }
}
