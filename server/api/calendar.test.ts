import { and, eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { calendarEntries, propertyClaims } from "#db/schema/index.ts";
import { ValidationErrorSchema } from "#domain/api/operation.ts";
import { createSession } from "#domain/auth/sessions.ts";
import {
  addEstateBlock,
  addOwnerBlock,
  getEstateCalendar,
  getOwnerCalendar,
  removeOwnerBlock,
} from "#domain/calendar/calendar.contract.ts";
import { addDays } from "#domain/calendar/nights.ts";
import { addMonths, utcToday } from "#domain/requests/dates.ts";
import {
  calendarBase,
  insertCalendarFeed,
  insertCalendarRequest,
  insertExternalBusy,
  nightsAt,
} from "#tests/factories/calendar.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { dataOf } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { serveIntake } from "#tests/setup/intake.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";

const GORDON = demoEstate("gordon-castle");
const PADUA = demoEstate("padua");
const TABIANO = demoEstate("tabiano");

describeEachBackend("the calendar API", (database) => {
  const server = serveIntake(() => database().deps);
  const cookies: Record<string, string> = {};
  const base = calendarBase();
  const at = (offset: number, length: number) => nightsAt(base, offset, length);
  const window = `from=${base}&to=${addDays(base, 90)}`;

  beforeAll(async () => {
    const deps = database().deps;
    await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
    await createTestStaff(deps, "clerk@castellum.test", { isAdmin: false });
    await createTestStaff(deps, "boss@other.test", { isAdmin: true });
    for (const email of ["admin@castellum.test", "clerk@castellum.test", "boss@other.test"])
      cookies[email] = await signIn(server().url, email);
    for (const estate of [GORDON, PADUA]) {
      await deps.db.insert(propertyClaims).values({ propertyId: estate.id, email: estate.email });
      const session = await createSession(deps, { role: "owner", ownerEmail: estate.email }, {});
      cookies[estate.slug] = `castellum_session=${session.token}`;
    }
  });

  const as =
    (who: string) =>
    (
      method: string,
      path: string,
      options: { body?: unknown; headers?: Record<string, string> } = {},
    ) =>
      staffCall(server().url, method, path, { cookie: cookies[who], ...options });
  const admin = as("admin@castellum.test");
  const owner = as(GORDON.slug);

  it("shows staff the estate's stays with the guest, pending requests, imported busy times, collisions and the export feed", async () => {
    const deps = database().deps;
    const stay = await insertCalendarRequest(deps, {
      propertyId: GORDON.id,
      nights: at(5, 3),
      status: "Confirmed",
      firstName: "Grace",
      lastName: "Hopper",
    });
    const pending = await insertCalendarRequest(deps, {
      propertyId: GORDON.id,
      nights: at(6, 2),
      status: "New",
    });
    const feedId = await insertCalendarFeed(deps, GORDON.id);
    const busy = await insertExternalBusy(deps, {
      propertyId: GORDON.id,
      feedId,
      nights: at(7, 2),
    });

    const answer = await admin("GET", `/api/admin/estates/${GORDON.id}/calendar?${window}`);
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
    const calendar = dataOf(getEstateCalendar, answer, 200);
    expect(calendar.from).toBe(base);
    expect(calendar.to).toBe(addDays(base, 90));
    expect(calendar.stays).toEqual([
      expect.objectContaining({
        reference: stay.reference,
        guestName: "Grace Hopper",
        ...at(5, 3),
      }),
    ]);
    expect(calendar.tentative.map((entry) => entry.reference)).toEqual([pending.reference]);
    expect(calendar.external.map((entry) => entry.id)).toEqual([busy]);
    expect(calendar.collisions).toEqual([
      {
        external: { id: busy, ...at(7, 2), feedId, summary: "Airbnb (Not available)" },
        collidesWith: {
          id: stay.entryId,
          source: "stay",
          reference: stay.reference,
          kind: null,
          ...at(5, 3),
        },
      },
    ]);
    expect(calendar.icalUrl).toMatch(
      new RegExp(`^http://localhost/api/ical/${GORDON.id}\\.[\\w-]{43}\\.ics$`),
    );
    // The feed's address carries no guest, and the same one is given to the owner.
    const mine = dataOf(
      getOwnerCalendar,
      await owner("GET", `/api/property-owners/calendar?${window}`),
      200,
    );
    expect(mine.icalUrl).toBe(calendar.icalUrl);
    expect(mine.stays).toEqual([{ ...calendar.stays[0], guestName: null }]);
    expect(mine.tentative.map((entry) => entry.guestName)).toEqual([null]);
  });

  it("opens on this month's first day and three months on, and refuses a window it cannot show", async () => {
    const plain = dataOf(
      getEstateCalendar,
      await admin("GET", `/api/admin/estates/${PADUA.id}/calendar`),
      200,
    );
    const first = `${utcToday().slice(0, 7)}-01`;
    expect({ from: plain.from, to: plain.to }).toEqual({ from: first, to: addMonths(first, 3) });
    const from = dataOf(
      getEstateCalendar,
      await admin("GET", `/api/admin/estates/${PADUA.id}/calendar?from=2031-02-10`),
      200,
    );
    expect({ from: from.from, to: from.to }).toEqual({ from: "2031-02-10", to: "2031-05-10" });
    const widest = await admin(
      "GET",
      `/api/admin/estates/${PADUA.id}/calendar?from=2031-01-01&to=2032-07-01`,
    );
    expect(widest.status).toBe(200);

    const refusals = [
      ["from=2031-02-30", "from", "Enter a real date as YYYY-MM-DD, such as 2027-05-01."],
      ["from=2031-02-10&to=2031-02-10", "to", "The end of the period must be after its start."],
      ["from=2031-01-01&to=2032-07-02", "to", "A calendar shows at most 18 months at a time."],
      ["to=yesterday", "to", "Enter a real date as YYYY-MM-DD, such as 2027-05-01."],
    ] as const;
    for (const [query, path, message] of refusals) {
      for (const call of [
        admin("GET", `/api/admin/estates/${PADUA.id}/calendar?${query}`),
        as(PADUA.slug)("GET", `/api/property-owners/calendar?${query}`),
      ]) {
        const answer = await call;
        expect(answer.status, query).toBe(400);
        expect(ValidationErrorSchema.parse(answer.body).errors, query).toEqual([{ path, message }]);
      }
    }
    const french = await admin(
      "GET",
      `/api/admin/estates/${PADUA.id}/calendar?from=2031-01-01&to=2033-01-01`,
      { headers: { "Accept-Language": "fr" } },
    );
    expect(ValidationErrorSchema.parse(french.body).errors).toEqual([
      { path: "to", message: "Un calendrier montre au plus 18 mois à la fois." },
    ]);
    for (const id of ["999999", "0", "abc", "12.5", "1e3"]) {
      const answer = await admin("GET", `/api/admin/estates/${id}/calendar`);
      expect(answer.status, id).toBe(404);
      expect(answer.body).toEqual({ message: "Property not found", code: "estate_not_found" });
    }
  });

  it("lets staff block nights, names what a colliding block would overlap in the caller's language, and remove the block", async () => {
    const deps = database().deps;
    const stay = await insertCalendarRequest(deps, {
      propertyId: PADUA.id,
      nights: at(20, 4),
      status: "Confirmed",
    });
    const added = await admin("POST", `/api/admin/estates/${PADUA.id}/blocks`, {
      body: { ...at(24, 3), kind: "maintenance", note: "Boiler" },
    });
    const { pendingRequests, ...block } = dataOf(addEstateBlock, added, 201);
    expect(pendingRequests).toEqual([]);
    expect(block).toEqual({
      id: expect.any(String) as string,
      ...at(24, 3),
      kind: "maintenance",
      note: "Boiler",
      createdBy: "staff",
      removable: true,
    });
    const calendar = dataOf(
      getEstateCalendar,
      await admin("GET", `/api/admin/estates/${PADUA.id}/calendar?${window}`),
      200,
    );
    expect(calendar.blocks).toEqual([block]);

    const overStay = await admin("POST", `/api/admin/estates/${PADUA.id}/blocks`, {
      body: { ...at(22, 4), kind: "other" },
    });
    const collision = dataOf(addEstateBlock, overStay, 409);
    expect(collision.collidesWith).toEqual([
      { source: "stay", reference: stay.reference, kind: null, ...at(20, 4) },
      { source: "block", reference: null, kind: "maintenance", ...at(24, 3) },
    ]);
    expect(collision.message).toContain(stay.reference);
    expect(collision.message).toMatch(/^These nights are already taken: the confirmed stay/);
    const french = await admin("POST", `/api/admin/estates/${PADUA.id}/blocks`, {
      body: { ...at(25, 1), kind: "other" },
      headers: { "Accept-Language": "fr" },
    });
    expect(dataOf(addEstateBlock, french, 409).message).toMatch(/^Ces nuits sont déjà prises/);

    const refusals = [
      [{ ...at(30, 0), kind: "other" }, "end", "The check-out day must be after the first night."],
      [{ ...at(30, 367), kind: "other" }, "end", "A block can cover at most 366 nights."],
      [
        { start: "2020-01-01", end: "2020-01-05", kind: "other" },
        "end",
        "These nights are all in the past.",
      ],
      [{ ...at(30, 1), kind: "holiday" }, "kind", "Choose a reason."],
      [
        { ...at(30, 1), kind: "other", note: "x".repeat(501) },
        "note",
        "The note can have at most 500 characters.",
      ],
      [{ ...at(30, 1), kind: "other", guest: "Ada" }, "", "This value is not valid."],
    ] as const;
    for (const [body, path, message] of refusals) {
      const answer = await admin("POST", `/api/admin/estates/${PADUA.id}/blocks`, { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(ValidationErrorSchema.parse(answer.body).errors?.[0], JSON.stringify(body)).toEqual(
        path
          ? { path, message }
          : expect.objectContaining({ message: expect.any(String) as string }),
      );
    }
    expect(
      (
        await admin("POST", "/api/admin/estates/999999/blocks", {
          body: { ...at(30, 1), kind: "other" },
        })
      ).status,
    ).toBe(404);

    // Removing: the block, once; never a stay's nights or another estate's block.
    const removePath = (id: string, estate = PADUA.id) =>
      `/api/admin/estates/${estate}/blocks/${id}`;
    expect((await admin("DELETE", removePath(block.id, GORDON.id))).status).toBe(404);
    expect((await admin("DELETE", removePath(stay.entryId!))).status).toBe(404);
    expect((await admin("DELETE", removePath("not-a-uuid"))).body).toEqual({
      message: "This block no longer exists.",
      code: "block_not_found",
    });
    const removed = await admin("DELETE", removePath(block.id));
    expect(removed.status).toBe(204);
    expect(removed.text).toBe("");
    expect((await admin("DELETE", removePath(block.id))).status).toBe(404);
    expect(
      (
        await admin("POST", `/api/admin/estates/${PADUA.id}/blocks`, {
          body: { ...at(24, 3), kind: "other" },
        })
      ).status,
    ).toBe(201);
  });

  it("keeps a block over pending requests and names them in the answer, the guest for staff only", async () => {
    const deps = database().deps;
    // Past the other tests' window, so that their lists of blocks stay their own.
    const first = await insertCalendarRequest(deps, {
      propertyId: GORDON.id,
      nights: at(120, 3),
      status: "New",
      firstName: "Ada",
      lastName: "Lovelace",
    });
    const second = await insertCalendarRequest(deps, {
      propertyId: GORDON.id,
      nights: at(124, 2),
      status: "In progress",
      kind: "booking_request",
      firstName: "Alan",
      lastName: "Turing",
    });
    // Neither a closed request nor one whose check-out day is the block's first night counts.
    await insertCalendarRequest(deps, {
      propertyId: GORDON.id,
      nights: at(121, 2),
      status: "Rejected",
    });
    await insertCalendarRequest(deps, { propertyId: GORDON.id, nights: at(116, 2), status: "New" });

    const byStaff = dataOf(
      addEstateBlock,
      await admin("POST", `/api/admin/estates/${GORDON.id}/blocks`, {
        body: { ...at(118, 7), kind: "maintenance" },
      }),
      201,
    );
    expect(byStaff.pendingRequests).toEqual([
      {
        requestId: first.id,
        collection: "bookings",
        reference: first.reference,
        status: "New",
        ...at(120, 3),
        guestName: "Ada Lovelace",
        guests: 2,
      },
      {
        requestId: second.id,
        collection: "booking-requests",
        reference: second.reference,
        status: "In progress",
        ...at(124, 2),
        guestName: "Alan Turing",
        guests: 4,
      },
    ]);
    // The block stands, and the requests are as they were.
    const view = dataOf(
      getEstateCalendar,
      await admin("GET", `/api/admin/estates/${GORDON.id}/calendar?from=${at(110, 0).start}`),
      200,
    );
    expect(view.blocks.map((block) => block.id)).toContain(byStaff.id);
    expect(view.tentative.map((entry) => entry.reference)).toEqual(
      expect.arrayContaining([first.reference, second.reference]),
    );

    const byOwner = dataOf(
      addOwnerBlock,
      await owner("POST", "/api/property-owners/blocks", {
        body: { ...at(125, 2), kind: "owner_stay" },
      }),
      201,
    );
    expect(byOwner.pendingRequests).toEqual([
      expect.objectContaining({ reference: second.reference, ...at(124, 2), guestName: null }),
    ]);
  });

  it("lets an owner block their estate's nights and remove their own blocks, not staff's", async () => {
    const mine = dataOf(
      addOwnerBlock,
      await owner("POST", "/api/property-owners/blocks", {
        body: { ...at(40, 7), kind: "owner_stay", note: "Family summer" },
      }),
      201,
    );
    expect(mine).toMatchObject({ createdBy: "owner", removable: true, note: "Family summer" });
    const staffs = dataOf(
      addEstateBlock,
      await admin("POST", `/api/admin/estates/${GORDON.id}/blocks`, {
        body: { ...at(50, 2), kind: "maintenance" },
      }),
      201,
    );
    const view = dataOf(
      getOwnerCalendar,
      await owner("GET", `/api/property-owners/calendar?${window}`),
      200,
    );
    expect(view.blocks.map((block) => [block.id, block.createdBy, block.removable])).toEqual([
      [mine.id, "owner", true],
      [staffs.id, "staff", false],
    ]);
    const overMine = await owner("POST", "/api/property-owners/blocks", {
      body: { ...at(46, 2), kind: "other" },
      headers: { "Accept-Language": "zh" },
    });
    expect(dataOf(addOwnerBlock, overMine, 409).message).toMatch(/^这些晚上已被占用/);

    const refused = await owner("DELETE", `/api/property-owners/blocks/${staffs.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message: "Blocks made by staff can only be removed by staff.",
      code: "staff_block",
    });
    expect(
      dataOf(
        removeOwnerBlock,
        await owner("DELETE", `/api/property-owners/blocks/${mine.id}`),
        204,
      ),
    ).toBeUndefined();
    // Staff remove the owner's blocks too, on the owner's calls as on their own.
    const again = dataOf(
      addOwnerBlock,
      await owner("POST", "/api/property-owners/blocks", {
        body: { ...at(40, 2), kind: "owner_stay" },
      }),
      201,
    );
    expect(
      (await admin("DELETE", `/api/property-owners/blocks/${again.id}?propertyId=${GORDON.id}`))
        .status,
    ).toBe(204);
    expect(
      (await admin("DELETE", `/api/admin/estates/${GORDON.id}/blocks/${staffs.id}`)).status,
    ).toBe(204);
  });

  it("authorisation matrix: each kind of caller on each calendar call", async () => {
    const deps = database().deps;
    const blocks = async () =>
      (
        await deps.db
          .select({ count: sql<number>`count(*)::int` })
          .from(calendarEntries)
          .where(
            and(eq(calendarEntries.propertyId, TABIANO.id), eq(calendarEntries.source, "block")),
          )
      )[0]!.count;
    const unclaimed = await createSession(deps, { role: "owner", ownerEmail: TABIANO.email }, {});
    cookies.unclaimed = `castellum_session=${unclaimed.token}`;
    cookies.anonymous = "";
    // Each block a caller may add is one night further on, so every allowed add succeeds.
    let night = 60;
    let made = 0;
    const existing = async () => {
      made += 1;
      const answer = await admin("POST", `/api/admin/estates/${TABIANO.id}/blocks`, {
        body: { ...at(night++, 1), kind: "other" },
      });
      return dataOf(addEstateBlock, answer, 201).id;
    };
    const calls = [
      ["GET", () => `/api/admin/estates/${TABIANO.id}/calendar`, undefined],
      [
        "POST",
        () => `/api/admin/estates/${TABIANO.id}/blocks`,
        () => ({ ...at(night++, 1), kind: "other" }),
      ],
      [
        "DELETE",
        async () => `/api/admin/estates/${TABIANO.id}/blocks/${await existing()}`,
        undefined,
      ],
      ["GET", () => `/api/property-owners/calendar?propertyId=${TABIANO.id}`, undefined],
      [
        "POST",
        () => `/api/property-owners/blocks?propertyId=${TABIANO.id}`,
        () => ({ ...at(night++, 1), kind: "other" }),
      ],
      [
        "DELETE",
        async () => `/api/property-owners/blocks/${await existing()}?propertyId=${TABIANO.id}`,
        undefined,
      ],
    ] as const;
    // Staff calls: company admins only. Owner calls: the estate's owner (who has no claim of
    // Tabiano here, so is refused) or a company admin.
    const expected: Record<string, number[]> = {
      anonymous: [401, 401, 401, 401, 401, 401],
      [GORDON.slug]: [401, 401, 401, 403, 403, 403],
      unclaimed: [401, 401, 401, 403, 403, 403],
      "clerk@castellum.test": [403, 403, 403, 403, 403, 403],
      "boss@other.test": [403, 403, 403, 403, 403, 403],
      "admin@castellum.test": [200, 201, 204, 200, 201, 204],
    };
    for (const [who, statuses] of Object.entries(expected)) {
      const before = await blocks();
      made = 0;
      const seen: number[] = [];
      let allowed = 0;
      for (const [method, path, body] of calls) {
        const answer = await as(who)(method, await path(), { body: body?.() });
        seen.push(answer.status);
        if (answer.status >= 400)
          expect(answer.body, `${who} ${method}`).toEqual({
            message: expect.any(String) as string,
            code: expect.any(String) as string,
          });
        if (method === "POST" && answer.status === 201) allowed += 1;
        if (method === "DELETE" && answer.status === 204) allowed -= 1;
      }
      expect(seen, who).toEqual(statuses);
      // A refused call changed nothing: the blocks made to be removed stay unless removed.
      expect(await blocks(), who).toBe(before + made + allowed);
    }
    // The owner of Tabiano, once claimed, reaches the owner calls and nothing of the staff's.
    await deps.db.insert(propertyClaims).values({ propertyId: TABIANO.id, email: TABIANO.email });
    const seen: number[] = [];
    for (const [method, path, body] of calls.slice(3))
      seen.push((await as("unclaimed")(method, await path(), { body: body?.() })).status);
    // The block staff made for the DELETE is staff's: an owner may not remove it.
    expect(seen).toEqual([200, 201, 403]);
    // An owner never sees another estate's calendar.
    const other = await owner("GET", `/api/property-owners/calendar?propertyId=${TABIANO.id}`);
    expect(other.status).toBe(403);
  });
});
