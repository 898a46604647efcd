import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { authSessions, staffUsers } from "#db/schema/index.ts";
import { verifyPassword } from "#domain/staff/passwords.ts";
import { ErrorSchema, ValidationErrorSchema } from "#domain/api/operation.ts";
import {
  completeStaffSetup,
  getSignedInStaffUser,
  loginStaff,
} from "#domain/staff/staff-auth.contract.ts";
import { dataOf } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { expectErrorLog } from "#tests/setup/error-log.ts";
import { serveIntake } from "#tests/setup/intake.ts";
import {
  createTestStaff,
  sessionCookieOf,
  signIn,
  STAFF_PASSWORD,
  staffCall,
} from "#tests/setup/staff.ts";

describeEachBackend("staff sign-in and sessions", (database) => {
  const server = serveIntake(() => database().deps);
  beforeAll(async () => {
    await createTestStaff(database().deps, "admin@castellum.test", { isAdmin: true });
  });

  it("signs in with the right password and answers the user, never the hash", async () => {
    const response = await staffCall(server().url, "POST", "/api/admin/login", {
      body: { email: "ADMIN@castellum.test", password: STAFF_PASSWORD },
    });
    expect(response.status).toBe(200);
    expect(dataOf(loginStaff, response, 200)).toMatchObject({ step: "signed_in" });
    expect((dataOf(loginStaff, response, 200) as { user: unknown }).user).toMatchObject({
      email: "admin@castellum.test",
      isAdmin: true,
    });
    // The stored hash is argon2id and verifies the password; no part of it is in the answer.
    const [account] = await database()
      .deps.db.select({ hash: staffUsers.passwordHash })
      .from(staffUsers)
      .where(eq(staffUsers.email, "admin@castellum.test"));
    expect(account!.hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(account!.hash, STAFF_PASSWORD)).toBe(true);
    for (const part of account!.hash.split("$").filter((part) => part.length >= 16))
      expect(response.text).not.toContain(part);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("castellum_session="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const me = await staffCall(server().url, "GET", "/api/admin/me", {
      cookie: cookie!.split(";")[0],
    });
    expect(dataOf(getSignedInStaffUser, me, 200).user.email).toBe("admin@castellum.test");
  });

  it("gives one answer for a wrong password and an unknown email", async () => {
    const wrong = await staffCall(server().url, "POST", "/api/admin/login", {
      body: { email: "admin@castellum.test", password: "not-the-password-at-all" },
    });
    const unknown = await staffCall(server().url, "POST", "/api/admin/login", {
      body: { email: "nobody@castellum.test", password: "not-the-password-at-all" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      message: "Invalid email or password.",
      code: "invalid_credentials",
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const french = await staffCall(server().url, "POST", "/api/admin/login", {
      body: { email: "nobody@castellum.test", password: "not-the-password-at-all" },
      headers: { "Accept-Language": "fr" },
    });
    expect(french.status).toBe(401);
    expect(ErrorSchema.parse(french.body).message).not.toBe(ErrorSchema.parse(wrong.body).message);
  });

  it("refuses an empty form with the fields named", async () => {
    const response = await staffCall(server().url, "POST", "/api/admin/login", {
      body: { email: "", password: "" },
    });
    expect(response.status).toBe(400);
    expect(
      ValidationErrorSchema.parse(response.body)
        .errors!.map((e) => e.path)
        .sort(),
    ).toEqual(["email", "password"]);
  });

  it("gives a new token at every sign-in and ends a session at logout", async () => {
    const first = await signIn(server().url, "admin@castellum.test");
    const second = await signIn(server().url, "admin@castellum.test");
    expect(first).not.toBe(second);
    const out = await staffCall(server().url, "POST", "/api/admin/logout", { cookie: first });
    expect(out.status).toBe(200);
    expect((await staffCall(server().url, "GET", "/api/admin/me", { cookie: first })).status).toBe(
      401,
    );
    expect((await staffCall(server().url, "GET", "/api/admin/me", { cookie: second })).status).toBe(
      200,
    );
  });

  it("ends sessions that were idle too long or passed their absolute expiry", async () => {
    const idle = await signIn(server().url, "admin@castellum.test");
    const old = await signIn(server().url, "admin@castellum.test");
    const db = database().deps.db;
    const { hashSessionToken } = await import("#domain/auth/sessions.ts");
    await db
      .update(authSessions)
      .set({ lastSeenAt: sql`now() - interval '13 hours'` })
      .where(eq(authSessions.tokenHash, hashSessionToken(idle.split("=")[1]!)));
    await db
      .update(authSessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(authSessions.tokenHash, hashSessionToken(old.split("=")[1]!)));
    expect((await staffCall(server().url, "GET", "/api/admin/me", { cookie: idle })).status).toBe(
      401,
    );
    expect((await staffCall(server().url, "GET", "/api/admin/me", { cookie: old })).status).toBe(
      401,
    );
  });

  it("stores only the SHA-256 of the session token", async () => {
    const cookie = await signIn(server().url, "admin@castellum.test");
    const token = cookie.split("=")[1]!;
    const rows = await database().deps.db.select().from(authSessions);
    expect(rows.some((row) => row.tokenHash.includes(token))).toBe(false);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.tokenHash))).toBe(true);
  });

  it("refuses sign-in when the limiter's counters cannot be reached: it never fails open", async () => {
    const { Redis } = await import("ioredis");
    const { createRedisRateLimitStore } = await import("#domain/rate-limit/rate-limiter.ts");
    const { loginStaff } = await import("#domain/staff/login.ts");
    // A real client pointed at a port where no Redis listens.
    const redis = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on("error", () => {});
    expectErrorLog(/login limiter unavailable/);
    const result = await loginStaff(
      database().deps,
      { store: createRedisRateLimitStore(redis), perAccount: 10, perIp: 50, windowMs: 60_000 },
      { email: "admin@castellum.test", password: STAFF_PASSWORD },
    );
    expect(result).toEqual({ outcome: "unavailable" });
    redis.disconnect();
  });

  it("allows at most 10 tries per account from one address in the window, then 429 with Retry-After", async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 11; i++) {
      last = await staffCall(server().url, "POST", "/api/admin/login", {
        body: { email: "target@castellum.test", password: `wrong-password-${i}` },
        headers: { "X-Forwarded-For": "10.0.0.7" },
      });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("counts failures only: a person who signs in often is never throttled by it", async () => {
    await createTestStaff(database().deps, "often@castellum.test", { isAdmin: true });
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push(
        (
          await staffCall(server().url, "POST", "/api/admin/login", {
            body: { email: "often@castellum.test", password: STAFF_PASSWORD },
            headers: { "X-Forwarded-For": "10.0.0.8" },
          })
        ).status,
      );
    expect(statuses).toEqual(Array<number>(25).fill(200));
    // Nine wrong passwords among them still leave the tenth try, then the limit holds.
    const wrong = async () =>
      (
        await staffCall(server().url, "POST", "/api/admin/login", {
          body: { email: "often@castellum.test", password: "not-the-password" },
          headers: { "X-Forwarded-For": "10.0.0.8" },
        })
      ).status;
    for (let i = 0; i < 10; i++) expect(await wrong()).toBe(401);
    expect(await wrong()).toBe(429);
  });
});
describeEachBackend(
  "the first admin from the setup link",
  (database) => {
    const server = serveIntake(() => database().deps);

    it("creates one admin at the company domain, once, and signs them in", async () => {
      const { issueSetupToken } = await import("#domain/staff/setup.ts");
      const token = await issueSetupToken(database().deps, "castellum.test");
      expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const form = {
        token,
        email: "first@castellum.test",
        displayName: "First Admin",
        password: STAFF_PASSWORD,
        language: "fr",
      };

      const wrongDomain = await staffCall(server().url, "POST", "/api/admin/setup", {
        body: { ...form, email: "first@gmail.com" },
      });
      expect(wrongDomain.status).toBe(400);
      expect(ValidationErrorSchema.parse(wrongDomain.body).errors![0]!.path).toBe("email");
      const weak = await staffCall(server().url, "POST", "/api/admin/setup", {
        body: { ...form, password: "password1" },
      });
      expect(weak.status).toBe(400);
      expect(ValidationErrorSchema.parse(weak.body).errors![0]).toEqual({
        path: "password",
        message: "The password must be at least 12 characters long.",
      });

      const created = await staffCall(server().url, "POST", "/api/admin/setup", { body: form });
      expect(created.status).toBe(201);
      expect(dataOf(completeStaffSetup, created, 201)).toMatchObject({
        user: { email: "first@castellum.test", isAdmin: true, language: "fr" },
        step: "signed_in",
      });
      const cookie = sessionCookieOf(new Response(null, { headers: created.headers }));
      expect(
        (await staffCall(server().url, "GET", "/api/booking-requests", { cookie })).status,
      ).toBe(200);

      const reused = await staffCall(server().url, "POST", "/api/admin/setup", {
        body: { ...form, email: "second@castellum.test" },
      });
      expect(reused.status).toBe(400);
      expect(await issueSetupToken(database().deps, "castellum.test")).toBeNull();
    });
  },
  { seed: false },
);

describeEachBackend(
  "the first admin from the setup link while a second factor is required",
  (database) => {
    const server = serveIntake(
      () => database().deps,
      () => ({ STAFF_MFA_REQUIRED: true }),
    );

    it("starts at enrolment: the link is worth a password, not a whole sign-in", async () => {
      const { issueSetupToken } = await import("#domain/staff/setup.ts");
      const token = await issueSetupToken(database().deps, "castellum.test");
      const created = await staffCall(server().url, "POST", "/api/admin/setup", {
        body: {
          token,
          email: "first.mfa@castellum.test",
          displayName: "First Admin",
          password: STAFF_PASSWORD,
          language: "en",
        },
      });
      expect(dataOf(completeStaffSetup, created, 201).step).toBe("enrolment");
      const cookie = sessionCookieOf(new Response(null, { headers: created.headers }));
      const inbox = await staffCall(server().url, "GET", "/api/booking-requests", { cookie });
      expect(inbox.status).toBe(401);
      expect(inbox.body).toEqual({
        message: "Finish signing in first: give the code of your second factor, or set one up.",
        code: "sign_in_incomplete",
      });
      // Enrolment is what it may do.
      const started = await staffCall(server().url, "POST", "/api/admin/mfa/totp", { cookie });
      expect(started.status).toBe(200);
    });
  },
  { seed: false },
);

describeEachBackend(
  "the login limit in Redis, shared by two app instances",
  (database) => {
    const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
    // Every run comes from 127.0.0.1 and Redis keeps counters for the window: only the
    // per-account limit is under test here.
    const env = () => ({ REDIS_URL, LOGIN_MAX_PER_ACCOUNT: 3, LOGIN_MAX_PER_IP: 100_000 });
    const first = serveIntake(() => database().deps, env);
    const second = serveIntake(() => database().deps, env);

    it("counts tries at either instance against the same account", async () => {
      // A new account name per run: Redis keeps the counters across runs for the window.
      const email = `shared-${Date.now()}@castellum.test`;
      const statuses: number[] = [];
      for (const server of [first, second, first, second]) {
        const answer = await staffCall(server().url, "POST", "/api/admin/login", {
          body: { email, password: "not-the-password-at-all" },
        });
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    });
  },
  { seed: false },
);
