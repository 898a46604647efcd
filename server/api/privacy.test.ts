import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import {
  domainEvents,
  guestRequestMessages,
  guestRequests,
  securityEvents,
} from "#db/schema/index.ts";
import { ValidationErrorSchema } from "#domain/api/operation.ts";
import { erasePersonalData, getPersonalData } from "#domain/privacy/privacy.contract.ts";
import { dataOf } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import {
  serveIntake,
  submitGuestForm,
  validBookingRequest,
  validPropertyBooking,
} from "#tests/setup/intake.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";

const GUEST = "Ottilie.Marchbanks@example.org";

describeEachBackend("erasing a guest's personal data on request", (database) => {
  const server = serveIntake(() => database().deps);
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    const deps = database().deps;
    await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
    await createTestStaff(deps, "clerk@castellum.test", { isAdmin: false });
    for (const email of ["admin@castellum.test", "clerk@castellum.test"])
      cookies[email] = await signIn(server().url, email);
  });

  const call = (who: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
    staffCall(server().url, "POST", "/api/admin/personal-data/erase", {
      cookie: who ? cookies[who] : undefined,
      body,
      headers,
    });

  it("counts first, then erases every request from the address; the references stay", async () => {
    const deps = database().deps;
    const general = await submitGuestForm(
      server().url,
      "/booking-requests",
      validBookingRequest({ email: GUEST, firstName: "Ottilie", lastName: "Marchbanks" }),
    );
    const booking = await submitGuestForm(
      server().url,
      "/bookings",
      validPropertyBooking({
        email: GUEST.toLowerCase(),
        firstName: "Ottilie",
        lastName: "Marchbanks",
      }),
    );
    const other = await submitGuestForm(
      server().url,
      "/bookings",
      validPropertyBooking({ email: "someone.else@example.org" }),
    );
    await deps.db.insert(guestRequestMessages).values({
      requestId: booking.id,
      author: "guest",
      body: "Ottilie here: we arrive late",
    });
    const reason = "The guest asked by mail on 28 November";

    const preview = dataOf(
      erasePersonalData,
      await call("admin@castellum.test", { email: GUEST.toUpperCase(), reason, dryRun: true }),
      200,
    );
    expect(preview).toMatchObject({ dryRun: true, requests: 2, messages: 1 });
    expect(preview.mails).toBeGreaterThanOrEqual(2);
    expect(preview.references.sort()).toEqual([general.reference, booking.reference].sort());
    // Nothing went yet.
    const [kept] = await deps.db
      .select({ email: guestRequests.email })
      .from(guestRequests)
      .where(eq(guestRequests.id, booking.id));
    expect(kept!.email).toBe(GUEST.toLowerCase());

    const done = dataOf(
      erasePersonalData,
      await call("admin@castellum.test", { email: GUEST, reason }),
      200,
    );
    expect(done).toMatchObject({ dryRun: false, requests: 2, messages: 1 });
    const rows = await deps.db
      .select({
        id: guestRequests.id,
        email: guestRequests.email,
        firstName: guestRequests.firstName,
        reference: guestRequests.reference,
        erasedAt: guestRequests.erasedAt,
      })
      .from(guestRequests);
    for (const id of [general.id, booking.id])
      expect(rows.find((row) => row.id === id)).toMatchObject({ email: "", firstName: "" });
    expect(rows.find((row) => row.id === other.id)).toMatchObject({
      email: "someone.else@example.org",
      erasedAt: null,
    });

    // Subscribers hear of it without a contact; the security log keeps who and why, not whom.
    const [event] = await deps.db
      .select({ data: domainEvents.data, contact: domainEvents.contact })
      .from(domainEvents)
      .where(eq(domainEvents.type, "guest.erased"));
    expect(event).toEqual({
      data: { references: done.references, requests: 2 },
      contact: null,
    });
    const [entry] = await deps.db
      .select({ actorEmail: securityEvents.actorEmail, data: securityEvents.data })
      .from(securityEvents)
      .where(eq(securityEvents.type, "personal_data.erased"));
    expect(entry).toMatchObject({
      actorEmail: "admin@castellum.test",
      data: { reason, requests: 2 },
    });
    const [leaks] = await deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(securityEvents)
      .where(sql`${securityEvents.data}::text ilike ${"%marchbanks%"}`);
    expect(leaks!.n).toBe(0);

    // Asked again: nothing left to erase.
    expect(
      dataOf(erasePersonalData, await call("admin@castellum.test", { email: GUEST, reason }), 200),
    ).toMatchObject({ requests: 0, messages: 0, mails: 0, references: [] });
  });

  it("shows an admin everything held about an address, and logs the look-up", async () => {
    const deps = database().deps;
    const email = "Hester.Pryce@example.org";
    const made = await submitGuestForm(
      server().url,
      "/bookings",
      validPropertyBooking({ email, firstName: "Hester", lastName: "Pryce" }),
    );
    await deps.db.insert(guestRequestMessages).values({
      requestId: made.id,
      author: "guest",
      body: "Hester: may we bring a cot?",
    });
    const look = (who: string | undefined, address: string) =>
      staffCall(
        server().url,
        "GET",
        `/api/admin/personal-data?email=${encodeURIComponent(address)}`,
        {
          cookie: who ? cookies[who] : undefined,
        },
      );
    const answer = await look("admin@castellum.test", email.toUpperCase());
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
    const report = dataOf(getPersonalData, answer, 200);
    expect(report.requests).toHaveLength(1);
    expect(report.requests[0]).toMatchObject({
      reference: made.reference,
      firstName: "Hester",
      lastName: "Pryce",
      // As the guest typed it: what is held, not a normalised form.
      email,
    });
    expect(report.messages.map((message) => message.body)).toEqual(["Hester: may we bring a cot?"]);
    // The confirmation mail is written by the mail job, soon after the request.
    let mails = report.mails;
    await expect
      .poll(async () => {
        mails = dataOf(getPersonalData, await look("admin@castellum.test", email), 200).mails;
        return mails.length;
      })
      .toBeGreaterThanOrEqual(1);
    expect(mails.every((mail) => mail.reference === made.reference)).toBe(true);
    expect(report.events.map((event) => event.type)).toContain("request.created");
    const [entry] = await deps.db
      .select({ data: securityEvents.data })
      .from(securityEvents)
      .where(eq(securityEvents.type, "personal_data.viewed"));
    expect(entry?.data).toMatchObject({ subject: email.toLowerCase(), requests: 1 });
    // An unknown address holds nothing; a clerk and a stranger are refused.
    expect(
      dataOf(getPersonalData, await look("admin@castellum.test", "nobody@example.org"), 200),
    ).toMatchObject({
      requests: [],
      messages: [],
      mails: [],
    });
    expect((await look("admin@castellum.test", "not-an-address")).status).toBe(400);
    expect((await look("clerk@castellum.test", email)).status).toBe(403);
    expect((await look(undefined, email)).status).toBe(401);
  });

  it("makes the guest's copy in their language, escaped and whole, and logs it as an export", async () => {
    const deps = database().deps;
    const email = "Aurore.Delacroix@example.org";
    const made = await submitGuestForm(
      server().url,
      "/bookings",
      validPropertyBooking({ email, firstName: "Aurore", lastName: "Delacroix" }),
      "fr",
    );
    await deps.db.insert(guestRequestMessages).values({
      requestId: made.id,
      author: "guest",
      body: "Nous arrivons tard <script>alert(1)</script>",
    });
    const copy = (who: string | undefined, query: string) =>
      staffCall(server().url, "GET", `/api/admin/personal-data/export.html?${query}`, {
        cookie: who ? cookies[who] : undefined,
      });

    // By default in the language the guest wrote in.
    const french = await copy("admin@castellum.test", `email=${encodeURIComponent(email)}`);
    expect(french.status).toBe(200);
    expect(french.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(french.headers.get("content-disposition")).toMatch(
      /^attachment; filename="personal-data-\d{4}-\d{2}-\d{2}\.html"$/,
    );
    expect(french.headers.get("cache-control")).toBe("private, no-store");
    expect(french.text).toContain('<html lang="fr">');
    expect(french.text).toContain("Vos données personnelles conservées par Castellum");
    expect(french.text).toContain(`Demande ${made.reference}`);
    expect(french.text).toContain("Aurore Delacroix");
    expect(french.text).toContain("privacy@castellum.test");
    // What the guest wrote is shown as text, never run.
    expect(french.text).toContain("Nous arrivons tard &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(french.text).not.toContain("<script>");

    // Or in the language the admin picks.
    const chinese = await copy(
      "admin@castellum.test",
      `email=${encodeURIComponent(email)}&language=zh`,
    );
    expect(chinese.text).toContain("Castellum 保存的您的个人资料");

    const entries = await deps.db
      .select({ actorEmail: securityEvents.actorEmail, data: securityEvents.data })
      .from(securityEvents)
      .where(eq(securityEvents.type, "personal_data.exported"));
    expect(entries.map((entry) => entry.data)).toEqual([
      { subject: email.toLowerCase(), requests: 1, language: "fr" },
      { subject: email.toLowerCase(), requests: 1, language: "zh" },
    ]);
    expect(entries.every((entry) => entry.actorEmail === "admin@castellum.test")).toBe(true);

    expect(
      (await copy("admin@castellum.test", `email=${encodeURIComponent(email)}&language=de`)).status,
    ).toBe(400);
    expect((await copy("clerk@castellum.test", `email=${encodeURIComponent(email)}`)).status).toBe(
      403,
    );
    expect((await copy(undefined, `email=${encodeURIComponent(email)}`)).status).toBe(401);
  });

  it("refuses a bad address or a missing reason in the admin's language, and anyone but an admin", async () => {
    const bad = await call(
      "admin@castellum.test",
      { email: "not-an-address", reason: "x" },
      { "Accept-Language": "fr" },
    );
    expect(bad.status).toBe(400);
    expect(ValidationErrorSchema.parse(bad.body).errors).toEqual([
      { path: "email", message: "Saisissez l'adresse e-mail du client." },
      {
        path: "reason",
        message: "Indiquez pourquoi les données sont effacées (3 caractères au moins).",
      },
    ]);
    expect((await call("clerk@castellum.test", { email: GUEST, reason: "asked" })).status).toBe(
      403,
    );
    expect((await call(undefined, { email: GUEST, reason: "asked" })).status).toBe(401);
  });
});
