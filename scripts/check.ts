/**
 * `npm run check`: types, lint (with the layer boundaries), import rules and format, side by
 * side. Each is one single-threaded process, and ESLint's typed rules alone take about a minute
 * on two cores: one after the other the four took 100 s, together they take about as long as
 * ESLint. Each one's output is printed whole once it ends, with its time; the exit code is
 * non-zero when any failed.
 *
 * `npm test` passes `--with-tests`: Vitest's fast tier runs beside the checks, its report
 * printed as it goes. The checks use the two cores fully for their first minute and the suites
 * wait on servers and databases much of theirs; side by side the two took about 40 s less than
 * one after the other.
 */
import { spawn } from "node:child_process";

const CHECKS: [name: string, command: string][] = [
  ["types", "npm run typecheck"],
  ["lint", "npm run lint"],
  ["imports", "npm run lint:deps"],
  ["format", "prettier --check ."],
];

function run(name: string, command: string, live = false): Promise<boolean> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, {
      shell: true,
      stdio: live ? ["ignore", "inherit", "inherit"] : ["ignore", "pipe", "pipe"],
    });
    const output: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("close", (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const verdict = code === 0 ? "passed" : `FAILED (exit ${String(code)})`;
      process.stdout.write(
        `\n── ${name}: ${verdict} in ${seconds} s (${command})\n${Buffer.concat(output).toString()}`,
      );
      resolve(code === 0);
    });
  });
}

const withTests = process.argv.includes("--with-tests");
const results = await Promise.all([
  ...CHECKS.map(([name, command]) => run(name, command)),
  ...(withTests ? [run("tests", "vitest run", true)] : []),
]);
process.exitCode = results.every(Boolean) ? 0 : 1;
