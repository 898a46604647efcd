import { and, eq } from "drizzle-orm";
import { generate } from "otplib";
import { beforeEach, describe, expect, it } from "vitest";
import { securityEvents, staffRecoveryCodes, staffTotp } from "#db/schema/index.ts";
import { createSession, DEFAULT_SESSION_POLICY, type SessionStage } from "#domain/auth/sessions.ts";
import { type ManualClock, manualClock, nowOf } from "#domain/clock.ts";
import type { Deps } from "#domain/deps.ts";
import { ValidationErrorSchema } from "#domain/api/operation.ts";
import * as mfa from "#domain/staff/mfa/mfa.contract.ts";
import { createHash } from "node:crypto";
import { normaliseRecoveryCode, useRecoveryCode } from "#domain/staff/mfa/recovery-codes.ts";
import {
  confirmTotpEnrolment,
  resetStaffMfa,
  secondFactorMethods,
} from "#domain/staff/mfa/second-factor.ts";
import { acceptTotpCode, startTotpEnrolment } from "#domain/staff/mfa/totp.ts";
import { loginStaff } from "#domain/staff/staff-auth.contract.ts";
import { dataOf } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { serveIntake } from "#tests/setup/intake.ts";
import {
  createTestStaff,
  sessionCookieOf,
  signIn,
  STAFF_PASSWORD,
  staffCall,
} from "#tests/setup/staff.ts";

const STEP_MS = 30_000;
/** A known time for the servers' clocks, a few seconds into a TOTP step. */
const T0 = Date.UTC(2026, 0, 5, 9, 0, 10);

/** Deps whose clock a test sets: codes are then computed for the time the server reads. */
function withClock(deps: Deps, start: number = T0): Deps & { clock: ManualClock } {
  return { ...deps, clock: manualClock(start) };
}

/** The TOTP code of the step `offset` steps from `deps`' clock, as an authenticator app shows it. */
function codeAt(deps: Pick<Deps, "clock">, secret: string, offset = 0): Promise<string> {
  const ms = nowOf(deps).getTime() + offset * STEP_MS;
  return generate({ secret, epoch: Math.floor(ms / 1000) });
}

/**
 * An account with a confirmed authenticator app, confirmed a step before `deps`' clock (so the
 * step the clock is in is still unspent); returns its secret and recovery codes.
 */
async function enrolDirectly(deps: Deps, email: string, confirmAtMs?: number) {
  const at = { ...deps, clock: manualClock(confirmAtMs ?? nowOf(deps).getTime() - STEP_MS) };
  const user = await createTestStaff(at, email, { isAdmin: true });
  const started = await startTotpEnrolment(at, user);
  if (started.outcome !== "started") throw new Error("enrolment did not start");
  const secret = started.enrolment.secret;
  const confirmed = await confirmTotpEnrolment(at, { user, code: await codeAt(at, secret) });
  if (confirmed.outcome !== "confirmed") throw new Error("enrolment not confirmed");
  return { user, secret, recoveryCodes: confirmed.recoveryCodes };
}

async function login(url: string, email: string, password = STAFF_PASSWORD, ip?: string) {
  return staffCall(url, "POST", "/api/admin/login", {
    body: { email, password },
    headers: ip ? { "X-Forwarded-For": ip } : {},
  });
}

async function eventsOf(deps: Deps, type: string, email: string) {
  return deps.db
    .select()
    .from(securityEvents)
    .where(and(eq(securityEvents.type, type), eq(securityEvents.actorEmail, email)));
}

describeEachBackend(
  "TOTP and recovery codes (domain)",
  (database) => {
    it("accepts a code within one step either side, never twice, never an older one", async () => {
      const deps = withClock(database().deps, Date.UTC(2026, 0, 5, 9, 0, 0));
      const t0 = nowOf(deps).getTime();
      const { user, secret } = await enrolDirectly(deps, "clock@castellum.test", t0);
      const at = (ms: number) => generate({ secret, epoch: Math.floor(ms / 1000) });
      const accept = (code: string) => acceptTotpCode(deps, { staffUserId: user.id, code });
      // The confirming code was step t0: it cannot sign in again, even a step later.
      deps.clock.set(t0 + STEP_MS);
      expect(await accept(await at(t0))).toBe(false);
      // Two steps behind the clock: outside the window.
      deps.clock.set(t0 + 3 * STEP_MS);
      expect(await accept(await at(t0 + STEP_MS))).toBe(false);
      // One step behind: inside the window, and accepted once only.
      const late = await at(t0 + 2 * STEP_MS);
      expect(await accept(late)).toBe(true);
      expect(await accept(late)).toBe(false);
      // One step ahead (a phone a little fast), spaces as apps show it.
      const ahead = await at(t0 + 4 * STEP_MS);
      expect(await accept(`${ahead.slice(0, 3)} ${ahead.slice(3)}`)).toBe(true);
      // The secret is kept sealed, not in clear.
      const [row] = await deps.db
        .select()
        .from(staffTotp)
        .where(eq(staffTotp.staffUserId, user.id));
      expect(row!.sealedSecret).not.toContain(secret);
    });

    it("seals new secrets with APP_SECRETS_KEY when set, and still opens those sealed before it", async () => {
      const plain = withClock(database().deps, Date.UTC(2026, 0, 5, 9, 0, 0));
      const keyed = { ...plain, secretsKey: "an-outside-key-of-at-least-32-characters" };
      const t0 = nowOf(plain).getTime();
      // Enrolled before the key was set: the server with the key still takes its codes.
      const before = await enrolDirectly(plain, "sealed.before@castellum.test", t0);
      const accept = async (deps: Deps, staffUserId: string, secret: string) =>
        acceptTotpCode(deps, { staffUserId, code: await codeAt(deps, secret) });
      plain.clock.set(t0 + 2 * STEP_MS);
      expect(await accept(keyed, before.user.id, before.secret)).toBe(true);
      // Enrolled with the key: the database's own key alone cannot open it.
      const after = await enrolDirectly(keyed, "sealed.after@castellum.test", t0);
      expect(await accept(plain, after.user.id, after.secret)).toBe(false);
      plain.clock.set(t0 + 4 * STEP_MS);
      expect(await accept(keyed, after.user.id, after.secret)).toBe(true);
    });

    it("spends a recovery code once, however it is typed, and makes 10 distinct ones", async () => {
      const deps = database().deps;
      const { user, recoveryCodes } = await enrolDirectly(deps, "codes@castellum.test");
      expect(new Set(recoveryCodes).size).toBe(10);
      const code = recoveryCodes[3]!;
      expect(await useRecoveryCode(deps, user.id, ` ${code.toUpperCase()} `)).toBe(true);
      expect(await useRecoveryCode(deps, user.id, code)).toBe(false);
      expect(await useRecoveryCode(deps, user.id, code.replaceAll("-", ""))).toBe(false);
      expect(normaliseRecoveryCode("not-a-code")).toBeNull();
      // Two instances spending the same code at once: one wins.
      const other = recoveryCodes[4]!;
      const both = await Promise.all([
        useRecoveryCode(deps, user.id, other),
        useRecoveryCode(deps, user.id, other),
      ]);
      expect(both.filter(Boolean)).toHaveLength(1);
    });

    it("makes codes of 120 random bits, and still takes a code of the earlier 60-bit form once", async () => {
      const deps = database().deps;
      const { user, recoveryCodes } = await enrolDirectly(deps, "long.codes@castellum.test");
      for (const code of recoveryCodes)
        // 24 characters of a 32-letter alphabet (5 bits each), in groups of four.
        expect(code).toMatch(/^[a-hj-km-np-z02-9]{4}(-[a-hj-km-np-z02-9]{4}){5}$/);
      // A code as the earlier batches made it: its hash is all the database ever had.
      const earlier = "abcd-efgh-2345";
      await deps.db.insert(staffRecoveryCodes).values({
        staffUserId: user.id,
        codeHash: createHash("sha256").update("abcdefgh2345").digest("hex"),
      });
      expect(await useRecoveryCode(deps, user.id, earlier)).toBe(true);
      expect(await useRecoveryCode(deps, user.id, earlier)).toBe(false);
    });

    it("reset-mfa removes the factors, ends the sessions and logs it", async () => {
      const deps = database().deps;
      const { user } = await enrolDirectly(deps, "lost@castellum.test");
      await createSession(deps, { role: "staff", staffUserId: user.id }, {});
      expect(await secondFactorMethods(deps, user.id)).toEqual(["totp", "recovery"]);
      expect(await resetStaffMfa(deps, "LOST@castellum.test")).toEqual({
        outcome: "reset",
        sessionsEnded: 1,
      });
      expect(await secondFactorMethods(deps, user.id)).toEqual([]);
      const [event] = await deps.db
        .select()
        .from(securityEvents)
        .where(eq(securityEvents.type, "account.mfa_reset"));
      expect(event!.data).toMatchObject({ targetEmail: "lost@castellum.test" });
      expect(await resetStaffMfa(deps, "nobody@castellum.test")).toEqual({ outcome: "not_found" });
    });
  },
  { seed: false },
);

describeEachBackend(
  "the sign-in's second step (STAFF_MFA_REQUIRED=false)",
  (database) => {
    const clock = manualClock(T0);
    const server = serveIntake(
      () => ({ ...database().deps, clock }),
      () => ({ STAFF_MFA_REQUIRED: false }),
    );
    beforeEach(() => clock.set(T0));

    it("answers mfaRequired after a right password; the session opens nothing until a code", async () => {
      const deps = { ...database().deps, clock };
      const { secret } = await enrolDirectly(deps, "two@castellum.test");
      const answer = await login(server().url, "two@castellum.test");
      expect(dataOf(loginStaff, answer, 200)).toEqual({
        step: "second_factor",
        mfaRequired: true,
        methods: ["totp", "recovery"],
      });
      let cookie = sessionCookieOf(answer as unknown as Response);
      const inbox = () => staffCall(server().url, "GET", "/api/booking-requests", { cookie });
      expect((await inbox()).status).toBe(401);
      expect((await staffCall(server().url, "GET", "/api/admin/me", { cookie })).status).toBe(401);
      const passwordOnly = cookie;
      const wrong = await staffCall(server().url, "POST", "/api/admin/login/mfa", {
        cookie,
        body: { code: "000000" },
      });
      expect(ValidationErrorSchema.parse(wrong.body).errors![0]!.path).toBe("code");
      const right = await staffCall(server().url, "POST", "/api/admin/login/mfa", {
        cookie,
        body: { code: await codeAt(deps, secret) },
      });
      dataOf(mfa.completeSecondFactor, right, 200);
      // The session is renewed as it completes: the token seen before the code opens nothing.
      cookie = sessionCookieOf(right as unknown as Response);
      expect(cookie).not.toBe(passwordOnly);
      expect((await inbox()).status).toBe(200);
      expect(
        (
          await staffCall(server().url, "GET", "/api/booking-requests", {
            cookie: passwordOnly,
          })
        ).status,
      ).toBe(401);
      expect(await eventsOf(deps, "second_factor.used", "two@castellum.test")).toHaveLength(1);
      expect(
        (await eventsOf(deps, "sign_in.failed", "two@castellum.test")).map((e) => e.data),
      ).toEqual([{ reason: "second_factor" }]);
    });

    it("refuses a code from two steps back, and takes one from the step before", async () => {
      const deps = { ...database().deps, clock };
      const { secret } = await enrolDirectly(deps, "steps@castellum.test");
      clock.advance(5 * STEP_MS);
      const cookie = sessionCookieOf(
        (await login(server().url, "steps@castellum.test")) as unknown as Response,
      );
      const send = (code: string) =>
        staffCall(server().url, "POST", "/api/admin/login/mfa", { cookie, body: { code } });
      const stale = await send(await codeAt(deps, secret, -2));
      expect(ValidationErrorSchema.parse(stale.body).errors![0]!.path).toBe("code");
      dataOf(mfa.completeSecondFactor, await send(await codeAt(deps, secret, -1)), 200);
    });

    it("ends a session idle for longer than its limit, and any session at its absolute limit", async () => {
      await createTestStaff(database().deps, "idle@castellum.test", { isAdmin: true });
      const { idleMs, absoluteMs } = DEFAULT_SESSION_POLICY;
      const me = (cookie: string) =>
        staffCall(server().url, "GET", "/api/admin/me", { cookie }).then((a) => a.status);
      const idle = await signIn(server().url, "idle@castellum.test");
      clock.advance(idleMs - 60_000);
      expect(await me(idle)).toBe(200);
      // That request counted: the idle time starts again from it.
      clock.advance(idleMs - 60_000);
      expect(await me(idle)).toBe(200);
      clock.advance(idleMs + 1);
      expect(await me(idle)).toBe(401);

      clock.set(T0);
      const busy = await signIn(server().url, "idle@castellum.test");
      const signedInAt = nowOf({ clock }).getTime();
      while (nowOf({ clock }).getTime() + idleMs / 2 < signedInAt + absoluteMs) {
        clock.advance(idleMs / 2);
        expect(await me(busy)).toBe(200);
      }
      clock.set(signedInAt + absoluteMs);
      expect(await me(busy)).toBe(401);
    });

    it("lets a recovery code through once, not twice", async () => {
      const deps = { ...database().deps, clock };
      const { recoveryCodes } = await enrolDirectly(deps, "recover@castellum.test");
      const pending = sessionCookieOf(
        (await login(server().url, "recover@castellum.test")) as unknown as Response,
      );
      const used = await staffCall(server().url, "POST", "/api/admin/login/mfa", {
        cookie: pending,
        body: { code: recoveryCodes[0] },
      });
      dataOf(mfa.completeSecondFactor, used, 200);
      const first = sessionCookieOf(used as unknown as Response);
      const second = sessionCookieOf(
        (await login(server().url, "recover@castellum.test")) as unknown as Response,
      );
      const again = await staffCall(server().url, "POST", "/api/admin/login/mfa", {
        cookie: second,
        body: { code: recoveryCodes[0] },
      });
      expect(again.status).toBe(400);
      expect(await eventsOf(deps, "recovery_code.used", "recover@castellum.test")).toHaveLength(1);
      const factors = await staffCall(server().url, "GET", "/api/admin/mfa", { cookie: first });
      expect(dataOf(mfa.getSecondFactors, factors, 200)).toEqual({
        totp: true,
        recoveryCodesLeft: 9,
        required: false,
      });
    });

    it("ends the session at the fifth wrong code", async () => {
      const deps = { ...database().deps, clock };
      const { secret } = await enrolDirectly(deps, "guess@castellum.test");
      const cookie = sessionCookieOf(
        (await login(server().url, "guess@castellum.test")) as unknown as Response,
      );
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push(
          (
            await staffCall(server().url, "POST", "/api/admin/login/mfa", {
              cookie,
              body: { code: `00000${i}` },
            })
          ).status,
        );
      expect(statuses).toEqual([400, 400, 400, 400, 401]);
      const late = await staffCall(server().url, "POST", "/api/admin/login/mfa", {
        cookie,
        body: { code: await codeAt(deps, secret) },
      });
      expect(late.status).toBe(401);
      expect(
        (await eventsOf(deps, "lockout", "guess@castellum.test")).map((e) => e.data.scope),
      ).toEqual(["session"]);
    });

    it("adds an authenticator app to a complete session only with the password again", async () => {
      const deps = { ...database().deps, clock };
      await createTestStaff(deps, "adds@castellum.test", { isAdmin: true });
      const signedIn = await login(server().url, "adds@castellum.test");
      expect(dataOf(loginStaff, signedIn, 200).step).toBe("signed_in");
      const cookie = sessionCookieOf(signedIn as unknown as Response);
      const call = (body: unknown) =>
        staffCall(server().url, "POST", "/api/admin/mfa/totp", { cookie, body });
      const none = await call({});
      expect(ValidationErrorSchema.parse(none.body).errors![0]!.path).toBe("password");
      expect((await call({ password: "not-my-password-at-all" })).status).toBe(400);
      const started = dataOf(mfa.startTotpEnrolment, await call({ password: STAFF_PASSWORD }), 200);
      expect(started.otpauthUrl).toContain(`secret=${started.secret}`);
      expect(started.qrSvg).toMatch(/^<svg[^>]*>.*<\/svg>\s*$/s);
      const confirmed = await staffCall(server().url, "POST", "/api/admin/mfa/totp/confirm", {
        cookie,
        body: { code: await codeAt(deps, started.secret) },
      });
      expect(dataOf(mfa.confirmTotpEnrolment, confirmed, 200).recoveryCodes).toHaveLength(10);
      expect((await call({ password: STAFF_PASSWORD })).status).toBe(409);
      expect(
        (await eventsOf(deps, "factor.added", "adds@castellum.test")).map((e) => e.data.method),
      ).toEqual(["totp", "recovery_codes"]);

      // Replacing the codes voids the old ones.
      const fresh = await staffCall(server().url, "POST", "/api/admin/mfa/recovery-codes", {
        cookie,
        body: { password: STAFF_PASSWORD },
      });
      const newCodes = dataOf(mfa.regenerateRecoveryCodes, fresh, 200).recoveryCodes;
      const oldCodes = dataOf(mfa.confirmTotpEnrolment, confirmed, 200).recoveryCodes;
      const id = await idOf(deps, "adds@castellum.test");
      expect(await useRecoveryCode(deps, id, oldCodes[0]!)).toBe(false);
      expect(await useRecoveryCode(deps, id, newCodes[0]!)).toBe(true);

      // Removing asks for the password too; without a factor the codes go.
      const remove = (password: string) =>
        staffCall(server().url, "DELETE", "/api/admin/mfa/totp", { cookie, body: { password } });
      expect((await remove("not-my-password-at-all")).status).toBe(400);
      expect((await remove(STAFF_PASSWORD)).status).toBe(204);
      expect(await secondFactorMethods(deps, id)).toEqual([]);
      expect((await remove(STAFF_PASSWORD)).status).toBe(404);
    });
  },
  { seed: false },
);

async function idOf(deps: Deps, email: string): Promise<string> {
  const { findStaffByEmail } = await import("#domain/staff/accounts.ts");
  const account = await findStaffByEmail(deps, email);
  if (!account) throw new Error(`no ${email}`);
  return account.id;
}

describeEachBackend(
  "second factor required (STAFF_MFA_REQUIRED=true)",
  (database) => {
    const clock = manualClock(T0);
    const server = serveIntake(
      () => ({ ...database().deps, clock }),
      () => ({ STAFF_MFA_REQUIRED: true }),
    );
    beforeEach(() => clock.set(T0));

    it("sends a password-only account to enrolment, which completes the session", async () => {
      const deps = { ...database().deps, clock };
      await createTestStaff(deps, "new@castellum.test", { isAdmin: true });
      const answer = await login(server().url, "new@castellum.test");
      expect(dataOf(loginStaff, answer, 200)).toEqual({
        step: "enrolment",
        enrolmentRequired: true,
      });
      let cookie = sessionCookieOf(answer as unknown as Response);
      const inbox = () => staffCall(server().url, "GET", "/api/booking-requests", { cookie });
      expect((await inbox()).status).toBe(401);
      // An enrolment session needs no password again: it just gave it.
      const started = dataOf(
        mfa.startTotpEnrolment,
        await staffCall(server().url, "POST", "/api/admin/mfa/totp", { cookie }),
        200,
      );
      const wrong = await staffCall(server().url, "POST", "/api/admin/mfa/totp/confirm", {
        cookie,
        body: { code: "123456" },
      });
      expect(wrong.status).toBe(400);
      expect((await inbox()).status).toBe(401);
      const confirmed = await staffCall(server().url, "POST", "/api/admin/mfa/totp/confirm", {
        cookie,
        body: { code: await codeAt(deps, started.secret) },
      });
      dataOf(mfa.confirmTotpEnrolment, confirmed, 200);
      cookie = sessionCookieOf(confirmed as unknown as Response);
      expect((await inbox()).status).toBe(200);
      expect(
        (await eventsOf(deps, "sign_in.succeeded", "new@castellum.test")).map((e) => e.data),
      ).toEqual([{ method: "totp_enrolment" }]);
      // The last factor cannot go while one is required.
      const remove = await staffCall(server().url, "DELETE", "/api/admin/mfa/totp", {
        cookie,
        body: { password: STAFF_PASSWORD },
      });
      expect(remove.status).toBe(409);
    });

    it("answers every new call by the caller's stage (authorisation matrix)", async () => {
      const deps = { ...database().deps, clock };
      const { user } = await enrolDirectly(deps, "matrix@castellum.test");
      const cookieOf = async (stage: SessionStage | "owner" | "anonymous") => {
        if (stage === "anonymous") return undefined;
        const session =
          stage === "owner"
            ? await createSession(deps, { role: "owner", ownerEmail: "owner@example.com" }, {})
            : await createSession(
                deps,
                { role: "staff", staffUserId: user.id },
                {},
                undefined,
                stage,
              );
        return `castellum_session=${session.token}`;
      };
      // Bodies that would pass each call's schema, with wrong codes: no call may change state.
      const calls = [
        ["POST", "/api/admin/mfa/totp", { password: "not-my-password-at-all" }],
        ["POST", "/api/admin/mfa/totp/confirm", { code: "000000" }],
        ["POST", "/api/admin/login/mfa", { code: "000000" }],
        ["DELETE", "/api/admin/mfa/totp", { password: "not-my-password-at-all" }],
        ["POST", "/api/admin/mfa/recovery-codes", { password: "not-my-password-at-all" }],
        ["GET", "/api/admin/mfa", undefined],
      ] as const;
      const callers = ["anonymous", "owner", "second_factor", "enrolment", "complete"] as const;
      const matrix: Record<string, number[]> = {};
      for (const [method, path, body] of calls) {
        const row: number[] = [];
        for (const caller of callers) {
          const cookie = await cookieOf(caller);
          row.push((await staffCall(server().url, method, path, { cookie, body })).status);
        }
        matrix[`${method} ${path}`] = row;
      }
      // anonymous, owner, second_factor, enrolment, complete
      expect(matrix).toEqual({
        // enrolment: the account has an app by now, so this sign-in must give it, not add one
        // (401); complete: wrong password (400).
        "POST /api/admin/mfa/totp": [401, 401, 401, 401, 400],
        "POST /api/admin/mfa/totp/confirm": [401, 401, 401, 401, 400],
        "POST /api/admin/login/mfa": [401, 401, 400, 401, 401],
        "DELETE /api/admin/mfa/totp": [401, 401, 401, 401, 400],
        "POST /api/admin/mfa/recovery-codes": [401, 401, 401, 401, 400],
        "GET /api/admin/mfa": [401, 401, 401, 401, 200],
      });
      // A browser on another origin is refused before anything else.
      const cross = await staffCall(server().url, "POST", "/api/admin/login/mfa", {
        cookie: await cookieOf("second_factor"),
        body: { code: "000000" },
        headers: { Origin: "https://evil.example" },
      });
      expect(cross.status).toBe(403);
    });
  },
  { seed: false },
);

describeEachBackend(
  "sign-in throttling that strangers cannot turn into a lockout",
  (database) => {
    const clock = manualClock(T0);
    const server = serveIntake(
      () => ({ ...database().deps, clock }),
      () => ({ STAFF_MFA_REQUIRED: false }),
    );
    beforeEach(() => clock.set(T0));

    it("locks the address that guessed, not the person elsewhere", async () => {
      const deps = { ...database().deps, clock };
      await createTestStaff(deps, "plain@castellum.test", { isAdmin: true });
      const fromX: number[] = [];
      for (let i = 0; i < 10; i++)
        fromX.push(
          (await login(server().url, "plain@castellum.test", `wrong-${i}-password`, "10.1.1.1"))
            .status,
        );
      expect(fromX.every((status) => status === 401)).toBe(true);
      // X is locked, even with the right password.
      const x = await login(server().url, "plain@castellum.test", STAFF_PASSWORD, "10.1.1.1");
      expect(x.status).toBe(429);
      // The person at Y signs in.
      const y = await login(server().url, "plain@castellum.test", STAFF_PASSWORD, "10.2.2.2");
      expect(dataOf(loginStaff, y, 200).step).toBe("signed_in");
      expect(
        (await eventsOf(deps, "lockout", "plain@castellum.test")).map((e) => e.data.scope),
      ).toEqual(["account_address"]);
    });

    it("after 30 wrong passwords from many addresses, a right password with a TOTP code still opens", async () => {
      const deps = { ...database().deps, clock };
      const { secret } = await enrolDirectly(deps, "target2@castellum.test");
      await createTestStaff(deps, "nofactor@castellum.test", { isAdmin: true });
      for (const email of ["target2@castellum.test", "nofactor@castellum.test"])
        for (let i = 0; i < 30; i++) {
          const answer = await login(server().url, email, `wrong-${i}-password`, `10.3.${i}.1`);
          expect(answer.status).toBe(401);
        }
      // The account-wide limit is reached: a wrong password is refused as throttled…
      const guess = await login(
        server().url,
        "target2@castellum.test",
        "still-wrong-password",
        "10.4.0.1",
      );
      expect(guess.status).toBe(429);
      // …and so is a right one without a second factor,
      expect(
        (await login(server().url, "nofactor@castellum.test", STAFF_PASSWORD, "10.4.0.2")).status,
      ).toBe(429);
      // but a right one with a second factor goes on to the second step, and through it.
      const right = await login(server().url, "target2@castellum.test", STAFF_PASSWORD, "10.4.0.3");
      expect(dataOf(loginStaff, right, 200).step).toBe("second_factor");
      const second = await staffCall(server().url, "POST", "/api/admin/login/mfa", {
        cookie: sessionCookieOf(right as unknown as Response),
        body: { code: await codeAt(deps, secret) },
      });
      dataOf(mfa.completeSecondFactor, second, 200);
      const cookie = sessionCookieOf(second as unknown as Response);
      expect(
        (await staffCall(server().url, "GET", "/api/booking-requests", { cookie })).status,
      ).toBe(200);
      expect(
        (await eventsOf(deps, "lockout", "target2@castellum.test")).map((e) => e.data.scope),
      ).toEqual(["account"]);
    }, 300_000);
  },
  { seed: false },
);

describe("the QR code", () => {
  it("is drawn locally as SVG from the otpauth URL", async () => {
    const QRCode = (await import("qrcode")).default;
    const svg = await QRCode.toString("otpauth://totp/Castellum:a%40b.c?secret=ABC", {
      type: "svg",
    });
    expect(svg).toContain("<path");
    expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  });
});

describeEachBackend("the password asked again", (database) => {
  const server = serveIntake(() => database().deps);

  it("counts on the sign-in's counters, logs every refusal, and does not confirm the right one once throttled", async () => {
    const deps = database().deps;
    await createTestStaff(deps, "again@castellum.test", { isAdmin: true });
    const signedIn = await login(server().url, "again@castellum.test");
    const cookie = sessionCookieOf(signedIn as unknown as Response);
    const wrong = "not-my-password-at-all";
    const tries = [
      ["POST", "/api/admin/mfa/totp", { password: wrong }, "totp_enrolment"],
      ["DELETE", "/api/admin/mfa/totp", { password: wrong }, "totp_removal"],
      ["POST", "/api/admin/mfa/recovery-codes", { password: wrong }, "recovery_codes"],
      [
        "PUT",
        "/api/admin/account/password",
        { currentPassword: wrong, newPassword: "a-new-long-passphrase-77" },
        "password_change",
      ],
    ] as const;
    for (const [method, path, body] of tries)
      expect((await staffCall(server().url, method, path, { cookie, body })).status, path).toBe(
        400,
      );
    const failures = await eventsOf(deps, "password_again.failed", "again@castellum.test");
    expect(failures.map((event) => event.data)).toEqual(
      tries.map(([, , , action]) => ({ reason: "wrong_password", action })),
    );

    // Ten wrong tries per account and address, as at sign-in: then 429, the right one included.
    const regenerate = (password: string) =>
      staffCall(server().url, "POST", "/api/admin/mfa/recovery-codes", {
        cookie,
        body: { password },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await regenerate(wrong)).status);
    expect(statuses).toEqual([...Array<number>(6).fill(400), ...Array<number>(15).fill(429)]);
    const right = await regenerate(STAFF_PASSWORD);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
    // The sign-in counts the same tries: this address cannot guess the password there either.
    expect((await login(server().url, "again@castellum.test", wrong)).status).toBe(429);
    const logged = await eventsOf(deps, "password_again.failed", "again@castellum.test");
    expect(logged).toHaveLength(4 + 21 + 1);
    expect(logged.filter((event) => event.data.reason === "rate_limited")).toHaveLength(16);
  });
});
