import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { ownerRequestViews, properties, propertyClaims } from "#db/schema/index.ts";
import { createSession } from "#domain/auth/sessions.ts";
import {
  giveOwnerViewOperation,
  listOwnerRequestsOperation,
} from "#domain/owners/owner-requests.contract.ts";
import { COLLECTION_OPERATIONS, STAY_OPERATIONS } from "#domain/staff/inbox.contract.ts";
import { dataOf } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import {
  decodeMail,
  isoDate,
  serveIntake,
  submitGuestForm,
  TestSmtpServer,
  validBookingRequest,
  validPropertyBooking,
} from "#tests/setup/intake.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";

const BOOKINGS = COLLECTION_OPERATIONS.property_booking;

/** The guest's contact details and surname, which no owner answer or mail may carry. */
const HIDDEN = ["ikb@example.com", "+44 117", "ada@example.com", "+44 20 7946"];

describeEachBackend("the owner in the loop", (database) => {
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
    options: { cookie?: string; body?: unknown; language?: string } = {},
  ) =>
    staffCall(server().url, method, path, {
      cookie: options.cookie,
      body: options.body,
      headers: { "Accept-Language": options.language ?? "en", Origin: server().url },
    });

  let admin = "";
  // Two estates of the demo catalogue, each with an owner of its own (by a fresh email).
  let estateA = 0;
  let estateB = 0;
  const ownerA = `owner-a-${randomUUID().slice(0, 8)}@example.com`;
  const ownerB = `owner-b-${randomUUID().slice(0, 8)}@example.com`;
  let cookieA = "";
  let cookieB = "";

  /** The last 6-digit code mailed to `email`. */
  function lastCode(email: string): string {
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
  const cookieOf = (headers: Headers, name: string) =>
    headers
      .getSetCookie()
      .find((header) => header.startsWith(`${name}=`))!
      .split(";")[0]!;

  /** The real flow, in `language`: verify, prove the code, claim; the session cookie. */
  async function claim(email: string, language: string): Promise<string> {
    const before = smtp.to(email).length;
    const verify = await call("POST", "/api/property-owners/verify-email", {
      body: { email },
      language,
    });
    expect(verify.status).toBe(200);
    // Polled with vi.waitFor: this runs in beforeAll, where expect.poll may not.
    await vi.waitFor(
      () => {
        if (smtp.to(email).length <= before) throw new Error(`no code mailed to ${email} yet`);
      },
      { timeout: 10_000, interval: 50 },
    );
    const proven = await call("POST", "/api/property-owners/verify-code", {
      body: { email, code: lastCode(email) },
      language,
    });
    expect(proven.status).toBe(200);
    const claimed = await staffCall(server().url, "POST", "/api/property-owners/claim-property", {
      body: { email },
      cookie: cookieOf(proven.headers, "castellum_owner_proof"),
      headers: { "Accept-Language": language, Origin: server().url },
    });
    expect(claimed.status).toBe(200);
    return cookieOf(claimed.headers, "castellum_session");
  }

  beforeAll(async () => {
    const deps = database().deps;
    await createTestStaff(deps, "loop-admin@castellum.test", { isAdmin: true });
    admin = await signIn(server().url, "loop-admin@castellum.test");
    const rows = await deps.db
      .select({ id: properties.id })
      .from(properties)
      .orderBy(properties.id);
    estateA = rows.at(-1)!.id;
    estateB = rows.at(-2)!.id;
    await deps.db.update(properties).set({ ownerEmail: ownerA }).where(eq(properties.id, estateA));
    await deps.db.update(properties).set({ ownerEmail: ownerB }).where(eq(properties.id, estateB));
    // Owner A claims in Italian, the language of their mails from then on.
    cookieA = await claim(ownerA, "it");
    // Owner B's claim is written directly (the flow is owners.test.ts's subject).
    await deps.db.insert(propertyClaims).values({ propertyId: estateB, email: ownerB });
    const session = await createSession(deps, { role: "owner", ownerEmail: ownerB }, {});
    cookieB = `castellum_session=${session.token}`;
  });

  const listFor = async (cookie: string, propertyId?: number, language = "en") =>
    dataOf(
      listOwnerRequestsOperation,
      await call(
        "GET",
        `/api/property-owners/requests${propertyId ? `?propertyId=${propertyId}` : ""}`,
        { cookie, language },
      ),
      200,
    );

  /** A property booking of estate A on [start, end), as a guest sends it in English. */
  const bookA = (start: number, end: number) =>
    submitGuestForm(
      server().url,
      "/bookings",
      validPropertyBooking({
        propertyId: estateA,
        dateMode: "exact",
        startDate: isoDate(start),
        endDate: isoDate(end),
      }),
    );

  it("mails the owner in the language they last used, with the dashboard link and no guest contact", async () => {
    const booking = await bookA(100, 104);
    await expect
      .poll(
        () => smtp.to(ownerA).filter((mail) => decodeMail(mail.raw).includes(booking.reference)),
        { timeout: 10_000 },
      )
      .toHaveLength(1);
    const mail = decodeMail(
      smtp.to(ownerA).find((each) => decodeMail(each.raw).includes(booking.reference))!.raw,
    );
    expect(mail).toContain("Un ospite desidera soggiornare");
    expect(mail).toContain("Isambard");
    expect(mail).toContain("4 notti");
    expect(mail).toContain(`/admin/dashboard?estate=${estateA}&tab=requests&lang=it`);
    for (const hidden of [...HIDDEN, "Brunel"]) expect(mail).not.toContain(hidden);
    // The other estate's owner hears nothing of it.
    expect(
      smtp
        .to(ownerB)
        .map((each) => decodeMail(each.raw))
        .join(),
    ).not.toContain(booking.reference);

    // A general request staff assign to the estate: mailed then, once.
    const general = await submitGuestForm(
      server().url,
      "/booking-requests",
      validBookingRequest({ checkInDate: isoDate(120), checkOutDate: isoDate(123) }),
    );
    const assign = () =>
      call("PUT", `/api/booking-requests/${general.id}/stay`, {
        cookie: admin,
        body: { propertyId: estateA, start: isoDate(120), end: isoDate(123) },
      });
    dataOf(STAY_OPERATIONS.booking_request, await assign(), 200);
    await expect
      .poll(
        () => smtp.to(ownerA).filter((each) => decodeMail(each.raw).includes(general.reference)),
        { timeout: 10_000 },
      )
      .toHaveLength(1);
    const assigned = decodeMail(
      smtp.to(ownerA).find((each) => decodeMail(each.raw).includes(general.reference))!.raw,
    );
    expect(assigned).toContain("Ada");
    expect(assigned).toContain("Regno Unito");
    for (const hidden of [...HIDDEN, "Lovelace"]) expect(assigned).not.toContain(hidden);
    // Setting other nights on the same estate is no new request for it: no second mail.
    await call("PUT", `/api/booking-requests/${general.id}/stay`, {
      cookie: admin,
      body: { propertyId: estateA, start: isoDate(121), end: isoDate(123) },
    });
    const third = await bookA(200, 201);
    await expect
      .poll(() => smtp.to(ownerA).some((each) => decodeMail(each.raw).includes(third.reference)), {
        timeout: 10_000,
      })
      .toBe(true);
    expect(
      smtp.to(ownerA).filter((each) => decodeMail(each.raw).includes(general.reference)),
    ).toHaveLength(1);
  });

  it("lists the estate's requests with dates, party, first name, country and free nights, and no contact details", async () => {
    const pending = await bookA(140, 145);
    const overlapping = await bookA(143, 147);
    const general = await submitGuestForm(
      server().url,
      "/booking-requests",
      validBookingRequest({ checkInDate: isoDate(150), checkOutDate: isoDate(152) }),
    );
    await call("PUT", `/api/booking-requests/${general.id}/stay`, {
      cookie: admin,
      body: { propertyId: estateA, start: isoDate(150), end: isoDate(152) },
    });
    // Another estate's request never shows on A's list.
    const elsewhere = await submitGuestForm(
      server().url,
      "/bookings",
      validPropertyBooking({ propertyId: estateB, dateMode: "exact" }),
    );

    const before = await listFor(cookieA, estateA, "it");
    const byRef = (list: typeof before, reference: string) =>
      list.requests.find((request) => request.reference === reference);
    expect(before.propertyId).toBe(estateA);
    expect(byRef(before, elsewhere.reference)).toBeUndefined();
    expect(byRef(before, pending.reference)).toMatchObject({
      collection: "bookings",
      status: "New",
      stayStart: isoDate(140),
      stayEnd: isoDate(145),
      guests: 8,
      firstName: "Isambard",
      lastName: null,
      nights: "free",
      canGiveView: true,
      view: null,
    });
    expect(byRef(before, general.reference)).toMatchObject({
      collection: "booking-requests",
      firstName: "Ada",
      lastName: null,
      countryCode: "GB",
      country: "Regno Unito",
      guests: 12,
      nights: "free",
    });

    // Staff confirm the overlapping booking: it holds its nights, the first one's are taken.
    dataOf(
      BOOKINGS.updateStatus,
      await call("PATCH", `/api/bookings/${overlapping.id}`, {
        cookie: admin,
        body: { status: "Confirmed" },
      }),
      200,
    );
    const after = await call("GET", `/api/property-owners/requests?propertyId=${estateA}`, {
      cookie: cookieA,
    });
    const list = dataOf(listOwnerRequestsOperation, after, 200);
    expect(byRef(list, pending.reference)).toMatchObject({ nights: "taken", canGiveView: true });
    // Once confirmed the owner learns the surname (decision 0017), still no contact.
    expect(byRef(list, overlapping.reference)).toMatchObject({
      status: "Confirmed",
      nights: "held",
      lastName: "Brunel",
      canGiveView: false,
    });
    expect(after.headers.get("cache-control")).toContain("no-store");
    for (const hidden of HIDDEN) expect(after.text).not.toContain(hidden);
    expect(after.text).not.toContain("Lovelace");
    expect(after.text).not.toContain("wedding weekend for our two families");
  });

  it("records each view the owner gives; staff see the latest in the inbox and all in the details", async () => {
    const booking = await bookA(160, 163);
    const view = (body: unknown, cookie = cookieA, collection = "bookings", id = booking.id) =>
      call("POST", `/api/property-owners/requests/${collection}/${id}/view`, { cookie, body });

    const declined = dataOf(
      giveOwnerViewOperation,
      await view({ agree: false, note: "  Family at the castle that week  " }),
      201,
    );
    expect(declined).toMatchObject({
      agree: false,
      note: "Family at the castle that week",
      givenBy: "owner",
      givenByEmail: ownerA,
    });
    dataOf(giveOwnerViewOperation, await view({ agree: true }), 201);

    // The owner's list shows the latest.
    const mine = await listFor(cookieA, estateA);
    expect(mine.requests.find((request) => request.id === booking.id)?.view).toMatchObject({
      agree: true,
      note: null,
    });
    // Staff: the inbox row carries the latest view, the details every view in order.
    const inbox = dataOf(
      BOOKINGS.list,
      await call("GET", `/api/bookings?q=${booking.reference}`, { cookie: admin }),
      200,
    );
    expect(inbox.find((item) => item.id === booking.id)?.ownerView).toMatchObject({
      agree: true,
    });
    const details = dataOf(
      BOOKINGS.get,
      await call("GET", `/api/bookings/${booking.id}`, { cookie: admin }),
      200,
    );
    expect(details.ownerView?.agree).toBe(true);
    expect(details.ownerViews.map((each) => [each.agree, each.note])).toEqual([
      [false, "Family at the castle that week"],
      [true, null],
    ]);

    // Refusals: a body that is not a view, a note too long, a decided request.
    expect((await view({ agree: "yes" })).status).toBe(400);
    expect((await view({ agree: true, note: "x".repeat(1001) })).status).toBe(400);
    expect((await view({ agree: true, extra: 1 })).status).toBe(400);
    expect((await view({ agree: true }, cookieA, "memberships")).status).toBe(404);
    expect((await view({ agree: true }, cookieA, "bookings", "not-a-uuid")).status).toBe(404);
    expect((await view({ agree: true }, cookieA, "booking-requests")).status).toBe(404);
    dataOf(
      BOOKINGS.updateStatus,
      await call("PATCH", `/api/bookings/${booking.id}`, {
        cookie: admin,
        body: { status: "Rejected", reason: "The owner declined" },
      }),
      200,
    );
    const closed = await view({ agree: true });
    expect(closed.status).toBe(409);
    expect((closed.body as { message: string }).message).toContain("Rejected");
    const stored = await database()
      .deps.db.select()
      .from(ownerRequestViews)
      .where(eq(ownerRequestViews.requestId, booking.id));
    expect(stored).toHaveLength(2);
  });

  it("authorisation: an owner sees and answers only requests of the estates they claimed", async () => {
    const booking = await bookA(170, 172);
    const general = await submitGuestForm(
      server().url,
      "/booking-requests",
      validBookingRequest({ checkInDate: isoDate(175), checkOutDate: isoDate(177) }),
    );
    await call("PUT", `/api/booking-requests/${general.id}/stay`, {
      cookie: admin,
      body: { propertyId: estateA, start: isoDate(175), end: isoDate(177) },
    });
    const clerk = await (async () => {
      await createTestStaff(database().deps, "loop-clerk@castellum.test", { isAdmin: false });
      return signIn(server().url, "loop-clerk@castellum.test");
    })();
    const listA = `/api/property-owners/requests?propertyId=${estateA}`;
    const listStatus: Record<string, [string | undefined, number]> = {
      anonymous: [undefined, 401],
      owner: [cookieA, 200],
      otherOwner: [cookieB, 403],
      clerk: [clerk, 403],
      admin: [admin, 200],
    };
    for (const [who, [cookie, status]] of Object.entries(listStatus))
      expect({ who, status: (await call("GET", listA, { cookie })).status }).toEqual({
        who,
        status,
      });
    // Owner B without naming an estate gets their own, where A's requests are not.
    const ownList = await listFor(cookieB);
    expect(ownList.propertyId).toBe(estateB);
    expect(ownList.requests.map((request) => request.id)).not.toContain(booking.id);
    expect(ownList.requests.map((request) => request.id)).not.toContain(general.id);

    // Giving a view on A's requests: B is told there is no such request, and nothing is kept.
    for (const [collection, id] of [
      ["bookings", booking.id],
      ["booking-requests", general.id],
    ] as const) {
      const path = `/api/property-owners/requests/${collection}/${id}/view`;
      const answers = {
        anonymous: (await call("POST", path, { body: { agree: true } })).status,
        otherOwner: (await call("POST", path, { cookie: cookieB, body: { agree: false } })).status,
        otherOwnerNamingA: (
          await call("POST", `${path}?propertyId=${estateA}`, {
            cookie: cookieB,
            body: { agree: false },
          })
        ).status,
        clerk: (
          await call("POST", `${path}?propertyId=${estateA}`, {
            cookie: clerk,
            body: { agree: true },
          })
        ).status,
        owner: (await call("POST", path, { cookie: cookieA, body: { agree: true } })).status,
        admin: (
          await call("POST", `${path}?propertyId=${estateA}`, {
            cookie: admin,
            body: { agree: true, note: "Owner said yes on the phone" },
          })
        ).status,
      };
      expect({ collection, ...answers }).toEqual({
        collection,
        anonymous: 401,
        otherOwner: 404,
        otherOwnerNamingA: 403,
        clerk: 403,
        owner: 201,
        admin: 201,
      });
      const views = await database()
        .deps.db.select()
        .from(ownerRequestViews)
        .where(eq(ownerRequestViews.requestId, id));
      expect(views.map((each) => [each.actorRole, each.actorEmail])).toEqual([
        ["owner", ownerA],
        ["staff", "loop-admin@castellum.test"],
      ]);
    }
    // A view without an Origin from this site is refused before anything else.
    const crossOrigin = await staffCall(
      server().url,
      "POST",
      `/api/property-owners/requests/bookings/${booking.id}/view`,
      { cookie: cookieA, body: { agree: true }, headers: { Origin: "https://evil.example" } },
    );
    expect(crossOrigin.status).toBe(403);
  });
});
