import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { STAFF_PASSWORD } from "../tests/setup/staff.ts";

const CLI = join(import.meta.dirname, "staff-cli.ts");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run staff -- ...` as a user would (the same Node), with `input` on stdin. */
function staff(dataDir: string, args: string[], input = ""): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      {
        env: {
          PATH: process.env.PATH,
          DATA_DIR: dataDir,
          NODE_ENV: "test",
          ADMIN_EMAIL_DOMAIN: "castellum.test",
        },
        cwd: tmpdir(), // no .env of the project's
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}

describe("npm run staff (embedded database)", { timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "castellum-cli-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("creates an admin with the password from stdin, never from argv", async () => {
    const run = await staff(
      dataDir,
      ["create", "Ops@Castellum.test", "--admin", "--name", "Ops Desk"],
      `${STAFF_PASSWORD}\n`,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Created admin account ops@castellum.test.");
  });

  it("refuses a duplicate email, a bad email and a weak password with a clear message and exit 1", async () => {
    const duplicate = await staff(dataDir, ["create", "ops@castellum.test"], `${STAFF_PASSWORD}\n`);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("an account with ops@castellum.test already exists");
    const bad = await staff(dataDir, ["create", "not-an-email"], `${STAFF_PASSWORD}\n`);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("not a valid email address");
    const weak = await staff(dataDir, ["create", "new@castellum.test"], "qwerty123456\n");
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain("10,000 most common passwords");
    const short = await staff(dataDir, ["create", "new@castellum.test"], "short\n");
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("at least 12 characters");
  });

  it("warns when an admin is not at the company domain", async () => {
    const run = await staff(
      dataDir,
      ["create", "outsider@elsewhere.test", "--admin"],
      `${STAFF_PASSWORD}\n`,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Access Denied");
  });

  it("lists, disables, enables and resets passwords; unknown accounts exit 1", async () => {
    const list = await staff(dataDir, ["list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      /ops@castellum\.test\tadmin\tactive\ten\tOps Desk\tlast login: never/,
    );
    expect(list.stdout).toContain("outsider@elsewhere.test");

    expect((await staff(dataDir, ["disable", "ops@castellum.test"])).stdout).toContain("disabled");
    expect((await staff(dataDir, ["list"])).stdout).toMatch(/ops@castellum\.test\tadmin\tdisabled/);
    expect((await staff(dataDir, ["enable", "ops@castellum.test"])).code).toBe(0);
    // The last enabled admin stays, with a sentence rather than the database's error.
    expect((await staff(dataDir, ["disable", "outsider@elsewhere.test"])).code).toBe(0);
    const last = await staff(dataDir, ["disable", "ops@castellum.test"]);
    expect(last.code).toBe(1);
    expect(last.stderr).toContain("ops@castellum.test is the last enabled admin");
    expect((await staff(dataDir, ["list"])).stdout).toMatch(/ops@castellum\.test\tadmin\tactive/);
    expect((await staff(dataDir, ["enable", "outsider@elsewhere.test"])).code).toBe(0);

    const reset = await staff(
      dataDir,
      ["reset-password", "ops@castellum.test"],
      "another-long-passphrase-7\n",
    );
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain("Password of ops@castellum.test changed");

    const sessions = await staff(dataDir, ["sessions", "ops@castellum.test"]);
    expect(sessions.stdout).toContain("has no open session");
    expect((await staff(dataDir, ["revoke", "ops@castellum.test"])).stdout).toContain(
      "Ended 0 sessions",
    );

    const mfaReset = await staff(dataDir, ["reset-mfa", "OPS@castellum.test"]);
    expect(mfaReset.code).toBe(0);
    expect(mfaReset.stdout).toContain("Second factor of ops@castellum.test removed");
    expect((await staff(dataDir, ["reset-mfa", "ghost@castellum.test"])).code).toBe(1);

    const unknown = await staff(dataDir, ["disable", "ghost@castellum.test"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no account with ghost@castellum.test");
  });

  it("explains usage mistakes with exit 2", async () => {
    const none = await staff(dataDir, []);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("Usage: npm run staff");
    const missing = await staff(dataDir, ["disable"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("disable needs an email");
    expect((await staff(dataDir, ["frobnicate", "x@castellum.test"])).stderr).toContain(
      "unknown command",
    );
  });

  it("says what to do when the server holds the embedded database", async () => {
    const held = await openDatabase({ dataDir });
    try {
      const run = await staff(dataDir, ["list"]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("is open in another process");
      expect(run.stderr).toContain("stop the server");
    } finally {
      await held.close();
    }
    expect((await staff(dataDir, ["list"])).code).toBe(0);
  });
});

describe("npm run db:seed -- --demo-admin", { timeout: 180_000 }, () => {
  const SEED = join(import.meta.dirname, "../content/seed-cli.ts");
  const seed = (dataDir: string, env: Record<string, string>) =>
    new Promise<Run>((resolve) => {
      execFile(
        process.execPath,
        [SEED, "--demo-admin"],
        { env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...env }, cwd: tmpdir() },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });

  it("creates a demo admin with a printed password that signs in, never in production", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "castellum-seed-"));
    try {
      const refused = await seed(dataDir, { NODE_ENV: "production" });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("never created when NODE_ENV=production");

      const run = await seed(dataDir, { NODE_ENV: "development" });
      expect(run.code, run.stderr).toBe(0);
      const [, email, password] = run.stdout.match(/Demo admin: (\S+) \/ (\S+) \(sign in at/) ?? [];
      expect(email).toBe("admin@castellum.example");
      const database = await openDatabase({ dataDir });
      try {
        const { findStaffByEmail } = await import("../domain/staff/accounts.ts");
        const { verifyPassword } = await import("../domain/staff/passwords.ts");
        const admin = await findStaffByEmail({ db: database.db }, email!);
        expect(admin?.isAdmin).toBe(true);
        expect(await verifyPassword(admin!.passwordHash, password!)).toBe(true);
      } finally {
        await database.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
