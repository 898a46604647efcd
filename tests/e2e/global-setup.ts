import { TEST_PASSWORD_COST } from "../setup/staff.ts";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../db/client.ts";
import { createStaffAccount, setStaffDisabled } from "../../domain/staff/accounts.ts";
import { TestSmtpServer } from "../setup/smtp.ts";
import { ROOT, startServer } from "./server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    /** Where the in-process SMTP server writes each mail it receives, as an .eml file. */
    mailDir: string;
    /** The one-time first-admin link the server printed at start. */
    setupUrl: string;
  }
}

/** Accounts that exist before the first admin: they must not be let in (the access matrix). */
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
    const deps = { db: database.db, passwordCost: TEST_PASSWORD_COST };
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
  const server = await startServer({
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    ADMIN_EMAIL_DOMAIN: E2E_ADMIN_DOMAIN,
  });
  const baseURL = server.baseURL;
  // The server's log passes through; the first-admin link is picked out of it.
  const setupUrl = server.log().match(/https?:\/\/\S+\/admin\/setup\?token=[A-Za-z0-9_-]+/)?.[0];
  if (!setupUrl) {
    await server.stop();
    throw new Error("The server printed no first-admin setup link");
  }
  project.provide("baseURL", baseURL);
  project.provide("mailDir", mailDir);
  project.provide("setupUrl", setupUrl);

  return async () => {
    await server.stop();
    await smtp.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
