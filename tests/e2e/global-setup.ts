import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../db/client.ts";
import { createStaffAccount, setStaffDisabled } from "../../domain/staff/accounts.ts";
import { TestSmtpServer } from "../setup/smtp.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    /** Where the in-process SMTP server writes each mail it receives, as an .eml file. */
    mailDir: string;
    /** The one-time first-admin link the server printed at start. */
    setupUrl: string;
  }
}

/** Accounts that exist before the first admin: they must not be let in (issue 9's matrix). */
export const E2E_ADMIN_DOMAIN = "castellum.example";
export const E2E_STAFF_PASSWORD = "tower-garden-lantern-42";
export const E2E_ACCOUNTS = {
  clerk: "clerk@castellum.example",
  outsider: "boss@elsewhere.example",
  disabled: "gone@castellum.example",
} as const;

/** Creates the matrix's accounts in the fresh data directory before the server holds it. */
async function createAccounts(dataDir: string) {
  const database = await openDatabase({ dataDir }, join(ROOT, "db/migrations"));
  try {
    await database.migrate();
    const deps = { db: database.db };
    const accounts = [
      { email: E2E_ACCOUNTS.clerk, isAdmin: false },
      { email: E2E_ACCOUNTS.outsider, isAdmin: true },
      { email: E2E_ACCOUNTS.disabled, isAdmin: true },
    ];
    for (const account of accounts) {
      const result = await createStaffAccount(deps, { ...account, password: E2E_STAFF_PASSWORD });
      if (result.outcome !== "created") throw new Error(`${account.email}: ${result.outcome}`);
    }
    await setStaffDisabled(deps, E2E_ACCOUNTS.disabled, true);
  } finally {
    await database.close();
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
  await createAccounts(dataDir);
  // Mail goes over real SMTP to a server in this process, which files each mail for the journeys.
  const mailDir = join(dataDir, "received-mail");
  mkdirSync(mailDir, { recursive: true });
  const smtp = new TestSmtpServer();
  let mailCount = 0;
  smtp.onMail = (mail) =>
    writeFileSync(join(mailDir, `${String(++mailCount).padStart(5, "0")}.eml`), mail.raw);
  await smtp.start();
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
      SMTP_URL: smtp.url,
      REDIS_URL: "",
      ADMIN_EMAIL_DOMAIN: E2E_ADMIN_DOMAIN,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  // The server's log passes through; the first-admin link is picked out of it.
  let setupUrl = "";
  let logTail = "";
  server.stdout?.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    logTail = (logTail + chunk.toString("utf8")).slice(-4096);
    const found = logTail.match(/https?:\/\/\S+\/admin\/setup\?token=[A-Za-z0-9_-]+/);
    if (found && !setupUrl) setupUrl = found[0];
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
  if (!setupUrl) throw new Error("The server printed no first-admin setup link");
  project.provide("baseURL", baseURL);
  project.provide("mailDir", mailDir);
  project.provide("setupUrl", setupUrl);

  return async () => {
    server.removeAllListeners("exit");
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    await smtp.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
