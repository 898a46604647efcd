import { and, desc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { withTransaction } from "#db/client.ts";
import { mailOutbox, securityEvents, staffAccountLinks, staffUsers } from "#db/schema/index.ts";
import { createSession } from "#domain/auth/sessions.ts";
import type { Deps } from "#domain/deps.ts";
import {
  acceptInvitation,
  ACCOUNT_OPERATIONS,
  getInvitation,
  inviteAccount,
  listAccounts,
  listOwnSessions,
  setAccountAdmin,
  setAccountDisabled,
} from "#domain/staff/accounts.contract.ts";
import { setAccountAdmin as demote } from "#domain/staff/manage-accounts.ts";
import { dataOf } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { serveIntake } from "#tests/setup/intake.ts";
import {
  createTestStaff,
  signIn,
  STAFF_PASSWORD,
  staffCall,
  type JsonAnswer,
} from "#tests/setup/staff.ts";
import { pathOf } from "#domain/api/operation.ts";

const NEW_PASSWORD = "orchard-bell-meadow-77";

/** The newest mail to `recipient` in the outbox, or undefined. */
async function newestMailTo(deps: Deps, recipient: string) {
  const [mail] = await deps.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, recipient))
    .orderBy(desc(mailOutbox.createdAt));
  return mail;
}

async function mailCount(deps: Deps, recipient: string) {
  const [row] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, recipient));
  return row!.n;
}

/** The token of the link in a mail's text. */
function tokenIn(text: string, path: "invitation" | "password-reset"): string {
  const match = new RegExp(`/admin/${path}/([A-Za-z0-9_-]{22})`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return match[1]!;
}

async function eventsOf(deps: Deps, type: string, targetEmail: string) {
  return deps.db
    .select()
    .from(securityEvents)
    .where(
      and(
        eq(securityEvents.type, type),
        sql`${securityEvents.data}->>'targetEmail' = ${targetEmail}`,
      ),
    );
}

describeEachBackend(
  "the accounts API",
  (database) => {
    const server = serveIntake(() => database().deps);
    const cookies: Record<string, string> = {};
    const ids: Record<string, string> = {};
    const url = () => server().url;
    const deps = () => database().deps;

    beforeAll(async () => {
      for (const [email, isAdmin] of [
        ["admin@castellum.test", true],
        ["second@castellum.test", true],
        ["clerk@castellum.test", false],
        ["target@castellum.test", false],
      ] as const) {
        ids[email] = (await createTestStaff(deps(), email, { isAdmin })).id;
        cookies[email] = await signIn(url(), email);
      }
      const owner = await createSession(deps(), { role: "owner", ownerEmail: "o@example.com" }, {});
      cookies.owner = `castellum_session=${owner.token}`;
    });

    const admin = (method: string, path: string, body?: unknown) =>
      staffCall(url(), method, path, { cookie: cookies["admin@castellum.test"], body });

    describe("authorisation matrix", () => {
      const STAFF_ONLY = ACCOUNT_OPERATIONS.filter((op) => op.security.length > 0);
      const OWN = new Set(["listOwnStaffSessions", "endOwnStaffSession", "changeOwnStaffPassword"]);
      const sample = (op: (typeof STAFF_ONLY)[number]) => {
        const path = pathOf(op.path, {
          id: op.path.includes("account/sessions")
            ? "00000000-0000-4000-8000-000000000000"
            : ids["target@castellum.test"],
        });
        const body = op.body
          ? op.id === "changeOwnStaffPassword"
            ? { currentPassword: "wrong-password-here", newPassword: NEW_PASSWORD }
            : op.id === "inviteStaffAccount"
              ? { email: "matrix@castellum.test" }
              : op.id === "setStaffAccountAdmin"
                ? { isAdmin: false }
                : { disabled: false }
          : undefined;
        return { method: op.method.toUpperCase(), path, body };
      };

      it("covers every call of the accounts contract that needs a session", () => {
        expect(STAFF_ONLY.map((op) => op.id).sort()).toEqual([
          "changeOwnStaffPassword",
          "endOwnStaffSession",
          "endStaffAccountSessions",
          "inviteStaffAccount",
          "listOwnStaffSessions",
          "listStaffAccounts",
          "sendStaffPasswordReset",
          "setStaffAccountAdmin",
          "setStaffAccountDisabled",
        ]);
      });

      for (const who of ["anonymous", "owner", "clerk@castellum.test", "admin@castellum.test"])
        it(`answers ${who} as the rule says`, async () => {
          for (const op of STAFF_ONLY) {
            const { method, path, body } = sample(op);
            const answer = await staffCall(url(), method, path, {
              cookie: who === "anonymous" ? undefined : cookies[who],
              body,
            });
            const expected =
              who === "anonymous" || who === "owner"
                ? [401]
                : who === "clerk@castellum.test" && !OWN.has(op.id)
                  ? [403]
                  : // Allowed through: the call's own answer (a made-up session id is 404, a
                    // wrong current password 400).
                    [200, 201, 202, 204, 400, 404];
            expect(expected, `${who} ${method} ${path}: ${answer.text}`).toContain(answer.status);
          }
        });
    });

    it("lists accounts with their live sessions and never a password hash", async () => {
      const answer = await admin("GET", "/api/admin/accounts");
      const { accounts } = dataOf(listAccounts, answer, 200);
      const clerk = accounts.find((account) => account.email === "clerk@castellum.test");
      expect(clerk).toMatchObject({ isAdmin: false, disabled: false, liveSessions: 1 });
      expect(answer.text).not.toContain("scrypt");
    });

    it("invites by a mailed single-use link at the company domain only", async () => {
      const email = "newcomer@castellum.test";
      expect(
        (await admin("POST", "/api/admin/accounts/invitations", { email: "x@other.test" })).status,
      ).toBe(400);
      expect(
        (await admin("POST", "/api/admin/accounts/invitations", { email: "clerk@castellum.test" }))
          .status,
      ).toBe(409);
      const sent = await admin("POST", "/api/admin/accounts/invitations", { email });
      expect(dataOf(inviteAccount, sent, 201).email).toBe(email);
      const mail = await newestMailTo(deps(), email);
      const token = tokenIn(mail!.text, "invitation");
      expect(sent.text).not.toContain(token);
      const [link] = await deps()
        .db.select()
        .from(staffAccountLinks)
        .where(eq(staffAccountLinks.email, email));
      expect(link!.tokenHash).not.toContain(token);
      expect(link!.tokenHash).toMatch(/^[0-9a-f]{64}$/);

      const check = await staffCall(url(), "GET", `/api/admin/invitations/${token}`);
      expect(dataOf(getInvitation, check, 200).email).toBe(email);
      const weak = await staffCall(url(), "POST", `/api/admin/invitations/${token}`, {
        body: { displayName: "New Comer", password: "newcomer@castellum.test" },
      });
      expect(weak.status).toBe(400);
      const accepted = await staffCall(url(), "POST", `/api/admin/invitations/${token}?lang=fr`, {
        body: { displayName: "New Comer", password: NEW_PASSWORD },
      });
      expect(dataOf(acceptInvitation, accepted, 201).user).toMatchObject({
        email,
        displayName: "New Comer",
        isAdmin: false,
      });
      await signIn(url(), email, NEW_PASSWORD);

      const again = await staffCall(url(), "POST", `/api/admin/invitations/${token}`, {
        body: { displayName: "Someone Else", password: NEW_PASSWORD },
        headers: { "Accept-Language": "it" },
      });
      expect(again.status).toBe(404);
      expect(again.body).toEqual({
        message: "Questo link non è valido, è già stato usato o è scaduto. Ne chieda uno nuovo.",
        code: "link_invalid",
      });
      expect((await eventsOf(deps(), "account.invited", email)).length).toBe(1);
      expect((await eventsOf(deps(), "account.invitation_used", email)).length).toBe(1);
      expect((await eventsOf(deps(), "account.created", email)).length).toBe(1);
    });

    it("refuses an expired invitation", async () => {
      const email = "late@castellum.test";
      await admin("POST", "/api/admin/accounts/invitations", { email, isAdmin: true });
      const token = tokenIn((await newestMailTo(deps(), email))!.text, "invitation");
      await deps()
        .db.update(staffAccountLinks)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(staffAccountLinks.email, email));
      expect((await staffCall(url(), "GET", `/api/admin/invitations/${token}`)).status).toBe(404);
      const late = await staffCall(url(), "POST", `/api/admin/invitations/${token}`, {
        body: { displayName: "Late", password: NEW_PASSWORD },
      });
      expect(late.status).toBe(404);
      const [account] = await deps()
        .db.select()
        .from(staffUsers)
        .where(eq(staffUsers.email, email));
      expect(account).toBeUndefined();
    });

    it("disables (ending the sessions) and enables an account", async () => {
      const email = "temp@castellum.test";
      const id = (await createTestStaff(deps(), email)).id;
      const cookie = await signIn(url(), email);
      const off = await admin("PUT", `/api/admin/accounts/${id}/disabled`, { disabled: true });
      expect(dataOf(setAccountDisabled, off, 200).disabled).toBe(true);
      expect(
        (await staffCall(url(), "GET", "/api/admin/account/sessions", { cookie })).status,
      ).toBe(401);
      await expect(signIn(url(), email)).rejects.toThrow(/401/);
      const on = await admin("PUT", `/api/admin/accounts/${id}/disabled`, { disabled: false });
      expect(dataOf(setAccountDisabled, on, 200).disabled).toBe(false);
      await signIn(url(), email);
      expect((await eventsOf(deps(), "account.disabled", email)).length).toBe(1);
      expect((await eventsOf(deps(), "account.enabled", email)).length).toBe(1);
      expect(
        (
          await admin("PUT", `/api/admin/accounts/00000000-0000-4000-8000-000000000000/disabled`, {
            disabled: true,
          })
        ).status,
      ).toBe(404);
    });

    it("ends someone's sessions and mails them a reset link the admin never sees", async () => {
      const email = "ended@castellum.test";
      const id = (await createTestStaff(deps(), email)).id;
      const cookie = await signIn(url(), email);
      const ended = await admin("DELETE", `/api/admin/accounts/${id}/sessions`);
      expect(ended.body).toEqual({ ended: 1 });
      expect(
        (await staffCall(url(), "GET", "/api/admin/account/sessions", { cookie })).status,
      ).toBe(401);

      const reset = await admin("POST", `/api/admin/accounts/${id}/password-reset`);
      expect(reset.status).toBe(202);
      expect(reset.body).toEqual({ ok: true });
      const token = tokenIn((await newestMailTo(deps(), email))!.text, "password-reset");
      const done = await staffCall(url(), "POST", `/api/admin/password-reset/${token}`, {
        body: { password: NEW_PASSWORD },
      });
      expect(done.status).toBe(200);
      await signIn(url(), email, NEW_PASSWORD);
      expect((await eventsOf(deps(), "account.sessions_ended", email)).length).toBe(1);
      expect((await eventsOf(deps(), "account.password_reset_requested", email))[0]).toMatchObject({
        actorEmail: "admin@castellum.test",
      });
    });

    it("grants and removes admin, and never removes the last enabled admin", async () => {
      const grant = await admin("PUT", `/api/admin/accounts/${ids["clerk@castellum.test"]}/admin`, {
        isAdmin: true,
      });
      expect(dataOf(setAccountAdmin, grant, 200).isAdmin).toBe(true);
      for (const email of ["clerk@castellum.test", "second@castellum.test"]) {
        const removed = await admin("PUT", `/api/admin/accounts/${ids[email]}/admin`, {
          isAdmin: false,
        });
        expect(removed.status).toBe(200);
      }
      // admin@ is now the only enabled admin: neither demotion nor disabling passes.
      const self = ids["admin@castellum.test"]!;
      const demoted = await staffCall(url(), "PUT", `/api/admin/accounts/${self}/admin`, {
        cookie: cookies["admin@castellum.test"],
        body: { isAdmin: false },
        headers: { "Accept-Language": "zh" },
      });
      expect(demoted.status).toBe(409);
      expect(demoted.body).toEqual({
        message: "不能停用最后一位启用的管理员，也不能取消其管理员权限。",
        code: "last_admin",
      });
      expect(
        (await admin("PUT", `/api/admin/accounts/${self}/disabled`, { disabled: true })).status,
      ).toBe(409);
      // Not even a statement that goes round the application.
      await expect(
        deps().db.update(staffUsers).set({ disabled: true }).where(eq(staffUsers.id, self)),
      ).rejects.toThrow();
      const [still] = await deps().db.select().from(staffUsers).where(eq(staffUsers.id, self));
      expect(still).toMatchObject({ isAdmin: true, disabled: false });
      expect((await eventsOf(deps(), "account.admin_granted", "clerk@castellum.test")).length).toBe(
        1,
      );
      expect(
        (await eventsOf(deps(), "account.admin_removed", "second@castellum.test")).length,
      ).toBe(1);
      await admin("PUT", `/api/admin/accounts/${ids["second@castellum.test"]}/admin`, {
        isAdmin: true,
      });
    });

    it("lets a person see their sessions and end another by its id", async () => {
      const email = "twice@castellum.test";
      await createTestStaff(deps(), email);
      const first = await signIn(url(), email);
      const second = await signIn(url(), email);
      const list = dataOf(
        listOwnSessions,
        await staffCall(url(), "GET", "/api/admin/account/sessions", { cookie: first }),
        200,
      );
      expect(list.sessions).toHaveLength(2);
      expect(list.sessions.filter((session) => session.isCurrent)).toHaveLength(1);
      const other = list.sessions.find((session) => !session.isCurrent)!;
      // Someone else's session id ends nothing.
      const foreign = await staffCall(url(), "DELETE", `/api/admin/account/sessions/${other.id}`, {
        cookie: cookies["clerk@castellum.test"],
      });
      expect(foreign.status).toBe(404);
      const ended = await staffCall(url(), "DELETE", `/api/admin/account/sessions/${other.id}`, {
        cookie: first,
      });
      expect(ended.status).toBe(204);
      expect(
        (await staffCall(url(), "GET", "/api/admin/account/sessions", { cookie: second })).status,
      ).toBe(401);
      expect(
        (await staffCall(url(), "GET", "/api/admin/account/sessions", { cookie: first })).status,
      ).toBe(200);
    });

    it("changes one's own password with the current one, ending the other sessions", async () => {
      const email = "changer@castellum.test";
      await createTestStaff(deps(), email);
      const here = await signIn(url(), email);
      const there = await signIn(url(), email);
      const wrong = await staffCall(url(), "PUT", "/api/admin/account/password", {
        cookie: here,
        body: { currentPassword: "not-the-password-1", newPassword: NEW_PASSWORD },
      });
      expect(wrong.status).toBe(400);
      const changed = await staffCall(url(), "PUT", "/api/admin/account/password", {
        cookie: here,
        body: { currentPassword: STAFF_PASSWORD, newPassword: NEW_PASSWORD },
      });
      expect(changed.status).toBe(200);
      expect(
        (await staffCall(url(), "GET", "/api/admin/account/sessions", { cookie: there })).status,
      ).toBe(401);
      expect(
        (await staffCall(url(), "GET", "/api/admin/account/sessions", { cookie: here })).status,
      ).toBe(200);
      await expect(signIn(url(), email)).rejects.toThrow(/401/);
      await signIn(url(), email, NEW_PASSWORD);
      expect((await eventsOf(deps(), "account.password_changed", email)).length).toBe(1);
    });

    it("answers a forgotten password the same for a known and an unknown email, mailing only the known", async () => {
      const known = "forgetful@castellum.test";
      const unknown = "nobody@castellum.test";
      await createTestStaff(deps(), known);
      const cookie = await signIn(url(), known);
      const answers: JsonAnswer[] = [];
      for (const email of [known, unknown])
        answers.push(
          await staffCall(url(), "POST", "/api/admin/password-reset", { body: { email } }),
        );
      expect(answers[0]!.status).toBe(202);
      expect(answers[1]!.status).toBe(answers[0]!.status);
      expect(answers[1]!.text).toBe(answers[0]!.text);
      expect(await mailCount(deps(), known)).toBe(1);
      expect(await mailCount(deps(), unknown)).toBe(0);

      const token = tokenIn((await newestMailTo(deps(), known))!.text, "password-reset");
      const used = await staffCall(url(), "POST", `/api/admin/password-reset/${token}`, {
        body: { password: NEW_PASSWORD },
      });
      expect(used.status).toBe(200);
      expect(
        (await staffCall(url(), "GET", "/api/admin/account/sessions", { cookie })).status,
      ).toBe(401);
      const twice = await staffCall(url(), "POST", `/api/admin/password-reset/${token}`, {
        body: { password: "another-long-pass-99" },
      });
      expect(twice.status).toBe(404);
      await signIn(url(), known, NEW_PASSWORD);
      expect((await eventsOf(deps(), "account.password_reset", known)).length).toBe(1);
    });

    it("refuses an expired reset link and limits requests per email", async () => {
      const email = "expired@castellum.test";
      await createTestStaff(deps(), email);
      await staffCall(url(), "POST", "/api/admin/password-reset", { body: { email } });
      const token = tokenIn((await newestMailTo(deps(), email))!.text, "password-reset");
      await deps()
        .db.update(staffAccountLinks)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(staffAccountLinks.email, email));
      const late = await staffCall(url(), "POST", `/api/admin/password-reset/${token}`, {
        body: { password: NEW_PASSWORD },
      });
      expect(late.status).toBe(404);
      await signIn(url(), email);
      // Three requests an hour per email: the first was above.
      for (const expected of [202, 202, 429]) {
        const answer = await staffCall(url(), "POST", "/api/admin/password-reset", {
          body: { email },
        });
        expect(answer.status).toBe(expected);
      }
      expect(await mailCount(deps(), email)).toBe(3);
      // Those tries were this address's: the person, elsewhere, can still ask for a link.
      const elsewhere = await staffCall(url(), "POST", "/api/admin/password-reset", {
        body: { email },
        headers: { "X-Forwarded-For": "10.9.9.9" },
      });
      expect(elsewhere.status).toBe(202);
      expect(await mailCount(deps(), email)).toBe(4);
    });
  },
  { seed: false },
);

describeEachBackend(
  "the last enabled admin",
  (database, backend) => {
    it("survives two concurrent demotions of the two last admins", async () => {
      const deps = database().deps;
      const a = await createTestStaff(deps, "a@castellum.test", { isAdmin: true });
      const b = await createTestStaff(deps, "b@castellum.test", { isAdmin: true });
      const context = { admin: a };
      let outcomes: string[];
      if (backend === "postgres") {
        // Interleaved for certain: the first demotion holds its transaction open until the
        // second is seen waiting for the trigger's lock, then commits.
        let second!: Promise<{ outcome: string }>;
        await withTransaction(deps.db, async (tx) => {
          await tx.update(staffUsers).set({ isAdmin: false }).where(eq(staffUsers.id, a.id));
          let settled = false;
          second = demote(deps, b.id, false, context).finally(() => (settled = true));
          const deadline = Date.now() + 10_000;
          // Until the second waits for the lock (or, with no lock to wait for, is done).
          while (!settled) {
            const waiting = await deps.db.execute(
              sql`select 1 from pg_locks where locktype = 'advisory' and not granted`,
            );
            if ((waiting as unknown as { rows: unknown[] }).rows.length > 0) break;
            if (Date.now() > deadline) throw new Error("the second demotion never waited");
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        });
        outcomes = ["done", (await second).outcome];
      } else {
        const results = await Promise.all([
          demote(deps, a.id, false, context),
          demote(deps, b.id, false, context),
        ]);
        outcomes = results.map((result) => result.outcome);
      }
      expect(outcomes.sort()).toEqual(["done", "last_admin"]);
      const admins = await deps.db
        .select()
        .from(staffUsers)
        .where(and(eq(staffUsers.isAdmin, true), eq(staffUsers.disabled, false)));
      expect(admins).toHaveLength(1);
    });
  },
  { seed: false },
);
