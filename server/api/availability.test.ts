import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { withTransaction } from "#db/client.ts";
import { calendarEntries, calendarFeeds, guestRequests } from "#db/schema/index.ts";
import { createSession } from "#domain/auth/sessions.ts";
import { availabilityWindow } from "#domain/calendar/availability.ts";
import { addDays, type Nights, toDateRange } from "#domain/calendar/nights.ts";
import { notifyCatalogueChanged } from "#domain/catalogue/catalogue-changes.ts";
import { getCastleAvailability } from "#domain/catalogue/catalogue.contract.ts";
import type { Database } from "#db/client.ts";
import { ErrorSchema, ValidationErrorSchema } from "#domain/api/operation.ts";
import { InvalidInputError } from "#domain/errors.ts";
import { addMonths, utcToday } from "#domain/requests/dates.ts";
import { formatDate } from "#domain/requests/summary.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { expectAnswer, readJson } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { serveIntake, solveBotCheck, validPropertyBooking } from "#tests/setup/intake.ts";
import { createTestStaff, signIn } from "#tests/setup/staff.ts";

const GORDON = demoEstate("gordon-castle");
const TUSCANY = demoEstate("tuscany");
/** A members-only estate: its availability is as public as its page. */
const AMALFI = demoEstate("amalfi-coast");

const TODAY = utcToday();
/** `n` days from today. */
const day = (n: number) => addDays(TODAY, n);

/** Writes one claim on an estate's nights, as the calendar's writers do. */
async function claim(
  db: Database,
  entry: {
    propertyId: number;
    nights: Nights;
    source: "stay" | "block" | "external";
    kind?: "owner_stay" | "maintenance" | "private_event" | "other";
    note?: string;
    requestId?: string;
    feedId?: string;
    summary?: string;
  },
) {
  await db.insert(calendarEntries).values({
    id: randomUUID(),
    propertyId: entry.propertyId,
    nights: toDateRange(entry.nights),
    source: entry.source,
    kind: entry.kind ?? null,
    note: entry.note ?? null,
    requestId: entry.requestId ?? null,
    feedId: entry.feedId ?? null,
    externalUid: entry.source === "external" ? randomUUID() : null,
    summary: entry.summary ?? null,
    createdBy: entry.source === "block" ? "staff:admin@castellum.test" : null,
  });
}

describe("the availability window", () => {
  it("defaults to a year from today and refuses a window out of order or over 18 months", () => {
    expect(availabilityWindow({}, "2027-01-31")).toEqual({ from: "2027-01-31", to: "2028-01-31" });
    expect(availabilityWindow({ from: "2027-05-01" }, "2027-01-31")).toEqual({
      from: "2027-05-01",
      to: "2028-05-01",
    });
    expect(availabilityWindow({ from: "2027-05-01", to: "2027-05-01" })).toEqual({
      from: "2027-05-01",
      to: "2027-05-01",
    });
    expect(availabilityWindow({ from: "2027-05-01", to: "2028-11-01" }).to).toBe("2028-11-01");
    expect(() => availabilityWindow({ from: "2027-05-01", to: "2028-11-02" })).toThrow(
      InvalidInputError,
    );
    expect(() => availabilityWindow({ from: "2027-05-02", to: "2027-05-01" })).toThrow(
      InvalidInputError,
    );
    // Only `to`, before today: `from` is today, after it.
    expect(() => availabilityWindow({ to: "2027-01-01" }, "2027-01-31")).toThrow(InvalidInputError);
  });
});

describeEachBackend("GET /api/castles/{idOrSlug}/availability", (database) => {
  const server = serveIntake(() => database().deps);
  const url = () => server().url;
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${url()}${path}`, { headers });
  const availabilityOf = async (path: string, headers: Record<string, string> = {}) =>
    expectAnswer(getCastleAvailability, await get(path, headers), 200);

  /** Private values the calendar holds that must never reach the public answer. */
  const PRIVATE = {
    guestFirst: "Wilhelmina",
    guestLast: "Fotheringay-Phipps",
    guestEmail: "wilhelmina@example.com",
    note: "Roof repairs by Grimsby & Sons",
    ownerNote: "Owner's anniversary dinner",
    feedSummary: "Airbnb guest John Doe",
  };
  let stayReference = "";
  let stayId = "";

  beforeAll(async () => {
    const { db } = database().deps;
    // A named guest's property booking, sent as a guest sends it, then confirmed: a stay.
    const token = await solveBotCheck(url());
    const sent = await fetch(`${url()}/api/bookings`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(
        validPropertyBooking({
          propertyId: GORDON.id,
          firstName: PRIVATE.guestFirst,
          lastName: PRIVATE.guestLast,
          email: PRIVATE.guestEmail,
          dateMode: "exact",
          startDate: day(13),
          endDate: day(15),
          turnstileToken: token,
        }),
      ),
    });
    expect(sent.status).toBe(201);
    ({ id: stayId, reference: stayReference } = (await sent.json()) as {
      id: string;
      reference: string;
    });
    await db.update(guestRequests).set({ status: "Confirmed" }).where(eq(guestRequests.id, stayId));

    const feedId = randomUUID();
    await db.insert(calendarFeeds).values({
      id: feedId,
      propertyId: GORDON.id,
      url: "https://calendar.example.com/gordon.ics",
      createdBy: "staff:admin@castellum.test",
    });
    // Block [10, 13) touches the stay [13, 15), which the imported busy time [14, 17)
    // overlaps: one range [10, 17). A second block [30, 32) stands apart.
    await claim(db, {
      propertyId: GORDON.id,
      nights: { start: day(10), end: day(13) },
      source: "block",
      kind: "maintenance",
      note: PRIVATE.note,
    });
    await claim(db, {
      propertyId: GORDON.id,
      nights: { start: day(13), end: day(15) },
      source: "stay",
      requestId: stayId,
    });
    await claim(db, {
      propertyId: GORDON.id,
      nights: { start: day(14), end: day(17) },
      source: "external",
      feedId,
      summary: PRIVATE.feedSummary,
    });
    await claim(db, {
      propertyId: GORDON.id,
      nights: { start: day(30), end: day(32) },
      source: "block",
      kind: "owner_stay",
      note: PRIVATE.ownerNote,
    });
    // Another estate's block is not Gordon's.
    await claim(db, {
      propertyId: TUSCANY.id,
      nights: { start: day(20), end: day(25) },
      source: "block",
      kind: "private_event",
    });
  });

  it("answers the taken nights merged and clipped to the window, by slug or by id", async () => {
    const query = `from=${day(11)}&to=${day(31)}`;
    const bySlug = await availabilityOf(`/api/castles/${GORDON.slug}/availability?${query}`);
    expect(bySlug).toEqual({
      propertyId: GORDON.id,
      from: day(11),
      to: day(31),
      unavailable: [
        { start: day(11), end: day(17) },
        { start: day(30), end: day(31) },
      ],
    });
    expect(await availabilityOf(`/api/castles/${GORDON.id}/availability?${query}`)).toEqual(bySlug);
    // The whole of each range, and nothing of another estate's.
    const wide = await availabilityOf(
      `/api/castles/${GORDON.slug}/availability?from=${day(0)}&to=${day(60)}`,
    );
    expect(wide.unavailable).toEqual([
      { start: day(10), end: day(17) },
      { start: day(30), end: day(32) },
    ]);
    // A window that ends where a range starts holds none of it.
    const before = await availabilityOf(
      `/api/castles/${GORDON.slug}/availability?from=${day(0)}&to=${day(10)}`,
    );
    expect(before.unavailable).toEqual([]);
    const tuscany = await availabilityOf(
      `/api/castles/${TUSCANY.slug}/availability?from=${day(0)}&to=${day(60)}`,
    );
    expect(tuscany.unavailable).toEqual([{ start: day(20), end: day(25) }]);
  });

  it("says nothing of who or what took the nights", async () => {
    const response = await get(
      `/api/castles/${GORDON.slug}/availability?from=${day(0)}&to=${day(60)}`,
    );
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ unavailable: [{}, {}] });
    for (const value of [
      ...Object.values(PRIVATE),
      stayReference,
      stayId,
      "maintenance",
      "owner_stay",
      "block",
      "external",
      "calendar.example.com",
      "staff:",
    ])
      expect(text, value).not.toContain(value);
    expect(Object.keys(JSON.parse(text) as object).sort()).toEqual([
      "from",
      "propertyId",
      "to",
      "unavailable",
    ]);
  });

  it("defaults to a year from today (UTC)", async () => {
    const answer = await availabilityOf(`/api/castles/${GORDON.slug}/availability`);
    expect(answer.from).toBe(TODAY);
    expect(answer.to).toBe(addMonths(TODAY, 12));
    expect(answer.unavailable[0]).toEqual({ start: day(10), end: day(17) });
    const fromOnly = await availabilityOf(
      `/api/castles/${GORDON.slug}/availability?from=${day(12)}`,
    );
    expect(fromOnly.to).toBe(addMonths(day(12), 12));
  });

  it("refuses a window out of order or over 18 months, and a date that is none, with 400", async () => {
    const base = `/api/castles/${GORDON.slug}/availability`;
    const eighteen = addMonths(day(0), 18);
    expect((await availabilityOf(`${base}?from=${day(0)}&to=${eighteen}`)).to).toBe(eighteen);
    const refusals: [string, string][] = [
      [`from=${day(5)}&to=${day(4)}`, "The window's start (from) cannot be after its end (to)"],
      [`from=${day(0)}&to=${addDays(eighteen, 1)}`, "At most 18 months can be asked for at once"],
      ["from=2027-02-30", "Invalid filter: from"],
      ["to=tomorrow", "Invalid filter: to"],
      ["lang=de", "Invalid filter: lang"],
    ];
    for (const [query, message] of refusals) {
      const answer = await get(`${base}?${query}`);
      expect(answer.status, query).toBe(400);
      expect(ErrorSchema.parse(await readJson(answer)).message, query).toBe(message);
    }
    const french = await get(`${base}?from=${day(0)}&to=${addMonths(day(0), 19)}&lang=fr`);
    expect(ErrorSchema.parse(await readJson(french)).message).toBe("Au plus 18 mois par demande");
  });

  it("answers 404 for no estate, and a members-only estate like any other", async () => {
    for (const path of [
      "/api/castles/999999/availability",
      "/api/castles/no-such-castle/availability",
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(ErrorSchema.parse(await readJson(answer)).message).toBe("Property not found");
    }
    const members = await availabilityOf(`/api/castles/${AMALFI.slug}/availability`);
    expect(members).toMatchObject({ propertyId: AMALFI.id, unavailable: [] });
  });

  it("gives every caller the same public answer: anonymous, staff, an owner", async () => {
    const { deps } = database();
    await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
    const staffCookie = await signIn(url(), "admin@castellum.test");
    const owner = await createSession(deps, { role: "owner", ownerEmail: GORDON.email }, {});
    const path = `/api/castles/${GORDON.slug}/availability?from=${day(0)}&to=${day(60)}`;
    const anonymous = await get(path);
    const expected = await expectAnswer(getCastleAvailability, anonymous, 200);
    for (const cookie of [staffCookie, `castellum_session=${owner.token}`]) {
      const answer = await get(path, { Cookie: cookie });
      expect(answer.headers.get("cache-control")).toBe("public, no-cache");
      // A signed-in request is neither answered from nor stored in the cache.
      expect(answer.headers.get("x-cache")).toBeNull();
      expect(await expectAnswer(getCastleAvailability, answer, 200)).toEqual(expected);
    }
  });

  it("is kept by the response cache and dropped when the estate's calendar changes", async () => {
    const { db } = database().deps;
    const path = `/api/castles/${GORDON.slug}/availability?from=${day(0)}&to=${day(120)}`;
    const first = await availabilityOf(path);
    const cached = await get(path);
    expect(cached.headers.get("x-cache")).toBe("HIT");
    expect(await expectAnswer(getCastleAvailability, cached, 200)).toEqual(first);
    const etag = cached.headers.get("etag") ?? "";
    expect((await get(path, { "If-None-Match": etag })).status).toBe(304);

    // Written without the announcement, a block stays unseen while the answer is kept: the
    // cache is what answers, and the announcement is what drops it.
    await claim(db, {
      propertyId: GORDON.id,
      nights: { start: day(90), end: day(92) },
      source: "block",
      kind: "other",
    });
    expect(await availabilityOf(path)).toEqual(first);

    // A writer's transaction: the block and the announcement commit together.
    await withTransaction(db, async (tx) => {
      await claim(tx, {
        propertyId: GORDON.id,
        nights: { start: day(100), end: day(103) },
        source: "block",
        kind: "maintenance",
      });
      await notifyCatalogueChanged({ db: tx }, { propertyIds: [GORDON.id] });
    });
    await expect
      .poll(async () => (await availabilityOf(path)).unavailable, { timeout: 2000, interval: 20 })
      .toEqual([
        ...first.unavailable,
        { start: day(90), end: day(92) },
        { start: day(100), end: day(103) },
      ]);
    const fresh = await get(path, { "If-None-Match": etag });
    expect(fresh.status).toBe(200);
  });
});

describeEachBackend("a property booking over taken nights", (database) => {
  const server = serveIntake(() => database().deps);
  /** Sends a property booking of Gordon Castle as the guest's browser does. */
  const book = async (fields: Record<string, unknown>, language = "en") => {
    const token = await solveBotCheck(server().url);
    const response = await fetch(`${server().url}/api/bookings`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": language },
      body: JSON.stringify(
        validPropertyBooking({ propertyId: GORDON.id, turnstileToken: token, ...fields }),
      ),
    });
    return { status: response.status, body: await readJson(response) };
  };
  const storedFor = (email: string) =>
    database()
      .deps.db.select({
        stayStart: guestRequests.stayStart,
        stayEnd: guestRequests.stayEnd,
      })
      .from(guestRequests)
      .where(eq(guestRequests.email, email));

  beforeAll(async () => {
    // The nights of days 50, 51 and 52 are taken.
    await claim(database().deps.db, {
      propertyId: GORDON.id,
      nights: { start: day(50), end: day(53) },
      source: "block",
      kind: "private_event",
      note: "A wedding",
    });
  });

  it("is refused on startDate, naming the first taken night in the guest's language", async () => {
    const cases = [
      // Exact dates running into the block: its first night.
      { dateMode: "exact", startDate: day(48), endDate: day(51), night: day(50) },
      // Flexible dates inside it: their own first night.
      { dateMode: "flexible", startDate: day(51), endDate: day(56), night: day(51) },
      // A same-day stay takes that one night.
      { dateMode: "exact", startDate: day(52), endDate: day(52), night: day(52) },
    ];
    for (const { night, ...dates } of cases) {
      const email = `refused-${dates.startDate}@example.com`;
      const answer = await book({ ...dates, email });
      expect(answer.status, JSON.stringify(dates)).toBe(400);
      expect(ValidationErrorSchema.parse(answer.body).errors).toEqual([
        {
          path: "startDate",
          message: `The night of ${formatDate(night, "en")} is not available. Please choose other dates.`,
        },
      ]);
      expect(await storedFor(email)).toEqual([]);
    }
    const chinese = await book(
      { startDate: day(49), endDate: day(54), email: "zh@example.com" },
      "zh",
    );
    expect(ValidationErrorSchema.parse(chinese.body).errors).toEqual([
      { path: "startDate", message: `${formatDate(day(50), "zh")}当晚不可预订，请选择其他日期。` },
    ]);
    expect(formatDate(day(50), "zh")).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日$/);
  });

  it("is taken when it leaves on the block's first day or arrives on its last", async () => {
    const leaving = await book({
      startDate: day(45),
      endDate: day(50),
      email: "leaves@example.com",
    });
    expect(leaving.status).toBe(201);
    expect(await storedFor("leaves@example.com")).toEqual([
      { stayStart: day(45), stayEnd: day(50) },
    ]);
    const arriving = await book({
      dateMode: "flexible",
      startDate: day(53),
      endDate: day(55),
      email: "arrives@example.com",
    });
    expect(arriving.status).toBe(201);
    expect(await storedFor("arrives@example.com")).toEqual([
      { stayStart: day(53), stayEnd: day(55) },
    ]);
    // A same-day stay is stored as its one night.
    const sameDay = await book({ startDate: day(56), endDate: day(56), email: "one@example.com" });
    expect(sameDay.status).toBe(201);
    expect(await storedFor("one@example.com")).toEqual([{ stayStart: day(56), stayEnd: day(57) }]);
  });
});
