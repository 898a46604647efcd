import { parse } from "csv-parse/sync";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guestRequests } from "#db/schema/index.ts";
import { setStaffDisabled } from "#domain/staff/accounts.ts";
import { ErrorSchema, ValidationErrorSchema } from "#domain/api/operation.ts";
import {
  COLLECTION_OPERATIONS,
  DUE_OPERATIONS,
  getInboxOverview,
} from "#domain/staff/inbox.contract.ts";
import { dataOf } from "#tests/setup/api.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import {
  decodeMail,
  serveIntake,
  submitGuestForm as submit,
  TestSmtpServer,
  validBookingRequest,
  validMembership,
  validPropertyBooking,
} from "#tests/setup/intake.ts";
import { createTestStaff, signIn, STAFF_PASSWORD, staffCall } from "#tests/setup/staff.ts";

describeEachBackend("the staff inbox API", (database) => {
  const smtp = new TestSmtpServer();
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());
  const server = serveIntake(
    () => database().deps,
    () => ({ SMTP_URL: smtp.url, MAIL_POLL_MS: 100 }),
  );
  const sent: Record<string, { id: string; reference: string }> = {};
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    const deps = database().deps;
    await createTestStaff(deps, "admin@castellum.test", {
      isAdmin: true,
      displayName: "Ada Admin",
    });
    await createTestStaff(deps, "second@castellum.test", { isAdmin: true });
    await createTestStaff(deps, "clerk@castellum.test", { isAdmin: false });
    await createTestStaff(deps, "boss@other.test", { isAdmin: true });
    await createTestStaff(deps, "gone@castellum.test", { isAdmin: true });
    const url = server().url;
    sent.french = await submit(
      url,
      "/booking-requests",
      validBookingRequest({
        email: "camille@example.fr",
        firstName: "Camille",
        lastName: "Dubois",
        phoneNumber: "+33 6 12 34 56 78",
        memberStatus: "platinum",
      }),
      "fr",
    );
    sent.english = await submit(
      url,
      "/booking-requests",
      validBookingRequest({
        email: "oliver@example.co.uk",
        firstName: "Oliver",
        lastName: "Twist",
        memberStatus: "silver",
      }),
    );
    sent.formula = await submit(
      url,
      "/booking-requests",
      validBookingRequest({
        email: "formula@example.com",
        firstName: '=HYPERLINK("http://evil")',
        // Unquoted, Excel with ';' as its list separator (fr, it) splits a formula out of it.
        lastName: "Ada;=cmd|' /C calc'!A0;x",
      }),
    );
    sent.property = await submit(
      url,
      "/bookings",
      validPropertyBooking({ email: "prop@example.com" }),
    );
    sent.membership = await submit(
      url,
      "/membership/apply",
      validMembership({ email: "member@example.com" }),
    );
    for (const email of [
      "admin@castellum.test",
      "second@castellum.test",
      "clerk@castellum.test",
      "boss@other.test",
      "gone@castellum.test",
    ])
      cookies[email] = await signIn(url, email);
    await setStaffDisabled(deps, "gone@castellum.test", true);
    // An owner's session (the owner area, signs owners in with the same layer).
    const { createSession } = await import("#domain/auth/sessions.ts");
    const owner = await createSession(deps, { role: "owner", ownerEmail: "owner@example.com" }, {});
    cookies["owner@example.com"] = `castellum_session=${owner.token}`;
    // A live session of another role, so the refusals below are for the role, not the cookie.
    const { resolveSession } = await import("#domain/auth/sessions.ts");
    expect((await resolveSession(deps, owner.token))?.role).toBe("owner");
  });

  const BOOKING_REQUESTS = COLLECTION_OPERATIONS.booking_request;
  const PROPERTY_BOOKINGS = COLLECTION_OPERATIONS.property_booking;
  const MEMBERSHIPS = COLLECTION_OPERATIONS.membership;
  const call = (method: string, path: string, options: Parameters<typeof staffCall>[3] = {}) =>
    staffCall(server().url, method, path, { cookie: cookies["admin@castellum.test"], ...options });

  it("lists each kind newest first with the total, and only admins at the company domain see it", async () => {
    const list = await call("GET", "/api/booking-requests");
    expect(list.status).toBe(200);
    expect(list.headers.get("x-total-count")).toBe("3");
    expect(dataOf(BOOKING_REQUESTS.list, list, 200).map((item) => item.reference)).toEqual([
      sent.formula!.reference,
      sent.english!.reference,
      sent.french!.reference,
    ]);
    const memberships = await call("GET", "/api/membership/applications");
    expect(dataOf(MEMBERSHIPS.list, memberships, 200).map((item) => item.email)).toEqual([
      "member@example.com",
    ]);
    const bookings = await call("GET", "/api/bookings");
    // Named by the server from the catalogue (validPropertyBooking books estate 1).
    expect(dataOf(PROPERTY_BOOKINGS.list, bookings, 200).map((item) => item.email)).toEqual([
      "prop@example.com",
    ]);
    expect(dataOf(PROPERTY_BOOKINGS.list, bookings, 200)[0]?.details.propertyName).toBe(
      DEMO_CATALOGUE.find((estate) => estate.id === 1)?.content.en.name,
    );
  });

  /** Every staff endpoint, called by every kind of caller: only the admin cell passes. */
  describe("authorisation matrix", () => {
    const endpoints = () =>
      [
        ["GET", "/api/booking-requests"],
        ["GET", "/api/bookings"],
        ["GET", "/api/membership/applications"],
        ["GET", "/api/booking-requests/export.csv"],
        ["GET", `/api/booking-requests/${sent.english!.id}`],
        ["PATCH", `/api/booking-requests/${sent.english!.id}`, { status: "Contacted" }],
        ["POST", `/api/booking-requests/${sent.english!.id}/notes`, { body: "Called back." }],
        [
          "PUT",
          `/api/booking-requests/${sent.english!.id}/due`,
          { dueAt: new Date(Date.now() + 5 * 86_400_000).toISOString() },
        ],
        ["GET", `/api/membership/applications/${sent.membership!.id}`],
        ["GET", `/api/booking-requests/${sent.english!.id}/messages`],
        ["POST", `/api/bookings/${sent.property!.id}/messages`, { body: "Your dates are free." }],
        ["GET", `/api/membership/applications/${sent.membership!.id}/messages`],
        ["GET", "/api/admin/overview"],
        ["GET", "/api/admin/mail"],
        ["POST", "/api/admin/language", { language: "en" }],
      ] as const;
    const callers = [
      ["anonymous", undefined, 401],
      ["property owner", "owner@example.com", 401],
      ["staff who is not an admin", "clerk@castellum.test", 403],
      ["admin of another domain", "boss@other.test", 403],
      ["disabled admin", "gone@castellum.test", 401],
    ] as const;

    for (const [who, email, expected] of callers)
      it(`refuses the ${who} everywhere with ${expected} and no data`, async () => {
        for (const [method, path, body] of endpoints()) {
          const answer = await staffCall(server().url, method, path, {
            cookie: email ? cookies[email] : undefined,
            body,
          });
          expect(answer.status, `${method} ${path}`).toBe(expected);
          expect(Object.keys(answer.body ?? {}), `${method} ${path}`).toEqual(["message", "code"]);
          expect(answer.text).not.toContain("@example");
        }
      });

    it("shows the admin of another domain the Access Denied text", async () => {
      const answer = await staffCall(server().url, "GET", "/api/booking-requests", {
        cookie: cookies["boss@other.test"],
      });
      expect(ErrorSchema.parse(answer.body).message).toBe(
        "Only company-domain email addresses are authorized to access admin features.",
      );
    });

    it("lets the admin through everywhere", async () => {
      for (const [method, path, body] of endpoints()) {
        const answer = await call(method, path, { body });
        expect(answer.status, `${method} ${path}`).toBeLessThan(300);
      }
    });
  });

  it("filters by status, searches by email fragment, phone digits, name and reference", async () => {
    const ids = async (query: string) =>
      dataOf(BOOKING_REQUESTS.list, await call("GET", `/api/booking-requests?${query}`), 200).map(
        (item) => item.id,
      );
    expect(await ids("q=camille%40example")).toEqual([sent.french!.id]);
    expect(await ids("q=612345")).toEqual([sent.french!.id]);
    expect(await ids("q=oliver%20twist")).toEqual([sent.english!.id]);
    expect(await ids(`q=${sent.french!.reference.toLowerCase()}`)).toEqual([sent.french!.id]);
    expect(await ids("memberStatus=platinum")).toEqual([sent.french!.id]);
    expect(await ids("q=%25")).toEqual([]);
    expect(await ids("status=Confirmed")).toEqual([]);
    expect(await ids("status=New&sort=oldest&limit=1")).toEqual([sent.french!.id]);
    // Up to the last day a timestamp holds is every request (it was a 500: year 10000).
    expect((await ids("to=9999-12-31")).sort()).toEqual((await ids("")).sort());
    expect((await call("GET", "/api/booking-requests/export.csv?to=9999-12-31")).status).toBe(200);
  });

  it("refuses bad filters with 400 and the field named, in the caller's language", async () => {
    const status = await call("GET", "/api/booking-requests?status=Accepted");
    expect(status.status).toBe(400);
    expect(ValidationErrorSchema.parse(status.body).errors).toEqual([
      { path: "status", message: "This status does not exist for this kind of request" },
    ]);
    const date = await call("GET", "/api/booking-requests?from=31-12-2026", {
      headers: { "Accept-Language": "fr" },
    });
    expect(date.status).toBe(400);
    expect(ValidationErrorSchema.parse(date.body).errors![0]!.path).toBe("from");
    for (const day of ["2026-02-30", "0000-01-01"])
      expect((await call("GET", `/api/booking-requests?from=${day}`)).status).toBe(400);
    const cursor = await call("GET", "/api/booking-requests?after=garbage");
    expect(cursor.status).toBe(400);
    expect(
      (await call("GET", "/api/booking-requests/00000000-0000-0000-0000-000000000000")).status,
    ).toBe(404);
    expect((await call("GET", "/api/booking-requests/not-a-uuid")).status).toBe(404);
    // A membership application is not found under the booking requests.
    expect((await call("GET", `/api/booking-requests/${sent.membership!.id}`)).status).toBe(404);
  });

  it("pages by keyset: a request arriving between two pages neither repeats nor shifts a row", async () => {
    const first = await call("GET", "/api/booking-requests?limit=2");
    expect(dataOf(BOOKING_REQUESTS.list, first, 200)).toHaveLength(2);
    const next = first.headers.get("link")?.match(/<([^>]+)>; rel="next"/)?.[1];
    expect(next).toMatch(/\/api\/booking-requests\?(.+&)?after=[^&]+/);
    const late = await submit(
      server().url,
      "/booking-requests",
      validBookingRequest({ email: "late@example.com" }),
    );
    const second = await call("GET", new URL(next!).pathname + new URL(next!).search);
    const seen = [
      ...dataOf(BOOKING_REQUESTS.list, first, 200),
      ...dataOf(BOOKING_REQUESTS.list, second, 200),
    ].map((item) => item.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain(late.id);
    expect(second.headers.get("link")).toBeNull();
    await database().deps.db.delete(guestRequests).where(eq(guestRequests.id, late.id));
  });

  it("needs a reason to reject, records the change, mails the guest in French and shows the shared reason on the status page", async () => {
    const path = `/api/booking-requests/${sent.french!.id}`;
    const before = await call("GET", path);
    const refused = await call("PATCH", path, {
      body: { status: "Rejected", version: dataOf(BOOKING_REQUESTS.get, before, 200).version },
    });
    expect(refused.status).toBe(400);
    expect(ValidationErrorSchema.parse(refused.body).errors).toEqual([
      { path: "reason", message: "Please give a reason for this decision" },
    ]);

    const changed = await call("PATCH", path, {
      body: {
        status: "Rejected",
        version: dataOf(BOOKING_REQUESTS.get, before, 200).version,
        reason: "Le château est complet à ces dates.",
        shareReason: true,
        notifyGuest: true,
      },
    });
    expect(changed.status).toBe(200);
    expect(dataOf(BOOKING_REQUESTS.updateStatus, changed, 200).status).toBe("Rejected");
    expect(dataOf(BOOKING_REQUESTS.updateStatus, changed, 200).version).toBe(
      dataOf(BOOKING_REQUESTS.get, before, 200).version + 1,
    );
    expect(dataOf(BOOKING_REQUESTS.updateStatus, changed, 200).history.at(-1)).toMatchObject({
      fromStatus: "New",
      toStatus: "Rejected",
      changedBy: "admin@castellum.test",
      reason: "Le château est complet à ces dates.",
      reasonShared: true,
    });

    await expect.poll(() => smtp.to("camille@example.fr").length, { timeout: 10_000 }).toBe(2);
    const mails = smtp.to("camille@example.fr").map((mail) => decodeMail(mail.raw));
    const notice = mails.find((text) => text.includes("Refusée") || text.includes("refusée"));
    expect(notice, mails.join("\n----\n")).toBeTruthy();
    expect(notice).toContain(sent.french!.reference);
    expect(notice).toContain("Le château est complet à ces dates.");

    // The confirmation mail's status link now shows the new status and the shared reason.
    const confirmation = mails.find((text) => /\/requests\/[A-Za-z0-9_-]{32}/.test(text))!;
    const token = confirmation.match(/\/requests\/([A-Za-z0-9_-]{32})/)![1]!;
    const { findRequestByStatusToken } = await import("#domain/requests/intake/request-status.ts");
    const view = await findRequestByStatusToken(database().deps, token);
    expect(view).toMatchObject({
      status: "Rejected",
      reason: "Le château est complet à ces dates.",
    });
  });

  it("keeps an unshared reason from the guest", async () => {
    const path = `/api/booking-requests/${sent.english!.id}`;
    const before = await call("GET", path);
    const changed = await call("PATCH", path, {
      body: {
        status: "Rejected",
        version: dataOf(BOOKING_REQUESTS.get, before, 200).version,
        reason: "Internal: duplicate",
        shareReason: false,
      },
    });
    expect(changed.status).toBe(200);
    const [row] = await database()
      .deps.db.select()
      .from(guestRequests)
      .where(eq(guestRequests.id, sent.english!.id));
    expect(row?.status).toBe("Rejected");
    const mails = smtp.to("oliver@example.co.uk").map((mail) => decodeMail(mail.raw));
    expect(mails.some((text) => text.includes("Internal: duplicate"))).toBe(false);
  });

  it("refuses a status of another kind's set", async () => {
    const answer = await call("PATCH", `/api/membership/applications/${sent.membership!.id}`, {
      body: { status: "Confirmed" },
    });
    expect(answer.status).toBe(400);
    expect(ValidationErrorSchema.parse(answer.body).errors).toEqual([
      { path: "status", message: "This status does not exist for this kind of request" },
    ]);
    const accepted = await call("PATCH", `/api/membership/applications/${sent.membership!.id}`, {
      body: { status: "Accepted" },
    });
    expect(accepted.status).toBe(200);
    expect(dataOf(MEMBERSHIPS.updateStatus, accepted, 200).status).toBe("Accepted");
  });

  it("gives the second of two simultaneous changes a conflict, not a silent overwrite", async () => {
    const path = `/api/bookings/${sent.property!.id}`;
    const { version } = dataOf(PROPERTY_BOOKINGS.get, await call("GET", path), 200);
    const [a, b] = await Promise.all([
      call("PATCH", path, { body: { status: "Contacted", version } }),
      staffCall(server().url, "PATCH", path, {
        cookie: cookies["second@castellum.test"],
        body: { status: "Confirmed", version },
      }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    const winner = a.status === 200 ? a : b;
    const conflict = dataOf(PROPERTY_BOOKINGS.updateStatus, loser, 409);
    const current = dataOf(PROPERTY_BOOKINGS.updateStatus, winner, 200);
    expect(conflict.message).toContain(current.status);
    expect("current" in conflict && conflict.current.status).toBe(current.status);
    const after = await call("GET", path);
    expect(
      dataOf(PROPERTY_BOOKINGS.get, after, 200).history.filter((h) => h.fromStatus !== null),
    ).toHaveLength(1);
  });

  it("keeps internal notes with their author", async () => {
    const path = `/api/membership/applications/${sent.membership!.id}`;
    const empty = await call("POST", `${path}/notes`, { body: { body: "   " } });
    expect(empty.status).toBe(400);
    const note = await call("POST", `${path}/notes`, { body: { body: "Met at the Venice gala." } });
    expect(note.status).toBe(201);
    const detail = await call("GET", path);
    expect(dataOf(MEMBERSHIPS.get, detail, 200).notes.at(-1)).toMatchObject({
      authorName: "Ada Admin",
      body: "Met at the Venice gala.",
    });
  });

  it("moves a request's due time, in the history, and refuses a past one with the field named", async () => {
    const path = `/api/booking-requests/${sent.formula!.id}`;
    const before = dataOf(COLLECTION_OPERATIONS.booking_request.get, await call("GET", path), 200);
    // Intake set it REQUEST_RESPONSE_HOURS (48) after arrival.
    expect(new Date(before.dueAt!).getTime() - new Date(before.createdAt).getTime()).toBe(
      48 * 3_600_000,
    );
    const dueAt = new Date(Date.now() + 4 * 86_400_000).toISOString();
    const moved = dataOf(
      DUE_OPERATIONS.booking_request,
      await call("PUT", `${path}/due`, { body: { dueAt, version: before.version } }),
      200,
    );
    expect(new Date(moved.dueAt!).toISOString()).toBe(dueAt);
    expect(moved.history.at(-1)).toMatchObject({
      event: "due",
      changedBy: "admin@castellum.test",
      dueAt,
    });
    const past = await call("PUT", `${path}/due`, {
      body: { dueAt: "2020-01-01T00:00:00Z" },
      headers: { "Accept-Language": "fr" },
    });
    expect(past.status).toBe(400);
    expect(ValidationErrorSchema.parse(past.body).errors).toEqual([
      { path: "dueAt", message: "Choisissez un moment dans le futur." },
    ]);
    const stale = await call("PUT", `${path}/due`, { body: { dueAt, version: before.version } });
    expect(stale.status).toBe(409);
  });

  it("refuses a change sent from another site", async () => {
    const answer = await call("PATCH", `/api/booking-requests/${sent.english!.id}`, {
      body: { status: "Contacted" },
      headers: { Origin: "https://evil.example" },
    });
    expect(answer.status).toBe(403);
  });

  it("exports the filter as CSV with formula cells made harmless", async () => {
    const answer = await call("GET", "/api/booking-requests/export.csv?status=New");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(answer.headers.get("content-disposition")).toMatch(/attachment/);
    const lines = answer.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    // Every cell is quoted, the header's too.
    expect(lines[0]).toMatch(/^"Reference","Status","Submitted",/);
    expect(lines).toHaveLength(2); // the header and the one request still New
    expect(lines[1]).toMatch(/^"[^"]/);
    const [header, row] = parse(answer.text, { bom: true }) as string[][];
    const cell = (name: string) => row![header!.indexOf(name)];
    expect(cell("Reference")).toBe(sent.formula!.reference);
    expect(cell("First name")).toBe(`'=HYPERLINK("http://evil")`);
    // The formula start after the separator is neutralised too, and the cell is quoted.
    expect(cell("Last name")).toBe("Ada;'=cmd|' /C calc'!A0;x");
    expect(lines[1]).toContain(`"Ada;'=cmd|' /C calc'!A0;x"`);
    // The filter is read before the first byte: a bad one is still a JSON 400, not a broken file.
    for (const query of ["status=Accepted", "from=31-12-2026", "sort=sideways"]) {
      const refused = await call("GET", `/api/booking-requests/export.csv?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.headers.get("content-type"), query).toMatch(/^application\/json/);
      expect(ValidationErrorSchema.parse(refused.body).errors![0]!.path, query).toBe(
        query.split("=")[0],
      );
    }
    const french = await call("GET", "/api/booking-requests/export.csv", {
      headers: { "Accept-Language": "fr" },
    });
    expect(french.text.split(/\r?\n/)[0]).not.toMatch(/^\uFEFF?Reference,/);
  });

  it("counts requests per week and those waiting over 48 hours", async () => {
    await database()
      .deps.db.update(guestRequests)
      .set({ createdAt: sql`now() - interval '3 days'` })
      .where(eq(guestRequests.id, sent.formula!.id));
    const answer = await call("GET", "/api/admin/overview");
    expect(answer.status).toBe(200);
    expect(dataOf(getInboxOverview, answer, 200).weeks).toHaveLength(12);
    expect(dataOf(getInboxOverview, answer, 200).waitingOver48h).toBe(1);
    const total = dataOf(getInboxOverview, answer, 200).weeks.reduce(
      (sum: number, week: { byStatus: Record<string, number> }) =>
        sum + Object.values(week.byStatus).reduce((a, b) => a + b, 0),
      0,
    );
    const [{ n }] = (await database()
      .deps.db.select({ n: sql<number>`count(*)::int` })
      .from(guestRequests)) as [{ n: number }];
    expect(total).toBe(n);
    expect(dataOf(getInboxOverview, answer, 200).counts.booking_request.total).toBe(3);
  });

  it("ends a disabled account's open sessions at once", async () => {
    const cookie = await signIn(server().url, "second@castellum.test");
    expect((await staffCall(server().url, "GET", "/api/admin/me", { cookie })).status).toBe(200);
    await setStaffDisabled(database().deps, "second@castellum.test", true);
    expect((await staffCall(server().url, "GET", "/api/booking-requests", { cookie })).status).toBe(
      401,
    );
    const again = await staffCall(server().url, "POST", "/api/admin/login", {
      body: { email: "second@castellum.test", password: STAFF_PASSWORD },
    });
    expect(again.status).toBe(401);
  });
});
