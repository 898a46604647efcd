import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "#tests/e2e/server.ts";

export const ROOT = join(import.meta.dirname, "..");

export { freePort };

export interface RunningServer {
  url: string;
  /** Milliseconds from spawn to the first successful answer of `readyPath`. */
  readyMs: number;
  stop(): Promise<void>;
}

async function waitUntilReady(child: ChildProcess, url: string, started: number): Promise<number> {
  let exited = false;
  child.once("exit", () => (exited = true));
  while (!exited) {
    try {
      if ((await fetch(url)).ok) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`server exited before answering ${url}`);
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
}

/** Folders and files the production build is made from. */
const BUILD_SOURCES = [
  "app",
  "server",
  "domain",
  "db",
  "i18n",
  "content",
  "react-router.config.ts",
  "vite.config.ts",
];

/** The newest modification time among `path` and the files below it (0 if absent). */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

/**
 * Builds the app when there is no build or any of its sources changed since (the server code
 * is bundled into build/: a stale build would measure old code), and the blank baseline once.
 */
export function ensureBuilds() {
  const built = join(ROOT, "build/server/index.js");
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (Math.max(...BUILD_SOURCES.map((source) => newestChange(join(ROOT, source)))) > builtAt) {
    execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  }
  if (!existsSync(join(ROOT, "bench/blank/build/server/index.js"))) {
    execFileSync("npx", ["react-router", "build", "bench/blank"], { cwd: ROOT, stdio: "inherit" });
  }
}

/** The production server on `dataDir` (a new one by default: a first start). */
export async function startCastellum(
  dataDir = mkdtempSync(join(tmpdir(), "castellum-bench-")),
  extraEnv: Record<string, string> = {},
) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ["server/index.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
      ...extraEnv,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const readyMs = await waitUntilReady(child, `${url}/api/castles`, started);
  return { url, readyMs, dataDir, stop: stopper(child) } satisfies RunningServer & {
    dataDir: string;
  };
}

/** The blank page of the same stack (bench/blank), the baseline. */
export async function startBlank(): Promise<RunningServer> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ["bench/blank/server.ts", String(port)], {
    cwd: ROOT,
    // As Castellum's server: React's production build (unset, React renders in development mode).
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const readyMs = await waitUntilReady(child, `${url}/`, started);
  return { url, readyMs, stop: stopper(child) };
}
