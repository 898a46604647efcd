import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const dataDir = mkdtempSync(join(tmpdir(), "castellum-index-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/**
 * Starts `node [execArgv] server/index.ts` in development mode and settles on whichever comes
 * first: the process exits, or it says it is listening (then it is stopped).
 */
function start(execArgv: string[]) {
  return new Promise<{ code: number | null; listened: boolean; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [...execArgv, "server/index.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "development",
        NODE_OPTIONS: "",
        PORT: "0",
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        LOG_LEVEL: "info",
      },
    });
    let stderr = "";
    let listened = false;
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      if (!listened && chunk.toString().includes("Castellum is listening")) {
        listened = true;
        child.kill("SIGTERM");
      }
    });
    child.on("exit", (code) => resolve({ code, listened, stderr }));
  });
}

describe("the process in development mode", () => {
  it("refuses to start without --conditions=development and names the command to use", async () => {
    const run = await start([]);
    expect(run.listened).toBe(false);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("npm run dev");
  }, 60_000);

  it("starts with the development condition, as `npm run dev` runs it", async () => {
    const run = await start(["--conditions=development"]);
    expect(run.stderr).not.toContain("npm run dev");
    expect(run.listened).toBe(true);
  }, 120_000);
});
