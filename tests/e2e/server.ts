import { TEST_PASSWORD_COST } from "../setup/staff.ts";
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "#db/client.ts";
import { createStaffAccount, type NewStaffAccount } from "#domain/staff/accounts.ts";
import { decodeMail } from "../setup/mail-text.ts";

export const ROOT = join(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export interface RunningServer {
  baseURL: string;
  /** What the server logged so far (stdout), for lines such as the first-admin link. */
  log(): string;
  stop(): Promise<void>;
}

/** How long a server may take to answer after its start, on a loaded two-core machine. */
const READY_TIMEOUT_MS = 120_000;

/**
 * Starts the production build (`server/index.ts`, NODE_ENV=production) on a free port with
 * `env` on top of the journeys' defaults, and waits until it answers. Stops it on failure.
 * A port this function picked that another process took meanwhile (two journeys run at once,
 * and other work shares the machine) is picked again, once.
 */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  if (env.PORT) return startServerOn(Number(env.PORT), env);
  try {
    return await startServerOn(await freePort(), env);
  } catch (error) {
    if (!(error instanceof PortTakenError)) throw error;
    return startServerOn(await freePort(), env);
  }
}

class PortTakenError extends Error {}

async function startServerOn(port: number, env: Record<string, string>): Promise<RunningServer> {
  const baseURL = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, ["server/index.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseURL,
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
      // A light proof of work and a quick mail worker keep the journeys fast; every journey
      // comes from 127.0.0.1, so the form limit is raised (limits have their own tests).
      ALTCHA_COST: "10",
      MAIL_POLL_MS: "200",
      RATE_LIMIT_FORMS_MAX: "1000",
      RATE_LIMIT_CHALLENGE_MAX: "1000",
      REDIS_URL: "",
      // Every /api answer is checked against its contract, as in the API suites: a route that
      // answers what its schema does not say fails the journey with a 500 naming it.
      API_CHECK_ANSWERS: "1",
      // Journeys sign in with a password alone; the second factor has its own (mfa.spec.ts).
      STAFF_MFA_REQUIRED: "false",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let errors = "";
  server.stdout?.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    output = (output + chunk.toString("utf8")).slice(-65_536);
  });
  server.stderr?.on("data", (chunk: Buffer) => {
    process.stderr.write(chunk);
    errors = (errors + chunk.toString("utf8")).slice(-65_536);
  });
  const exited = new Promise<never>((_, reject) =>
    server.once("exit", (code) =>
      reject(
        /EADDRINUSE/.test(errors)
          ? new PortTakenError(`Port ${port} was taken before the server listened`)
          : new Error(`The server exited early with code ${code}`),
      ),
    ),
  );
  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    server.removeAllListeners("exit");
    const gone = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await gone;
  };
  // The server listens once its database is ready (server/index.ts), so the first answer is
  // the signal; asked often, as a refused connection costs nothing.
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const ready = (async () => {
    while (Date.now() < deadline) {
      // Gone: `exited` has said why.
      if (server.exitCode !== null || server.signalCode !== null) throw new Error("exited");
      try {
        if ((await fetch(`${baseURL}/api/castles`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`The server did not answer within ${READY_TIMEOUT_MS / 1000} s`);
  })();
  try {
    await Promise.race([ready, exited]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, log: () => output, stop };
}

/**
 * A new data directory for a journey's own server: a copy of `template` (a data directory the
 * global setup migrated, and seeded, once), so the server starts without migrating and seeding
 * again. One server of the run starts on an empty one (global-setup.ts).
 */
export function copyDataDir(name: string, template: string): string {
  const dataDir = mkdtempSync(join(tmpdir(), `castellum-${name}-e2e-`));
  try {
    cpSync(template, dataDir, { recursive: true });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return dataDir;
}

/** Adds staff accounts to a data directory no process holds (as `npm run staff -- create`). */
export async function createStaffAccounts(
  dataDir: string,
  accounts: NewStaffAccount[],
): Promise<void> {
  const database = await openDatabase({ dataDir }, join(ROOT, "db/migrations"));
  try {
    await database.migrate();
    for (const account of accounts) {
      const created = await createStaffAccount(
        { db: database.db, passwordCost: TEST_PASSWORD_COST },
        account,
      );
      if (created.outcome !== "created") throw new Error(`${account.email}: ${created.outcome}`);
    }
  } finally {
    await database.close();
  }
}

/**
 * A server of the journey's own on a copy of `template` holding one staff account more, made
 * before the server starts (as `npm run staff -- create` would). Its `stop` removes the data too.
 */
export interface ServerWithData extends RunningServer {
  dataDir: string;
  /** The mails the server wrote to its data folder for `address` (SMTP_URL ""), oldest first. */
  mailsTo(address: string): string[];
}

export async function startServerWithStaff(
  name: string,
  account: NewStaffAccount,
  env: Record<string, string>,
  template: string,
): Promise<ServerWithData> {
  const dataDir = copyDataDir(name, template);
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  try {
    await createStaffAccounts(dataDir, [account]);
    const server = await startServer({ DATA_DIR: dataDir, ...env });
    return {
      ...server,
      dataDir,
      mailsTo: (address) => mailsIn(join(dataDir, "mail"), address),
      stop: async () => {
        await server.stop();
        remove();
      },
    };
  } catch (error) {
    remove();
    throw error;
  }
}

/** The mails in `dir` (one .eml file each, named in the order written) to `address`, decoded. */
function mailsIn(dir: string, address: string): string[] {
  if (!existsSync(dir)) return [];
  const to = new RegExp(`^To: .*${address.replace(/[.]/g, "\\.")}`, "mi");
  return readdirSync(dir)
    .filter((file) => file.endsWith(".eml"))
    .sort()
    .map((file) => decodeMail(readFileSync(join(dir, file), "utf8")))
    .filter((text) => to.test(text));
}
