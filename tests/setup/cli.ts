import { execFile } from "node:child_process";
import { tmpdir } from "node:os";
import { Readable } from "node:stream";
import type { DatabaseHandle } from "#db/client.ts";

/** What one command did: its exit code and everything it wrote. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The streams and database a command-line tool's entry function takes (server/*-cli.ts). */
export interface CliIo {
  env: Record<string, string | undefined>;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  openDatabase: () => Promise<DatabaseHandle>;
}

/**
 * Runs a tool's entry function in this process, on `handle` (a suite's database, which the
 * command's `close` leaves open), with `input` on a stdin that is not a terminal and stdout and
 * stderr captured. A process per command cost seconds (Node starting, the app's modules, the
 * embedded database opened from its files), this costs what the command does; the few cases
 * that need a real process (exit codes, the lock of the data directory) spawn one.
 */
export async function runInProcess(
  run: (io: CliIo) => Promise<number>,
  handle: DatabaseHandle,
  env: Record<string, string | undefined>,
  input = "",
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await run({
    env,
    stdin: Readable.from([input]),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    openDatabase: async () => ({ ...handle, close: async () => {} }),
  });
  return { code, stdout, stderr };
}

/**
 * Runs `node <script> <args>` as a user would (the same Node), in a folder with no `.env` of the
 * project's, with only PATH and `env` set and `input` on stdin.
 */
export function spawnCli(
  script: string,
  args: string[],
  env: Record<string, string>,
  input = "",
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [script, ...args],
      { env: { PATH: process.env.PATH, ...env }, cwd: tmpdir() },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}
