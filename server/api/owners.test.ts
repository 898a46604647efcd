import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  ownerCodes,
  properties,
  propertyClaims,
  propertyFieldEdits,
  propertyRevisions,
  propertyTranslations,
} from "#db/schema/index.ts";
import { createSession } from "#domain/auth/sessions.ts";
import { EDITABLE_FIELDS } from "#domain/owners/owner-fields.ts";
import { OWNER_CODE_POLICY } from "#domain/owners/verification.ts";
import { translate } from "#i18n/translate.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { expectErrorLog } from "#tests/setup/error-log.ts";
import { decodeMail, serveIntake, testServicesEnv, TestSmtpServer } from "#tests/setup/intake.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { ErrorSchema, ValidationErrorSchema } from "#domain/api/operation.ts";
import { getCastle } from "#domain/catalogue/catalogue.contract.ts";
import {
  claimProperty,
  getOwnerProperty,
  updateOwnerProperty,
  verifyOwnerCode,
} from "#domain/owners/owners.contract.ts";
import { dataOf } from "#tests/setup/api.ts";
import { stringMatching } from "#tests/setup/matchers.ts";

const GORDON = demoEstate("gordon-castle");
/** The suite's limit of codes per email and hour (the test services' setting). */
const { OWNER_CODES_PER_EMAIL } = testServicesEnv();
const ITALIAN_DESCRIPTION =
  "Una dimora nel verde della Moray, con un giardino murato che rifornisce la cucina ogni giorno e dodici camere affacciate sul lago.";

/** The last 6-digit code mailed to `email`. */
function lastCode(smtp: TestSmtpServer, email: string): string {
  const mails = smtp.to(email);
  const text = decodeMail(mails.at(-1)?.raw ?? "");
  const match = /\b(\d{6})\b/.exec(
    text
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join("\n"),
  );
  if (!match) throw new Error(`no code in the mail to ${email}`);
  return match[1]!;
}

function proofCookieOf(response: { headers: Headers }): string {
  const cookie = response.headers
    .getSetCookie()
    .find((header) => header.startsWith("castellum_owner_proof="));
  if (!cookie) throw new Error("no proof cookie");
  return cookie.split(";")[0]!;
}

function sessionOf(response: { headers: Headers }): string {
  const cookie = response.headers
    .getSetCookie()
    .find((header) => header.startsWith("castellum_session="));
  if (!cookie) throw new Error("no session cookie");
  return cookie.split(";")[0]!;
}

describeEachBackend("owner area API", (database) => {
  const smtp = new TestSmtpServer();
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());
  const server = serveIntake(
    () => database().deps,
    () => ({ SMTP_URL: smtp.url, MAIL_POLL_MS: 50, ADMIN_EMAIL_DOMAIN: "castellum.test" }),
  );
  const call = (...args: Parameters<typeof staffCall> extends [string, ...infer R] ? R : never) =>
    staffCall(server().url, ...args);

  /** Verify, read the code from the mail, prove it, claim: the owner's session cookie. */
  async function claim(email: string, propertyId?: number, language = "en"): Promise<string> {
    const headers = { "Accept-Language": language };
    const before = smtp.to(email).length;
    const verify = await call("POST", "/api/property-owners/verify-email", {
      body: { email },
      headers,
    });
    expect(verify.body).toEqual({ propertyFound: true, codeSent: true });
    await expect.poll(() => smtp.to(email).length, { timeout: 10_000 }).toBe(before + 1);
    const proven = await call("POST", "/api/property-owners/verify-code", {
      body: { email, code: lastCode(smtp, email) },
      headers,
    });
    expect(proven.status).toBe(200);
    const claimed = await call("POST", "/api/property-owners/claim-property", {
      body: { email, ...(propertyId ? { propertyId } : {}) },
      cookie: proofCookieOf(proven),
      headers,
    });
    expect(claimed.status).toBe(200);
    return sessionOf(claimed);
  }

  beforeAll(async () => {
    const deps = database().deps;
    await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
    await createTestStaff(deps, "clerk@castellum.test", { isAdmin: false });
  });

  it("says when no estate has the email, and sends nothing", async () => {
    const response = await call("POST", "/api/property-owners/verify-email", {
      body: { email: "nobody@example.com" },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ propertyFound: false });
    const [row] = await database()
      .deps.db.select({ n: sql<number>`count(*)::int` })
      .from(ownerCodes)
      .where(eq(ownerCodes.email, "nobody@example.com"));
    expect(row?.n).toBe(0);
  });

  it("refuses a malformed email in the caller's language", async () => {
    const english = await call("POST", "/api/property-owners/verify-email", {
      body: { email: "not-an-email" },
    });
    const italian = await call("POST", "/api/property-owners/verify-email", {
      body: { email: "not-an-email" },
      headers: { "Accept-Language": "it" },
    });
    expect(english.status).toBe(400);
    expect(ValidationErrorSchema.parse(english.body).errors![0]!.path).toBe("email");
    expect(italian.status).toBe(400);
    expect(ValidationErrorSchema.parse(italian.body).errors![0]!.message).not.toBe(
      ValidationErrorSchema.parse(english.body).errors![0]!.message,
    );
  });

  it("mails a 6-digit code in the page's language, stores it hashed, shows the estate only after it", async () => {
    const email = GORDON.email;
    const verify = await call("POST", "/api/property-owners/verify-email", {
      body: { email: email.toUpperCase() },
      headers: { "Accept-Language": "fr" },
    });
    expect(verify.body).toEqual({ propertyFound: true, codeSent: true });
    expect(verify.text).not.toContain("Gordon");
    await expect.poll(() => smtp.to(email).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const mail = decodeMail(smtp.to(email).at(-1)!.raw);
    const code = lastCode(smtp, email);
    expect(mail).toContain("Castellum");
    const [stored] = await database()
      .deps.db.select()
      .from(ownerCodes)
      .where(eq(ownerCodes.email, email));
    expect(stored?.codeHash).not.toContain(code);
    expect(stored?.language).toBe("fr");

    const wrong = await call("POST", "/api/property-owners/verify-code", {
      body: { email, code: code === "000000" ? "111111" : "000000" },
    });
    expect(wrong.status).toBe(400);
    expect(ErrorSchema.parse(wrong.body).message).toBe(
      translate("en", "owner.errors.codeInvalid", { count: OWNER_CODE_POLICY.maxAttempts - 1 }),
    );
    expect(wrong.headers.getSetCookie()).toEqual([]);

    const right = await call("POST", "/api/property-owners/verify-code", { body: { email, code } });
    expect(right.status).toBe(200);
    expect(dataOf(verifyOwnerCode, right, 200).property).toEqual({
      id: GORDON.id,
      name: GORDON.name,
      location: GORDON.location,
    });
    // Single use: the same code again is refused.
    const again = await call("POST", "/api/property-owners/verify-code", { body: { email, code } });
    expect(again.status).toBe(410);
  });

  it("ends a code after 5 wrong tries, even if the right one comes next", async () => {
    const email = "estate@castello-di-pietrarossa.example";
    await database()
      .deps.db.update(properties)
      .set({ ownerEmail: email })
      .where(eq(properties.id, 3));
    await call("POST", "/api/property-owners/verify-email", { body: { email } });
    await expect.poll(() => smtp.to(email).length, { timeout: 10_000 }).toBe(1);
    const code = lastCode(smtp, email);
    const wrongCode = code === "123456" ? "654321" : "123456";
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push(
        (
          await call("POST", "/api/property-owners/verify-code", {
            body: { email, code: wrongCode },
          })
        ).status,
      );
    expect(answers).toEqual([400, 400, 400, 400, 410]);
    const right = await call("POST", "/api/property-owners/verify-code", { body: { email, code } });
    expect(right.status).toBe(410);
  });

  it("refuses an expired code, and a new code replaces the old one", async () => {
    const email = GORDON.email;
    const before = smtp.to(email).length;
    await call("POST", "/api/property-owners/verify-email", { body: { email } });
    await expect.poll(() => smtp.to(email).length, { timeout: 10_000 }).toBe(before + 1);
    const first = lastCode(smtp, email);
    await database()
      .deps.db.update(ownerCodes)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(ownerCodes.email, email));
    const late = await call("POST", "/api/property-owners/verify-code", {
      body: { email, code: first },
    });
    expect(late.status).toBe(410);
    const count = smtp.to(email).length;
    await call("POST", "/api/property-owners/verify-email", { body: { email } });
    await expect.poll(() => smtp.to(email).length, { timeout: 10_000 }).toBe(count + 1);
    const rows = await database()
      .deps.db.select()
      .from(ownerCodes)
      .where(eq(ownerCodes.email, email));
    expect(rows).toHaveLength(1);
  });

  it("claims only with the proof of a code, records the claim and opens an owner session", async () => {
    const email = GORDON.email;
    const noProof = await call("POST", "/api/property-owners/claim-property", { body: { email } });
    expect(noProof.status).toBe(403);
    expect(ErrorSchema.parse(noProof.body).message).toBe("Failed to claim property");

    const cookie = await claim(email);
    const [recorded] = await database()
      .deps.db.select()
      .from(propertyClaims)
      .where(eq(propertyClaims.propertyId, GORDON.id));
    expect(recorded?.email).toBe(email);
    // The test client's address, as the server saw it (IPv4, maybe mapped into IPv6).
    expect(recorded?.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
    const details = await call("GET", "/api/property-owners/property-details?lang=it", { cookie });
    expect(details.status).toBe(200);
    const content = DEMO_CATALOGUE.find((estate) => estate.id === GORDON.id);
    expect(details.body).toMatchObject({
      id: GORDON.id,
      name: content?.content.it.name,
      location: content?.content.it.location,
      contactEmail: email,
      guest_capacity: content?.guestCapacity,
      accommodation: { beds: content?.bedrooms },
      actor: { role: "owner", email },
    });
    expect(dataOf(getOwnerProperty, details, 200).selectedImages).toHaveLength(
      content?.illustration.imageCount ?? -1,
    );
    // An owner session is not a staff session.
    expect((await call("GET", "/api/admin/me", { cookie })).status).toBe(401);
    expect((await call("GET", "/api/booking-requests", { cookie })).status).toBe(401);
  });

  it("a proof claims once", async () => {
    const email = GORDON.email;
    const before = smtp.to(email).length;
    await call("POST", "/api/property-owners/verify-email", { body: { email } });
    await expect.poll(() => smtp.to(email).length, { timeout: 10_000 }).toBe(before + 1);
    const proven = await call("POST", "/api/property-owners/verify-code", {
      body: { email, code: lastCode(smtp, email) },
    });
    const proof = proofCookieOf(proven);
    const first = await call("POST", "/api/property-owners/claim-property", {
      body: { email },
      cookie: proof,
    });
    const second = await call("POST", "/api/property-owners/claim-property", {
      body: { email },
      cookie: proof,
    });
    expect([first.status, second.status]).toEqual([200, 403]);
  });

  it("edits a field in one language, flags the others and shows it on the public page", async () => {
    const cookie = await claim(GORDON.email);
    const saved = await call("POST", "/api/property-owners/update-property", {
      body: { field: "description", value: ITALIAN_DESCRIPTION, lang: "it" },
      cookie,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ field: "description", lang: "it", changed: true });
    const italian = await call("GET", `/api/castles/${GORDON.id}?lang=it`);
    expect(dataOf(getCastle, italian, 200).summary).toBe(ITALIAN_DESCRIPTION);
    const english = await call("GET", `/api/castles/${GORDON.id}?lang=en`);
    expect(dataOf(getCastle, english, 200).summary).toBe(GORDON.content.content.en.summary);
    const details = await call("GET", "/api/property-owners/property-details?lang=it", { cookie });
    expect(
      dataOf(getOwnerProperty, details, 200)
        .stale.filter((flag: { field: string }) => flag.field === "description")
        .map((flag: { lang: string }) => flag.lang)
        .sort(),
    ).toEqual(["en", "fr", "zh"]);
    const revisions = await database()
      .deps.db.select()
      .from(propertyRevisions)
      .where(eq(propertyRevisions.propertyId, GORDON.id));
    expect(revisions.find((r) => r.field === "description")).toMatchObject({
      lang: "it",
      newValue: ITALIAN_DESCRIPTION,
      actorRole: "owner",
      actor: GORDON.email,
    });
  });

  it("parses lists, objects and numbers, and refuses bad values with the field's message", async () => {
    const cookie = await claim(GORDON.email);
    const edit = (field: string, value: unknown, language = "en") =>
      call("POST", "/api/property-owners/update-property", {
        body: { field, value },
        cookie,
        headers: { "Accept-Language": language },
      });
    expect(
      dataOf(updateOwnerProperty, await edit("coordinates", "lat: 57.62\nlng: -3.09"), 200).value,
    ).toEqual({
      lat: 57.62,
      lng: -3.09,
    });
    expect(
      dataOf(
        updateOwnerProperty,
        await edit("price_range", ["min: 2,500", "max: 9000", "currency: gbp"]),
        200,
      ).value,
    ).toEqual({ min: 2500, max: 9000, currency: "GBP" });
    expect(dataOf(updateOwnerProperty, await edit("guest_capacity", "30"), 200).value).toBe(30);
    const services = await edit("services", ["Private chef", "", "- Daily housekeeping"]);
    expect(dataOf(updateOwnerProperty, services, 200).value).toEqual([
      "Private chef",
      "Daily housekeeping",
    ]);

    const badUrl = await edit("url", "javascript:alert(1)");
    expect(badUrl.status).toBe(400);
    expect(ValidationErrorSchema.parse(badUrl.body).errors).toEqual([
      { path: "value", message: stringMatching(/http/) },
    ]);
    const badLat = await edit("coordinates", "lat: 91\nlng: 0");
    expect(badLat.status).toBe(400);
    expect(ValidationErrorSchema.parse(badLat.body).errors![0]!.message).toMatch(/-90.*90/);
    const short = await edit("description", "Too short.", "fr");
    expect(short.status).toBe(400);
    expect(ValidationErrorSchema.parse(short.body).errors![0]!.message).toMatch(/80/);
    const unknown = await edit("owner_email", "me@example.com");
    expect(unknown.status).toBe(400);
    expect(ValidationErrorSchema.parse(unknown.body).errors![0]!.path).toBe("field");
    const [capacity] = await database()
      .deps.db.select({ n: properties.guestCapacity })
      .from(properties)
      .where(eq(properties.id, GORDON.id));
    expect(capacity?.n).toBe(30);
  });

  it("sets the public gallery to the chosen images in the chosen order", async () => {
    const cookie = await claim(GORDON.email);
    const details = await call("GET", "/api/property-owners/property-details", { cookie });
    const keys: string[] = dataOf(getOwnerProperty, details, 200).gallery.map(
      (image: { key: string }) => image.key,
    );
    const chosen = [keys[3]!, keys[0]!, keys[5]!];
    const saved = await call("POST", "/api/property-owners/update-images", {
      body: { selectedImages: chosen },
      cookie,
    });
    expect(saved.status).toBe(200);
    const publicProperty = await call("GET", `/api/castles/${GORDON.id}`);
    expect(dataOf(getCastle, publicProperty, 200).images).toEqual(
      chosen.map((key) => `/media/${encodeURIComponent(key)}/800.jpg`),
    );
    const foreign = await call("POST", "/api/property-owners/update-images", {
      body: { selectedImages: [...chosen, "padua-1-0000000000"] },
      cookie,
    });
    expect(foreign.status).toBe(400);
    expect(
      dataOf(getCastle, await call("GET", `/api/castles/${GORDON.id}`), 200).images,
    ).toHaveLength(3);
  });

  it("limits code requests per email, and says when to try again", async () => {
    const email = "limits@rate-limited-estate.example";
    await database()
      .deps.db.update(properties)
      .set({ ownerEmail: email })
      .where(eq(properties.id, 4));
    const statuses = [];
    for (let i = 0; i <= OWNER_CODES_PER_EMAIL; i++)
      statuses.push(
        (await call("POST", "/api/property-owners/verify-email", { body: { email } })).status,
      );
    expect(statuses.filter((status) => status === 200)).toHaveLength(OWNER_CODES_PER_EMAIL);
    expect(statuses.at(-1)).toBe(429);
    const refused = await call("POST", "/api/property-owners/verify-email", { body: { email } });
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(ErrorSchema.parse(refused.body).message).toMatch(/minute/);
  });

  it("sends no code when the limiter's counters cannot be reached: it never fails open", async () => {
    const { Redis } = await import("ioredis");
    const { createRedisRateLimitStore } = await import("#domain/rate-limit/rate-limiter.ts");
    const { requestOwnerCode } = await import("#domain/owners/verification.ts");
    const redis = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on("error", () => {});
    expectErrorLog(/owner code limiter unavailable/);
    const before = smtp.to(GORDON.email).length;
    const codesBefore = await database()
      .deps.db.select({ id: ownerCodes.id })
      .from(ownerCodes)
      .where(eq(ownerCodes.email, GORDON.email));
    const result = await requestOwnerCode(
      database().deps,
      { store: createRedisRateLimitStore(redis), perEmail: 5, perIp: 20, windowMs: 60_000 },
      { email: GORDON.email, language: "en" },
    );
    expect(result).toEqual({ outcome: "unavailable" });
    redis.disconnect();
    const after = await database()
      .deps.db.select({ id: ownerCodes.id })
      .from(ownerCodes)
      .where(eq(ownerCodes.email, GORDON.email));
    expect(after).toEqual(codesBefore);
    expect(smtp.to(GORDON.email).length).toBe(before);
  });

  it("limits code requests per IP across many addresses (no sweeping)", async () => {
    const { createMemoryRateLimitStore } = await import("#domain/rate-limit/rate-limiter.ts");
    const { requestOwnerCode } = await import("#domain/owners/verification.ts");
    const limits = { store: createMemoryRateLimitStore(), perEmail: 5, perIp: 3, windowMs: 60_000 };
    const outcomes = [];
    for (let i = 0; i < 4; i++)
      outcomes.push(
        (
          await requestOwnerCode(database().deps, limits, {
            email: `nobody-${i}@example.com`,
            ip: "203.0.113.9",
            language: "en",
          })
        ).outcome,
      );
    expect(outcomes).toEqual(["not_found", "not_found", "not_found", "rate_limited"]);
  });

  it("an email with two estates picks one to claim, and reaches only what it claimed", async () => {
    const deps = database().deps;
    const email = "family-office@two-estates.example";
    await deps.db
      .update(properties)
      .set({ ownerEmail: email })
      .where(sql`${properties.id} in (7, 8)`);
    const before = smtp.to(email).length;
    await call("POST", "/api/property-owners/verify-email", { body: { email } });
    await expect.poll(() => smtp.to(email).length, { timeout: 10_000 }).toBe(before + 1);
    const proven = await call("POST", "/api/property-owners/verify-code", {
      body: { email, code: lastCode(smtp, email) },
    });
    expect(
      dataOf(verifyOwnerCode, proven, 200).properties.map((estate: { id: number }) => estate.id),
    ).toEqual([7, 8]);
    const proof = proofCookieOf(proven);
    // Which one is not guessed: without a choice the claim is refused and the proof kept.
    const unnamed = await call("POST", "/api/property-owners/claim-property", {
      body: { email },
      cookie: proof,
    });
    expect(unnamed.status).toBe(403);
    const foreign = await call("POST", "/api/property-owners/claim-property", {
      body: { email, propertyId: GORDON.id },
      cookie: proof,
    });
    expect(foreign.status).toBe(403);
    const claimed = await call("POST", "/api/property-owners/claim-property", {
      body: { email, propertyId: 8 },
      cookie: proof,
    });
    expect(claimed.status).toBe(200);
    expect(dataOf(claimProperty, claimed, 200).property.id).toBe(8);
    const cookie = sessionOf(claimed);
    const details = await call("GET", "/api/property-owners/property-details", { cookie });
    expect(dataOf(getOwnerProperty, details, 200).id).toBe(8);
    expect(
      dataOf(getOwnerProperty, details, 200).estates.map((estate: { id: number }) => estate.id),
    ).toEqual([8]);
    const other = await call("GET", "/api/property-owners/property-details?propertyId=7", {
      cookie,
    });
    expect(other.status).toBe(403);
    // Claiming the second one later adds it to the same email's estates.
    const second = await claim(email, 7);
    const both = await call("GET", "/api/property-owners/property-details?propertyId=7", {
      cookie: second,
    });
    expect(
      dataOf(getOwnerProperty, both, 200).estates.map((estate: { id: number }) => estate.id),
    ).toEqual([7, 8]);
    // Staff give estate 8 another owner: this email loses it at once.
    await deps.db
      .update(properties)
      .set({ ownerEmail: "new-owner@example.com" })
      .where(eq(properties.id, 8));
    const lost = await call("GET", "/api/property-owners/property-details?propertyId=8", {
      cookie: second,
    });
    expect(lost.status).toBe(403);
  });

  it("logs an owner out", async () => {
    const cookie = await claim(GORDON.email);
    const out = await call("POST", "/api/property-owners/logout", { cookie });
    expect(out.status).toBe(200);
    const after = await call("GET", "/api/property-owners/property-details", { cookie });
    expect(after.status).toBe(401);
  });

  it("authorisation matrix: each kind of caller on each owner call", async () => {
    const deps = database().deps;
    const own = await claim(GORDON.email);
    // An owner of another estate (claimed the same way).
    const padua = await deps.db
      .select({ email: properties.ownerEmail })
      .from(properties)
      .where(eq(properties.slug, "padua"));
    const paduaEmail = padua[0]!.email;
    const other = await claim(paduaEmail);
    // An owner whose code expired before proving it: never got a session.
    const expiredEmail = "estate@expired-owner.example";
    await deps.db.update(properties).set({ ownerEmail: expiredEmail }).where(eq(properties.id, 2));
    await call("POST", "/api/property-owners/verify-email", { body: { email: expiredEmail } });
    await expect.poll(() => smtp.to(expiredEmail).length, { timeout: 10_000 }).toBe(1);
    await deps.db
      .update(ownerCodes)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(ownerCodes.email, expiredEmail));
    const expiredProof = await call("POST", "/api/property-owners/verify-code", {
      body: { email: expiredEmail, code: lastCode(smtp, expiredEmail) },
    });
    expect(expiredProof.status).toBe(410);
    const expiredClaim = await call("POST", "/api/property-owners/claim-property", {
      body: { email: expiredEmail },
    });
    expect(expiredClaim.status).toBe(403);
    // A session for an email that never claimed anything (e.g. forged in the database).
    const unclaimed = await createSession(deps, { role: "owner", ownerEmail: expiredEmail }, {});
    const admin = await signIn(server().url, "admin@castellum.test");
    const clerk = await signIn(server().url, "clerk@castellum.test");
    const callers: Record<string, string | undefined> = {
      anonymous: undefined,
      owner: own,
      otherOwner: other,
      expiredOwner: `castellum_session=${unclaimed.token}`,
      clerk,
      admin,
    };
    const gordon = `propertyId=${GORDON.id}`;
    const calls = [
      { method: "GET", path: `/api/property-owners/property-details?${gordon}` },
      // The estate's requests, as the dashboard's Requests tab reads them.
      { method: "GET", path: `/api/property-owners/requests?${gordon}` },
      {
        method: "POST",
        path: "/api/property-owners/update-property",
        body: { propertyId: GORDON.id, field: "city", value: "Fochabers" },
      },
      {
        method: "POST",
        path: "/api/property-owners/update-images",
        body: { propertyId: GORDON.id, selectedImages: [] },
      },
    ];
    const expected: Record<string, number> = {
      anonymous: 401,
      owner: 200,
      otherOwner: 403,
      expiredOwner: 403,
      clerk: 403,
      admin: 200,
    };
    for (const spec of calls)
      for (const [who, cookie] of Object.entries(callers)) {
        // A different city per caller, so every allowed edit is a change that is recorded.
        const body =
          spec.body && "field" in spec.body
            ? { ...spec.body, value: `Fochabers ${who}` }
            : spec.body;
        const answer = await call(spec.method, spec.path, { cookie, body });
        expect({ who, path: spec.path, status: answer.status }).toEqual({
          who,
          path: spec.path,
          status: expected[who],
        });
      }
    // Without a claimed estate there is nothing to open.
    expect(
      (
        await call("GET", "/api/property-owners/property-details", {
          cookie: callers.expiredOwner,
        })
      ).status,
    ).toBe(404);
    // Staff must name the estate; an owner's session never opens the staff API.
    expect(
      (await call("GET", "/api/property-owners/property-details", { cookie: admin })).status,
    ).toBe(404);
    expect((await call("GET", "/api/admin/overview", { cookie: own })).status).toBe(401);
    // The staff admin's change is recorded as staff's.
    const [byStaff] = await deps.db
      .select()
      .from(propertyFieldEdits)
      .where(eq(propertyFieldEdits.field, "city"));
    expect(byStaff).toMatchObject({ editedByRole: "staff", editedBy: "admin@castellum.test" });
    const [city] = await deps.db
      .select({ city: properties.city })
      .from(properties)
      .where(eq(properties.id, GORDON.id));
    expect(city?.city).toBe("Fochabers admin");
  });

  it("fuzz: generated fields and values never cause a 5xx, and refused values store nothing", async () => {
    const cookie = await claim(GORDON.email);
    const deps = database().deps;
    const snapshot = async () => {
      const [row] = await deps.db.select().from(properties).where(eq(properties.id, GORDON.id));
      const texts = await deps.db
        .select()
        .from(propertyTranslations)
        .where(eq(propertyTranslations.propertyId, GORDON.id));
      return JSON.stringify({ ...row, updatedAt: null, texts });
    };
    const hostile = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom(
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "javascript:alert(1)",
        "lat: 1e400\nlng: 0",
        "amount: -5\ncurrency: EUR",
        "\u0000\u0007",
        "x".repeat(25_000),
      ),
      fc.array(fc.string({ maxLength: 150 }), { maxLength: 120 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })),
    );
    const field = fc.oneof(
      fc.constantFrom(...EDITABLE_FIELDS),
      fc.constantFrom("owner_email", "id", "__proto__", "images", "scraped_at"),
      fc.string({ maxLength: 30 }),
    );
    await fc.assert(
      fc.asyncProperty(field, hostile, async (name, value) => {
        const before = await snapshot();
        const answer = await call("POST", "/api/property-owners/update-property", {
          body: { field: name, value, lang: "en" },
          cookie,
        });
        expect(answer.status).toBeLessThan(500);
        expect([200, 400]).toContain(answer.status);
        if (answer.status === 400) {
          expect(typeof ErrorSchema.parse(answer.body).message).toBe("string");
          expect(ValidationErrorSchema.parse(answer.body).errors![0]!.message).not.toMatch(
            /^owner\.errors\./,
          );
          expect(await snapshot()).toBe(before);
        }
      }),
      { numRuns: 120, seed: 10 },
    );
  });

  it("stores script text as text and the public page renders it escaped", async () => {
    const cookie = await claim(GORDON.email);
    const script =
      "<script>window.hacked=1</script> A castle of twelve bedrooms on the Spey, with gardens, a lake and salmon beats for anglers of every level.";
    const saved = await call("POST", "/api/property-owners/update-property", {
      body: { field: "description", value: script, lang: "en" },
      cookie,
    });
    expect(saved.status).toBe(200);
    const api = await call("GET", `/api/castles/${GORDON.id}?lang=en`);
    expect(dataOf(getCastle, api, 200).summary).toBe(script);
  });
});
