import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    /** The server's DATA_DIR: mail is written as .eml files under its mail/ folder. */
    dataDir: string;
  }
}

const ROOT = join(import.meta.dirname, "../..");

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * Starts the production server on a fresh embedded database (a new DATA_DIR, so the run also
 * covers migrations and the first-start seed) and hands its URL to the journeys.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(join(ROOT, "build/server/index.js"))) {
    throw new Error("No production build: run `npm run build` before the browser journeys.");
  }
  const dataDir = mkdtempSync(join(tmpdir(), "castellum-e2e-"));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, ["server/index.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
      // A light proof of work and a quick mail worker keep the journeys fast; every journey
      // comes from 127.0.0.1, so the form limit is raised (limits have their own tests).
      ALTCHA_COST: "10",
      MAIL_POLL_MS: "200",
      RATE_LIMIT_FORMS_MAX: "1000",
      RATE_LIMIT_CHALLENGE_MAX: "1000",
      SMTP_URL: "",
      REDIS_URL: "",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<never>((_, reject) =>
    server.once("exit", (code) => reject(new Error(`The server exited early with code ${code}`))),
  );
  const deadline = Date.now() + 90_000;
  const ready = (async () => {
    while (Date.now() < deadline) {
      try {
        if ((await fetch(`${baseURL}/api/castles`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error("The server did not answer within 90 s");
  })();
  await Promise.race([ready, exited]);
  project.provide("baseURL", baseURL);
  project.provide("dataDir", dataDir);

  return async () => {
    server.removeAllListeners("exit");
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
