import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { calendarEntries, guestRequests, properties } from "#db/schema/index.ts";
import { ValidationErrorSchema } from "#domain/api/operation.ts";
import { isExclusionViolation } from "#domain/calendar/collisions.ts";
import { addDays } from "#domain/calendar/nights.ts";
import { COLLECTION_OPERATIONS, STAY_OPERATIONS } from "#domain/staff/inbox.contract.ts";
import { insertCalendarFeed, insertExternalBusy } from "#tests/factories/calendar.ts";
import { dataOf } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import {
  isoDate,
  serveIntake,
  submitGuestForm,
  validBookingRequest,
  validPropertyBooking,
} from "#tests/setup/intake.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";

const BOOKINGS = COLLECTION_OPERATIONS.property_booking;
const GENERAL = COLLECTION_OPERATIONS.booking_request;

describeEachBackend("a confirmed stay takes its estate's nights", (database) => {
  const server = serveIntake(() => database().deps);
  let cookie = "";
  // Each test works on its own estate of the demo catalogue, so none sees another's stays.
  let estates: number[] = [];
  beforeAll(async () => {
    await createTestStaff(database().deps, "calendar@castellum.test", { isAdmin: true });
    cookie = await signIn(server().url, "calendar@castellum.test");
    const rows = await database()
      .deps.db.select({ id: properties.id })
      .from(properties)
      .orderBy(properties.id);
    estates = rows.map((row) => row.id);
  });
  const estate = (index: number) => {
    const id = estates[index];
    if (id === undefined) throw new Error(`the demo catalogue has no estate ${index}`);
    return id;
  };

  const call = (method: string, path: string, body?: unknown, language = "en") =>
    staffCall(server().url, method, path, {
      cookie,
      body,
      headers: { "Accept-Language": language, Origin: server().url },
    });

  /** A property booking for `propertyId` with its nights set to [start, end). */
  async function booking(propertyId: number, start: string, end: string) {
    const { id, reference } = await submitGuestForm(
      server().url,
      "/bookings",
      validPropertyBooking({ propertyId, dateMode: "exact", startDate: start, endDate: end }),
    );
    const set = await call("PUT", `/api/bookings/${id}/stay`, { propertyId, start, end });
    dataOf(STAY_OPERATIONS.property_booking, set, 200);
    return { id, reference };
  }

  const confirm = (id: string, language = "en") =>
    call("PATCH", `/api/bookings/${id}`, { status: "Confirmed" }, language);

  it("refuses to confirm a second stay on the same nights with 409 naming the first, and changes nothing", async () => {
    const propertyId = estate(0);
    const first = await booking(propertyId, isoDate(40), isoDate(45));
    const second = await booking(propertyId, isoDate(43), isoDate(47));

    const confirmed = dataOf(BOOKINGS.updateStatus, await confirm(first.id), 200);
    expect(confirmed.stayHeld).toBe(true);

    // Before anyone tries, the details show what the second would collide with.
    const before = dataOf(BOOKINGS.get, await call("GET", `/api/bookings/${second.id}`), 200);
    expect(before.collisions).toEqual([
      {
        source: "stay",
        reference: first.reference,
        kind: null,
        start: isoDate(40),
        end: isoDate(45),
      },
    ]);

    const refused = await confirm(second.id);
    const collision = dataOf(BOOKINGS.updateStatus, refused, 409);
    expect("collidesWith" in collision && collision.collidesWith).toEqual(before.collisions);
    expect(collision.message).toContain(first.reference);

    const after = dataOf(BOOKINGS.get, await call("GET", `/api/bookings/${second.id}`), 200);
    expect(after.status).toBe("New");
    expect(after.version).toBe(before.version);
    expect(after.stayHeld).toBe(false);
    expect(after.history.map((entry) => entry.toStatus)).toEqual(
      before.history.map((entry) => entry.toStatus),
    );

    // In French, the same collision in French words, the reference unchanged.
    const french = dataOf(BOOKINGS.updateStatus, await confirm(second.id, "fr"), 409);
    expect(french.message).toContain(first.reference);
    expect(french.message).not.toBe(collision.message);
    expect(french.message).toMatch(/nuits/);
  });

  it("leaves the check-out day free for the next arrival", async () => {
    const propertyId = estate(1);
    const first = await booking(propertyId, isoDate(50), isoDate(53));
    const next = await booking(propertyId, isoDate(53), isoDate(55));
    const before = await booking(propertyId, isoDate(48), isoDate(50));
    for (const request of [first, next, before])
      expect(dataOf(BOOKINGS.updateStatus, await confirm(request.id), 200).stayHeld).toBe(true);
  });

  it("frees the nights when a confirmed stay is rejected, so another can take them", async () => {
    const propertyId = estate(2);
    const first = await booking(propertyId, isoDate(60), isoDate(62));
    const second = await booking(propertyId, isoDate(61), isoDate(63));
    dataOf(BOOKINGS.updateStatus, await confirm(first.id), 200);
    expect((await confirm(second.id)).status).toBe(409);
    const rejected = await call("PATCH", `/api/bookings/${first.id}`, {
      status: "Rejected",
      reason: "The guest cancelled",
    });
    expect(dataOf(BOOKINGS.updateStatus, rejected, 200).stayHeld).toBe(false);
    expect(dataOf(BOOKINGS.updateStatus, await confirm(second.id), 200).stayHeld).toBe(true);
  });

  it("names a block by its kind and dates, never its note", async () => {
    const propertyId = estate(3);
    // The block arrives after the request's nights were set, before anyone confirms.
    const request = await booking(propertyId, isoDate(71), isoDate(74));
    await database()
      .deps.db.insert(calendarEntries)
      .values({
        id: randomUUID(),
        propertyId,
        nights: `[${isoDate(70)},${isoDate(72)})`,
        source: "block",
        kind: "maintenance",
        note: "Roof repairs by Tetto & Figli",
      });
    const refused = await confirm(request.id);
    const collision = dataOf(BOOKINGS.updateStatus, refused, 409);
    expect("collidesWith" in collision && collision.collidesWith).toEqual([
      {
        source: "block",
        reference: null,
        kind: "maintenance",
        start: isoDate(70),
        end: isoDate(72),
      },
    ]);
    expect(refused.text).not.toContain("Tetto");
    expect(collision.message).toMatch(/maintenance/);
  });

  it("moves a confirmed stay with its nights, and refuses nights another stay holds", async () => {
    const propertyId = estate(4);
    const held = await booking(propertyId, isoDate(80), isoDate(82));
    const moving = await booking(propertyId, isoDate(90), isoDate(92));
    dataOf(BOOKINGS.updateStatus, await confirm(held.id), 200);
    dataOf(BOOKINGS.updateStatus, await confirm(moving.id), 200);

    const moved = await call("PUT", `/api/bookings/${moving.id}/stay`, {
      propertyId,
      start: isoDate(95),
      end: isoDate(97),
    });
    expect(dataOf(STAY_OPERATIONS.property_booking, moved, 200)).toMatchObject({
      stayStart: isoDate(95),
      stayEnd: isoDate(97),
      stayHeld: true,
    });
    // The old nights are free again: a stay there is accepted by the database.
    const entries = await database()
      .deps.db.select({ nights: calendarEntries.nights })
      .from(calendarEntries)
      .where(eq(calendarEntries.requestId, moving.id));
    expect(entries).toEqual([{ nights: `[${isoDate(95)},${isoDate(97)})` }]);

    const refused = await call("PUT", `/api/bookings/${moving.id}/stay`, {
      propertyId,
      start: isoDate(81),
      end: isoDate(84),
    });
    const collision = dataOf(STAY_OPERATIONS.property_booking, refused, 409);
    expect("collidesWith" in collision && collision.collidesWith[0]?.reference).toBe(
      held.reference,
    );
    const after = dataOf(BOOKINGS.get, await call("GET", `/api/bookings/${moving.id}`), 200);
    expect([after.stayStart, after.stayEnd]).toEqual([isoDate(95), isoDate(97)]);
  });

  it("assigns a general request an estate and nights, in its history, and holds them once confirmed", async () => {
    const propertyId = estate(5);
    const { id } = await submitGuestForm(server().url, "/booking-requests", validBookingRequest());
    const start = isoDate(100);
    const end = addDays(start, 4);
    const assigned = dataOf(
      STAY_OPERATIONS.booking_request,
      await call("PUT", `/api/booking-requests/${id}/stay`, { propertyId, start, end }),
      200,
    );
    expect(assigned).toMatchObject({ propertyId, stayStart: start, stayEnd: end, stayHeld: false });
    expect(assigned.history.at(-1)).toMatchObject({
      event: "stay",
      changedBy: "calendar@castellum.test",
      stay: { propertyId, start, end },
    });
    const confirmed = await call("PATCH", `/api/booking-requests/${id}`, { status: "Confirmed" });
    expect(dataOf(GENERAL.updateStatus, confirmed, 200).stayHeld).toBe(true);
  });

  it("refuses a stay set on an unknown estate, or nights that end before they start", async () => {
    const { id } = await submitGuestForm(server().url, "/booking-requests", validBookingRequest());
    const unknown = await call("PUT", `/api/booking-requests/${id}/stay`, {
      propertyId: 2_000_000_000,
      start: isoDate(10),
      end: isoDate(12),
    });
    dataOf(STAY_OPERATIONS.booking_request, unknown, 404);
    const backwards = await call("PUT", `/api/booking-requests/${id}/stay`, {
      propertyId: estate(0),
      start: isoDate(12),
      end: isoDate(12),
    });
    expect(backwards.status).toBe(400);
    const invalid = ValidationErrorSchema.parse(backwards.body);
    expect(invalid.errors?.map((issue) => issue.path)).toEqual(["end"]);
    const stored = await database()
      .deps.db.select({ stayStart: guestRequests.stayStart })
      .from(guestRequests)
      .where(eq(guestRequests.id, id));
    expect(stored).toEqual([{ stayStart: null }]);
  });

  it("lets exactly one of two simultaneous confirmations of overlapping stays win", async () => {
    const propertyId = estate(6);
    for (let round = 0; round < 5; round++) {
      const start = isoDate(120 + round * 10);
      const a = await booking(propertyId, start, addDays(start, 3));
      const b = await booking(propertyId, addDays(start, 1), addDays(start, 4));
      const answers = await Promise.all([confirm(a.id), confirm(b.id)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    }
  });

  it("is refused by the database itself, whoever writes", async () => {
    const propertyId = estate(7);
    const { db } = database().deps;
    const block = (start: string, end: string) =>
      db.insert(calendarEntries).values({
        id: randomUUID(),
        propertyId,
        nights: `[${start},${end})`,
        source: "block",
        kind: "other",
      });
    await block(isoDate(30), isoDate(33));
    const error = await block(isoDate(32), isoDate(34)).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(isExclusionViolation(error)).toBe(true);
    // An imported busy time over the same nights is kept: it is shown as a collision instead.
    await db
      .insert(calendarEntries)
      .values({
        id: randomUUID(),
        propertyId,
        nights: `[${isoDate(31)},${isoDate(32)})`,
        source: "external",
        feedId: null,
        externalUid: "x",
      })
      .then(
        () => expect.unreachable("an external row needs its feed"),
        (reason: unknown) => expect(isExclusionViolation(reason)).toBe(false),
      );
  });

  it("asks for a second, explicit confirmation over a busy time of an imported calendar, naming the feed and the nights", async () => {
    const propertyId = estate(8);
    const request = await booking(propertyId, isoDate(80), isoDate(84));
    const feedId = await insertCalendarFeed(database().deps, propertyId);
    await insertExternalBusy(database().deps, {
      propertyId,
      feedId,
      nights: { start: isoDate(82), end: isoDate(85) },
    });
    const busy = [{ feedId, feed: "calendar.example", start: isoDate(82), end: isoDate(85) }];

    // The details say it before anyone confirms: no stay or block refuses, the feed is busy.
    const before = dataOf(BOOKINGS.get, await call("GET", `/api/bookings/${request.id}`), 200);
    expect(before.collisions).toEqual([]);
    expect(before.importedBusy).toEqual(busy);

    const warned = dataOf(BOOKINGS.updateStatus, await confirm(request.id), 409);
    expect(warned).toMatchObject({ code: "imported_busy", importedBusy: busy });
    expect(warned.message).toContain("calendar.example");
    const french = dataOf(BOOKINGS.updateStatus, await confirm(request.id, "fr"), 409);
    expect(french.message).toContain("calendar.example");
    expect(french.message).not.toBe(warned.message);
    const unchanged = dataOf(BOOKINGS.get, await call("GET", `/api/bookings/${request.id}`), 200);
    expect(unchanged).toMatchObject({ status: "New", version: before.version, stayHeld: false });

    const knowingly = await call("PATCH", `/api/bookings/${request.id}`, {
      status: "Confirmed",
      confirmOverImported: true,
      version: before.version,
    });
    const confirmed = dataOf(BOOKINGS.updateStatus, knowingly, 200);
    expect(confirmed).toMatchObject({ status: "Confirmed", stayHeld: true, importedBusy: busy });
  });
});
