import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  authSessions,
  ownerCodeFailures,
  ownerCodes,
  properties,
  propertyClaims,
  securityEvents,
} from "#db/schema/index.ts";
import { ErrorSchema } from "#domain/api/operation.ts";
import { OWNER_CODE_POLICY } from "#domain/owners/owner-code.ts";
import { translate } from "#i18n/translate.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { decodeMail, serveIntake, TestSmtpServer } from "#tests/setup/intake.ts";
import { stringMatching } from "#tests/setup/matchers.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";

/**
 * The owner entries of the security log and the daily cap on wrong
 * owner codes (across codes, in the database, not fed by asking for codes, with a way back in
 * for the owner who reads the newest mail), claims bound to the address they were made with.
 */

const USER_AGENT = "owner-guesses-test/1.0";
const { maxFailuresPerWindow: CAP, maxAttempts } = OWNER_CODE_POLICY;

/** The last 6-digit code mailed to `email`. */
function lastCode(smtp: TestSmtpServer, email: string): string {
  const text = decodeMail(smtp.to(email).at(-1)?.raw ?? "");
  const match = /\b(\d{6})\b/.exec(
    text
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join("\n"),
  );
  if (!match) throw new Error(`no code in the mail to ${email}`);
  return match[1]!;
}

function cookieOf(response: { headers: Headers }, name: string): string {
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith(`${name}=`));
  if (!cookie) throw new Error(`no ${name} cookie`);
  return cookie.split(";")[0]!;
}

/** A 6-digit code that is not `code`. */
function wrongFor(code: string, n = 0): string {
  const guess = String((Number(code) + 1 + n) % 1_000_000).padStart(6, "0");
  return guess;
}

describeEachBackend("owner code guesses and claims", (database) => {
  const smtp = new TestSmtpServer();
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());
  const server = serveIntake(
    () => database().deps,
    () => ({ SMTP_URL: smtp.url, MAIL_POLL_MS: 50, ADMIN_EMAIL_DOMAIN: "castellum.test" }),
  );
  const call = (
    method: string,
    path: string,
    options: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) =>
    staffCall(server().url, method, path, {
      ...options,
      headers: { "User-Agent": USER_AGENT, ...options.headers },
    });

  beforeAll(async () => {
    await createTestStaff(database().deps, "admin@castellum.test", { isAdmin: true });
  });

  /** Gives estate `id` the contact email `email` (a fresh address per test). */
  async function ownEstate(id: number, email: string) {
    await database()
      .deps.db.update(properties)
      .set({ ownerEmail: email })
      .where(eq(properties.id, id));
  }

  /** Asks for a code and waits for its mail: the code. */
  async function mailedCode(email: string, headers: Record<string, string> = {}) {
    const before = smtp.to(email).length;
    const asked = await call("POST", "/api/property-owners/verify-email", {
      body: { email },
      headers,
    });
    expect(asked.status).toBe(200);
    await expect.poll(() => smtp.to(email).length, { timeout: 10_000 }).toBe(before + 1);
    return lastCode(smtp, email);
  }

  const guess = (email: string, code: string, language = "en") =>
    call("POST", "/api/property-owners/verify-code", {
      body: { email, code },
      headers: { "Accept-Language": language },
    });

  async function claimWith(email: string, code: string) {
    const proven = await guess(email, code);
    expect(proven.status).toBe(200);
    const claimed = await call("POST", "/api/property-owners/claim-property", {
      body: { email },
      cookie: cookieOf(proven, "castellum_owner_proof"),
    });
    expect(claimed.status).toBe(200);
    return cookieOf(claimed, "castellum_session");
  }

  /** The security log's entries of `type` for `email`, newest first. */
  const eventsOf = (type: string, email: string) =>
    database()
      .deps.db.select()
      .from(securityEvents)
      .where(and(eq(securityEvents.type, type), eq(securityEvents.actorEmail, email)))
      .orderBy(desc(securityEvents.id));

  it(`caps wrong codes at ${CAP} a day across codes: the count survives a new code, and then even the right code is refused`, async () => {
    const email = "owner@capped-estate.example";
    await ownEstate(2, email);
    // Two codes, four wrong tries each: no code ran out of tries.
    for (const _ of [1, 2]) {
      const code = await mailedCode(email);
      const statuses: number[] = [];
      for (let i = 0; i < maxAttempts - 1; i++)
        statuses.push((await guess(email, wrongFor(code, i))).status);
      expect(statuses).toEqual([400, 400, 400, 400]);
    }
    // A third code: the count survived the new codes. Its first wrong try has one try left
    // (the email's ninth wrong guess), not the code's four.
    const third = await mailedCode(email);
    const ninth = await guess(email, wrongFor(third));
    expect(ninth.status).toBe(400);
    expect(ErrorSchema.parse(ninth.body).message).toBe(
      translate("en", "owner.errors.codeInvalid", { count: CAP - 2 * (maxAttempts - 1) - 1 }),
    );
    const tenth = await guess(email, wrongFor(third, 1));
    expect(tenth.status).toBe(429);
    expect(ErrorSchema.parse(tenth.body).message).toBe(translate("en", "owner.guesses.locked"));
    // The eleventh guess, and the right code of the live code: the same refusal.
    const eleventh = await guess(email, wrongFor(third, 2), "fr");
    const right = await guess(email, third, "fr");
    expect([eleventh.status, right.status]).toEqual([429, 429]);
    expect(right.body).toEqual(eleventh.body);
    expect(ErrorSchema.parse(right.body).message).toBe(translate("fr", "owner.guesses.locked"));
    // The refusals while locked were not guesses: the count stays at the cap.
    const [count] = await database()
      .deps.db.select({ n: sql<number>`count(*)::int` })
      .from(ownerCodeFailures)
      .where(eq(ownerCodeFailures.email, email));
    expect(count?.n).toBe(CAP);
    // Logged: the lockout once, with the owner-email scope, the client's address and agent.
    const lockouts = await eventsOf("lockout", email);
    expect(lockouts).toHaveLength(1);
    expect(lockouts[0]).toMatchObject({
      data: { scope: "owner_email", failures: CAP },
      userAgent: USER_AGENT,
      ip: stringMatching(/127\.0\.0\.1|::1/),
    });
    const failed = (await eventsOf("owner.code_failed", email)).map(
      (event) => (event.data as { reason: string }).reason,
    );
    expect(failed.slice(0, 2)).toEqual(["locked", "locked"]);
    expect(failed.filter((reason) => reason === "wrong_code")).toHaveLength(CAP);
  });

  it("lets the owner who reads a new mail in while locked: one try per new code, and the window moves", async () => {
    const email = "owner@locked-estate.example";
    await ownEstate(3, email);
    const old = await mailedCode(email);
    // The code was mailed two hours ago; a stranger's ten wrong guesses came an hour ago.
    await database()
      .deps.db.update(ownerCodes)
      .set({ createdAt: sql`now() - interval '2 hours'` })
      .where(eq(ownerCodes.email, email));
    await database()
      .deps.db.insert(ownerCodeFailures)
      .values(Array.from({ length: CAP }, () => ({ email, at: sql`now() - interval '1 hour'` })));
    // The code mailed before the lock is refused, right or not.
    expect((await guess(email, old)).status).toBe(429);
    // A new code, mailed after the lock: a wrong try spends it (one try)...
    const spent = await mailedCode(email);
    expect((await guess(email, wrongFor(spent))).status).toBe(429);
    expect((await guess(email, spent)).status).toBe(429);
    // ...and the owner's next new code, typed right, gets them in.
    const fresh = await mailedCode(email);
    const session = await claimWith(email, fresh);
    expect(
      (await call("GET", "/api/property-owners/property-details", { cookie: session })).status,
    ).toBe(200);

    // The window moves: once the wrong guesses are more than 24 hours old, codes have their
    // tries again (timestamps set in the database, no waiting).
    await database()
      .deps.db.update(ownerCodeFailures)
      .set({ at: sql`now() - interval '25 hours'` })
      .where(eq(ownerCodeFailures.email, email));
    const later = await mailedCode(email);
    const wrong = await guess(email, wrongFor(later));
    expect(wrong.status).toBe(400);
    expect(ErrorSchema.parse(wrong.body).message).toBe(
      translate("en", "owner.errors.codeInvalid", { count: maxAttempts - 1 }),
    );
    expect((await guess(email, later)).status).toBe(200);
  });

  it("parallel wrong guesses never pass the cap", async () => {
    const email = "owner@raced-estate.example";
    await ownEstate(9, email);
    await database()
      .deps.db.insert(ownerCodeFailures)
      .values(
        Array.from({ length: CAP - 2 }, () => ({ email, at: sql`now() - interval '1 hour'` })),
      );
    const code = await mailedCode(email);
    const answers = await Promise.all(
      Array.from({ length: maxAttempts }, (_, i) => guess(email, wrongFor(code, i))),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([400, 429, 429, 429, 429]);
    const [count] = await database()
      .deps.db.select({ n: sql<number>`count(*)::int` })
      .from(ownerCodeFailures)
      .where(eq(ownerCodeFailures.email, email));
    expect(count?.n).toBe(CAP);
  });

  it("asking for many codes uses no guess: the owner signs in with the newest mailed code", async () => {
    const email = "owner@popular-estate.example";
    await ownEstate(4, email);
    for (let i = 0; i < CAP + 2; i++) await mailedCode(email);
    const [count] = await database()
      .deps.db.select({ n: sql<number>`count(*)::int` })
      .from(ownerCodeFailures)
      .where(eq(ownerCodeFailures.email, email));
    expect(count?.n).toBe(0);
    const session = await claimWith(email, lastCode(smtp, email));
    expect(
      (await call("GET", "/api/property-owners/property-details", { cookie: session })).status,
    ).toBe(200);
  });

  it("logs code requests, failed codes (why), claims and sign-ins with the address and agent", async () => {
    const email = "owner@logged-estate.example";
    await ownEstate(5, email);
    const typed = "Owner@Logged-Estate.example";
    const asked = await call("POST", "/api/property-owners/verify-email", {
      body: { email: typed },
    });
    expect(asked.status).toBe(200);
    const [requested] = await eventsOf("owner.code_requested", email);
    expect(requested).toMatchObject({
      actorKind: "anonymous",
      userAgent: USER_AGENT,
      ip: stringMatching(/127\.0\.0\.1|::1/),
      data: { estateIds: [5], sent: true },
    });
    const unknown = await call("POST", "/api/property-owners/verify-email", {
      body: { email: "nobody@unknown-estate.example" },
    });
    expect(unknown.status).toBe(200);
    expect(await eventsOf("owner.code_requested", "nobody@unknown-estate.example")).toMatchObject([
      { data: { estateIds: [], sent: false } },
    ]);

    await expect.poll(() => smtp.to(email).length, { timeout: 10_000 }).toBe(1);
    const code = lastCode(smtp, email);
    expect((await eventsOf("owner.code_failed", email)).length).toBe(0);
    expect((await guess(email, wrongFor(code))).status).toBe(400);
    const [wrong] = await eventsOf("owner.code_failed", email);
    expect(wrong).toMatchObject({ data: { reason: "wrong_code" }, userAgent: USER_AGENT });
    expect(JSON.stringify(wrong?.data)).not.toContain(wrongFor(code));

    await database()
      .deps.db.update(ownerCodes)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(ownerCodes.email, email));
    expect((await guess(email, code)).status).toBe(410);
    const [expired] = await eventsOf("owner.code_failed", email);
    expect(expired).toMatchObject({ data: { reason: "expired" }, userAgent: USER_AGENT });

    expect(await eventsOf("owner.claimed", email)).toEqual([]);
    expect(await eventsOf("owner.signed_in", email)).toEqual([]);
    await claimWith(email, await mailedCode(email));
    const [claimed] = await eventsOf("owner.claimed", email);
    const [signedIn] = await eventsOf("owner.signed_in", email);
    for (const event of [claimed, signedIn])
      expect(event).toMatchObject({
        actorKind: "owner",
        userAgent: USER_AGENT,
        ip: stringMatching(/127\.0\.0\.1|::1/),
        data: { estateId: 5 },
      });
  });

  it("a claim ends for good when staff change the owner email: changing it back revives no session", async () => {
    const deps = database().deps;
    const ownerA = "owner-a@moving-estate.example";
    const ownerB = "owner-b@moving-estate.example";
    await ownEstate(6, ownerA);
    const session = await claimWith(ownerA, await mailedCode(ownerA));
    const details = () => call("GET", "/api/property-owners/property-details", { cookie: session });
    expect((await details()).status).toBe(200);

    const admin = await signIn(server().url, "admin@castellum.test");
    const change = (email: string) =>
      call("PATCH", "/api/admin/estates/6/owner-email", { cookie: admin, body: { email } });
    expect((await change(ownerB)).status).toBe(200);
    expect((await change(ownerA)).status).toBe(200);
    // A's session was deleted (A had no other estate) and the claim has ended.
    expect((await details()).status).toBe(401);
    const [left] = await deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(authSessions)
      .where(eq(authSessions.ownerEmail, ownerA));
    expect(left?.n).toBe(0);
    const claims = await deps.db
      .select()
      .from(propertyClaims)
      .where(eq(propertyClaims.propertyId, 6));
    expect(claims.map((claim) => [claim.email, claim.endedAt === null])).toEqual([[ownerA, false]]);

    // A claims again with a fresh code, and gets in.
    const again = await claimWith(ownerA, await mailedCode(ownerA));
    expect(
      (await call("GET", "/api/property-owners/property-details", { cookie: again })).status,
    ).toBe(200);
  });

  it("a session kept by another estate loses only the estate whose email changed, even when it changes back", async () => {
    const deps = database().deps;
    const email = "family@two-moving-estates.example";
    await deps.db
      .update(properties)
      .set({ ownerEmail: email })
      .where(sql`${properties.id} in (7, 8)`);
    const proven = await guess(email, await mailedCode(email));
    const claimed = await call("POST", "/api/property-owners/claim-property", {
      body: { email, propertyId: 7 },
      cookie: cookieOf(proven, "castellum_owner_proof"),
    });
    expect(claimed.status).toBe(200);
    const first = cookieOf(claimed, "castellum_session");
    const provenAgain = await guess(email, await mailedCode(email));
    const second = await call("POST", "/api/property-owners/claim-property", {
      body: { email, propertyId: 8 },
      cookie: cookieOf(provenAgain, "castellum_owner_proof"),
    });
    expect(second.status).toBe(200);
    // Away and back, written straight to the database (as an import would): the trigger acts.
    for (const next of ["someone-else@example.com", email])
      await deps.db.update(properties).set({ ownerEmail: next }).where(eq(properties.id, 8));
    const estate = (id: number) =>
      call("GET", `/api/property-owners/property-details?propertyId=${id}`, { cookie: first });
    expect([(await estate(7)).status, (await estate(8)).status]).toEqual([200, 403]);
  });
});
