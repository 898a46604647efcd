import { expect, it } from "vitest";
import { findStaffByEmail } from "#domain/staff/accounts.ts";
import { verifyPassword } from "#domain/staff/passwords.ts";
import { runInProcess } from "#tests/setup/cli.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { STAFF_PASSWORD } from "#tests/setup/staff.ts";
import { runStaffCli } from "./staff-cli.ts";

// Each command runs in this process on the suite's database; staff-cli.process.test.ts runs
// the command as a user does, a process of its own on the embedded database's files.
describeEachBackend(
  "npm run staff",
  (database) => {
    const ENV = { NODE_ENV: "test", ADMIN_EMAIL_DOMAIN: "castellum.test" };
    const staff = (args: string[], input = "") =>
      runInProcess((io) => runStaffCli(args, io), database().handle, ENV, input);

    it("creates an admin with the password from stdin, never from argv", async () => {
      const run = await staff(
        ["create", "Ops@Castellum.test", "--admin", "--name", "Ops Desk"],
        `${STAFF_PASSWORD}\n`,
      );
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Created admin account ops@castellum.test.");
      const admin = await findStaffByEmail(database().deps, "ops@castellum.test");
      expect(admin?.isAdmin).toBe(true);
      expect(await verifyPassword(admin!.passwordHash, STAFF_PASSWORD)).toBe(true);
    });

    it("refuses a duplicate email, a bad email and a weak password with a clear message and exit 1", async () => {
      const duplicate = await staff(["create", "ops@castellum.test"], `${STAFF_PASSWORD}\n`);
      expect(duplicate.code).toBe(1);
      expect(duplicate.stderr).toContain("an account with ops@castellum.test already exists");
      const bad = await staff(["create", "not-an-email"], `${STAFF_PASSWORD}\n`);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain("not a valid email address");
      const weak = await staff(["create", "new@castellum.test"], "qwerty123456\n");
      expect(weak.code).toBe(1);
      expect(weak.stderr).toContain("10,000 most common passwords");
      const short = await staff(["create", "new@castellum.test"], "short\n");
      expect(short.code).toBe(1);
      expect(short.stderr).toContain("at least 12 characters");
      const none = await staff(["create", "new@castellum.test"]);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain("no password on stdin");
    });

    it("warns when an admin is not at the company domain", async () => {
      const run = await staff(
        ["create", "outsider@elsewhere.test", "--admin"],
        `${STAFF_PASSWORD}\n`,
      );
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("Access Denied");
    });

    it("lists, disables, enables and resets passwords; unknown accounts exit 1", async () => {
      const list = await staff(["list"]);
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(
        /ops@castellum\.test\tadmin\tactive\ten\tOps Desk\tlast login: never/,
      );
      expect(list.stdout).toContain("outsider@elsewhere.test");

      expect((await staff(["disable", "ops@castellum.test"])).stdout).toContain("disabled");
      expect((await staff(["list"])).stdout).toMatch(/ops@castellum\.test\tadmin\tdisabled/);
      expect((await staff(["enable", "ops@castellum.test"])).code).toBe(0);
      // The last enabled admin stays, with a sentence rather than the database's error.
      expect((await staff(["disable", "outsider@elsewhere.test"])).code).toBe(0);
      const last = await staff(["disable", "ops@castellum.test"]);
      expect(last.code).toBe(1);
      expect(last.stderr).toContain("ops@castellum.test is the last enabled admin");
      expect((await staff(["list"])).stdout).toMatch(/ops@castellum\.test\tadmin\tactive/);
      expect((await staff(["enable", "outsider@elsewhere.test"])).code).toBe(0);

      const reset = await staff(
        ["reset-password", "ops@castellum.test"],
        "another-long-passphrase-7\n",
      );
      expect(reset.code).toBe(0);
      expect(reset.stdout).toContain("Password of ops@castellum.test changed");
      const changed = await findStaffByEmail(database().deps, "ops@castellum.test");
      expect(await verifyPassword(changed!.passwordHash, "another-long-passphrase-7")).toBe(true);

      const sessions = await staff(["sessions", "ops@castellum.test"]);
      expect(sessions.stdout).toContain("has no open session");
      expect((await staff(["revoke", "ops@castellum.test"])).stdout).toContain("Ended 0 sessions");

      const mfaReset = await staff(["reset-mfa", "OPS@castellum.test"]);
      expect(mfaReset.code).toBe(0);
      expect(mfaReset.stdout).toContain("Second factor of ops@castellum.test removed");
      expect((await staff(["reset-mfa", "ghost@castellum.test"])).code).toBe(1);

      const unknown = await staff(["disable", "ghost@castellum.test"]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("no account with ghost@castellum.test");
    });

    it("explains usage mistakes with exit 2", async () => {
      const none = await staff([]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain("Usage: npm run staff");
      const missing = await staff(["disable"]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain("disable needs an email");
      expect((await staff(["frobnicate", "x@castellum.test"])).stderr).toContain("unknown command");
    });
  },
  { seed: false },
);
