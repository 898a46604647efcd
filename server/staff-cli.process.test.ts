import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "#db/client.ts";
import { findStaffByEmail } from "#domain/staff/accounts.ts";
import { verifyPassword } from "#domain/staff/passwords.ts";
import { spawnCli } from "#tests/setup/cli.ts";
import { STAFF_PASSWORD } from "#tests/setup/staff.ts";

const CLI = join(import.meta.dirname, "staff-cli.ts");
const SEED = join(import.meta.dirname, "../content/seed-cli.ts");

// What only a process of its own shows: stdin piped in, the exit codes, a data directory made
// and migrated by the command, and the lock that keeps a second process out of PGlite's files.
// Every command's behaviour is in staff-cli.test.ts, which runs them in-process on both backends.
describe(
  "npm run staff and db:seed as a user runs them (embedded database)",
  { timeout: 180_000 },
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), "castellum-cli-"));
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
    const staff = (args: string[], input = "") =>
      spawnCli(
        CLI,
        args,
        { DATA_DIR: dataDir, NODE_ENV: "test", ADMIN_EMAIL_DOMAIN: "castellum.test" },
        input,
      );

    it("creates an admin in a new data directory with the password piped to stdin", async () => {
      const run = await staff(
        ["create", "Ops@Castellum.test", "--admin", "--name", "Ops Desk"],
        `${STAFF_PASSWORD}\n`,
      );
      expect(run).toEqual({
        code: 0,
        stdout: "Created admin account ops@castellum.test.\n",
        stderr: "",
      });
    });

    it("exits 2 on a usage mistake", async () => {
      const none = await staff([]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain("Error: no command given\n\nUsage: npm run staff");
    });

    it("says what to do when the server holds the embedded database, and exits 1", async () => {
      const held = await openDatabase({ dataDir });
      try {
        const run = await staff(["list"]);
        expect(run.code).toBe(1);
        expect(run.stderr).toContain("is open in another process");
        expect(run.stderr).toContain("stop the server");
      } finally {
        await held.close();
      }
      const list = await staff(["list"]);
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(/^ops@castellum\.test\tadmin\tactive\ten\tOps Desk\t/);
    });

    it("npm run db:seed -- --demo-admin creates a demo admin with a printed password that signs in, never in production", async () => {
      const refused = await spawnCli(SEED, ["--demo-admin"], {
        DATA_DIR: dataDir,
        NODE_ENV: "production",
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("never created when NODE_ENV=production");

      const run = await spawnCli(SEED, ["--demo-admin"], {
        DATA_DIR: dataDir,
        NODE_ENV: "development",
      });
      expect(run.code, run.stderr).toBe(0);
      const [, email, password] = run.stdout.match(/Demo admin: (\S+) \/ (\S+) \(sign in at/) ?? [];
      expect(email).toBe("admin@castellum.example");
      const database = await openDatabase({ dataDir });
      try {
        const admin = await findStaffByEmail({ db: database.db }, email!);
        expect(admin?.isAdmin).toBe(true);
        expect(await verifyPassword(admin!.passwordHash, password!)).toBe(true);
      } finally {
        await database.close();
      }
    });
  },
);
