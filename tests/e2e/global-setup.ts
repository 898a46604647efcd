import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { loadPropertyContent } from "#content/load-properties.ts";
import { openDatabase } from "#db/client.ts";
import { seedCatalogue } from "#domain/catalogue/seed-catalogue.ts";
import { createStaffAccount, setStaffDisabled } from "#domain/staff/accounts.ts";
import { createTestLogger } from "../setup/error-log.ts";
import { TEST_PASSWORD_COST } from "../setup/staff.ts";
import { TestSmtpServer } from "../setup/smtp.ts";
import type { DataTemplates, SharedServer } from "./harness.ts";
import { ROOT, type RunningServer, startServer } from "./server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** One server per worker: a file uses the one of its worker (harness.ts, sharedServer). */
    sharedServers: SharedServer[];
    /** Data directories to copy for a journey's own server (server.ts, copyDataDir). */
    dataTemplates: DataTemplates;
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

/** Creates the matrix's accounts in the data directory before the server holds it. */
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
 * The two data directories the journeys' own servers start from: migrated, and migrated and
 * seeded with the demo catalogue (what a server's first start does). Migrating and seeding took
 * a server most of its start; a copy takes a fraction of a second.
 */
async function makeTemplates(root: string): Promise<DataTemplates> {
  const templates = {
    migrated: join(root, "template-migrated"),
    seeded: join(root, "template-seeded"),
  };
  mkdirSync(templates.migrated, { recursive: true });
  const migrated = await openDatabase({ dataDir: templates.migrated }, join(ROOT, "db/migrations"));
  try {
    await migrated.migrate();
  } finally {
    await migrated.close();
  }
  cpSync(templates.migrated, templates.seeded, { recursive: true });
  const seeded = await openDatabase({ dataDir: templates.seeded }, join(ROOT, "db/migrations"));
  try {
    await seedCatalogue(
      { db: seeded.db, log: createTestLogger() },
      loadPropertyContent(join(ROOT, "content/properties")),
    );
  } finally {
    await seeded.close();
  }
  return templates;
}

interface Started {
  shared: SharedServer;
  stop(): Promise<void>;
}

/**
 * A shared server: the production server on `dataDir` (a copy of `template`, or empty: then its
 * first start migrates and seeds), with the access matrix's accounts, its mail over real SMTP
 * to a server in this process that files each mail for the journeys.
 */
async function startShared(dataDir: string, template?: string): Promise<Started> {
  if (template) cpSync(template, dataDir, { recursive: true });
  else mkdirSync(dataDir, { recursive: true });
  await createAccounts(dataDir);
  const mailDir = join(dataDir, "received-mail");
  mkdirSync(mailDir, { recursive: true });
  const smtp = new TestSmtpServer();
  let mailCount = 0;
  smtp.onMail = (mail) =>
    writeFileSync(join(mailDir, `${String(++mailCount).padStart(5, "0")}.eml`), mail.raw);
  await smtp.start();
  let server: RunningServer;
  try {
    server = await startServer({
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      ADMIN_EMAIL_DOMAIN: E2E_ADMIN_DOMAIN,
    });
  } catch (error) {
    await smtp.stop();
    throw error;
  }
  const stop = async () => {
    await server.stop();
    await smtp.stop();
  };
  // The server's log passes through; the first-admin link is picked out of it.
  const setupUrl = server.log().match(/https?:\/\/\S+\/admin\/setup\?token=[A-Za-z0-9_-]+/)?.[0];
  if (!setupUrl) {
    await stop();
    throw new Error("The server printed no first-admin setup link");
  }
  return { shared: { baseURL: server.baseURL, mailDir, setupUrl }, stop };
}

/**
 * Starts one shared server per worker (the journeys that need no server of their own use the
 * one of their worker, so two files running at once never see each other's requests and mail),
 * and makes the data templates for the journeys' own servers. The first shared server starts on
 * an empty data directory, so every run also covers the migrations and the first-start seed;
 * the others start from the seeded template, made meanwhile.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(join(ROOT, "build/server/index.js"))) {
    throw new Error("No production build: run `npm run build` before the browser journeys.");
  }
  const root = mkdtempSync(join(tmpdir(), "castellum-e2e-"));
  const count = Math.max(1, project.config.maxWorkers);
  const templates = makeTemplates(root);
  const results = await Promise.allSettled([
    startShared(join(root, "shared-1")),
    ...Array.from({ length: count - 1 }, async (_, i) =>
      startShared(join(root, `shared-${i + 2}`), (await templates).seeded),
    ),
    templates,
  ]);
  const started = results.flatMap((result) =>
    result.status === "fulfilled" && "shared" in result.value ? [result.value] : [],
  );
  const teardown = async () => {
    await Promise.all(started.map((server) => server.stop()));
    rmSync(root, { recursive: true, force: true });
  };
  const failed = results.find((result) => result.status === "rejected");
  if (failed) {
    await teardown();
    throw failed.reason;
  }
  project.provide(
    "sharedServers",
    started.map((server) => server.shared),
  );
  project.provide("dataTemplates", await templates);
  return teardown;
}
