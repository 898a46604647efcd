import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { calendarEntries } from "#db/schema/index.ts";
import {
  calendarBase,
  insertCalendarFeed,
  insertCalendarRequest,
  insertExternalBusy,
  nightsAt,
} from "#tests/factories/calendar.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import {
  type CatalogueChange,
  listenForCatalogueChanges,
  notifyCatalogueChanged,
} from "../catalogue/catalogue-changes.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { addBlock, readEstateCalendar, removeBlock } from "./estate-calendar.ts";
import { addDays } from "./nights.ts";

const GORDON = demoEstate("gordon-castle");
const PADUA = demoEstate("padua");
const STAFF = { role: "staff", email: "admin@castellum.test" } as const;
const OWNER = { role: "owner", email: GORDON.email } as const;

describeEachBackend("an estate's calendar", (database) => {
  const base = calendarBase();
  const at = (offset: number, length: number) => nightsAt(base, offset, length);
  const window = { from: base, to: addDays(base, 60) };
  const read = (viewer: "staff" | "owner", propertyId = GORDON.id) =>
    readEstateCalendar(database().deps, propertyId, window.from, window.to, viewer);

  it("shows stays, pending requests, blocks, imported busy times and where they collide", async () => {
    const deps = database().deps;
    const stay = await insertCalendarRequest(deps, {
      propertyId: GORDON.id,
      nights: at(2, 3),
      status: "Confirmed",
      firstName: "Grace",
      lastName: "Hopper",
      guests: 3,
    });
    const general = await insertCalendarRequest(deps, {
      propertyId: GORDON.id,
      nights: at(20, 2),
      status: "Confirmed",
      kind: "booking_request",
      guests: 6,
    });
    const pending = await insertCalendarRequest(deps, {
      propertyId: GORDON.id,
      nights: at(3, 4),
      status: "Contacted",
      firstName: "Alan",
      lastName: "Turing",
    });
    // A confirmed request left without its nights (two confirmed before the calendar existed).
    const unplaced = await insertCalendarRequest(deps, {
      propertyId: GORDON.id,
      nights: at(2, 1),
      status: "Confirmed",
      placed: false,
    });
    // Not shown: refused, another estate's, ended on the window's first day, after the window.
    await insertCalendarRequest(deps, {
      propertyId: GORDON.id,
      nights: at(8, 2),
      status: "Rejected",
    });
    await insertCalendarRequest(deps, { propertyId: PADUA.id, nights: at(8, 2), status: "New" });
    await insertCalendarRequest(deps, { propertyId: GORDON.id, nights: at(-3, 3), status: "New" });
    await insertCalendarRequest(deps, {
      propertyId: GORDON.id,
      nights: at(60, 2),
      status: "Confirmed",
    });
    const block = await addBlock(deps, {
      propertyId: GORDON.id,
      nights: at(10, 5),
      kind: "maintenance",
      note: "  Roof repairs  ",
      actor: STAFF,
    });
    expect(block.outcome).toBe("added");
    const feedId = await insertCalendarFeed(deps, GORDON.id);
    const overStay = await insertExternalBusy(deps, {
      propertyId: GORDON.id,
      feedId,
      nights: at(4, 2),
    });
    const overBlock = await insertExternalBusy(deps, {
      propertyId: GORDON.id,
      feedId,
      nights: at(14, 3),
      summary: "Booked elsewhere",
    });
    const alone = await insertExternalBusy(deps, {
      propertyId: GORDON.id,
      feedId,
      nights: at(30, 2),
    });

    const staffView = await read("staff");
    expect(staffView).toMatchObject({ propertyId: GORDON.id, ...window });
    expect(staffView.stays).toEqual([
      {
        requestId: stay.id,
        collection: "bookings",
        reference: stay.reference,
        status: "Confirmed",
        ...at(2, 3),
        guestName: "Grace Hopper",
        guests: 3,
      },
      expect.objectContaining({
        requestId: general.id,
        collection: "booking-requests",
        ...at(20, 2),
        guests: 6,
      }),
    ]);
    expect(staffView.tentative).toEqual([
      {
        requestId: pending.id,
        collection: "bookings",
        reference: pending.reference,
        status: "Contacted",
        ...at(3, 4),
        guestName: "Alan Turing",
        guests: 2,
      },
    ]);
    expect(staffView.unplaced.map((entry) => entry.requestId)).toEqual([unplaced.id]);
    expect(staffView.blocks).toEqual([
      {
        id: block.outcome === "added" ? block.block.id : "",
        ...at(10, 5),
        kind: "maintenance",
        note: "Roof repairs",
        createdBy: "staff",
        removable: true,
      },
    ]);
    expect(staffView.external.map((entry) => entry.id)).toEqual([overStay, overBlock, alone]);
    expect(staffView.collisions).toEqual([
      {
        external: {
          id: overStay,
          ...at(4, 2),
          feedId,
          summary: "Airbnb (Not available)",
        },
        collidesWith: {
          id: stay.entryId,
          source: "stay",
          reference: stay.reference,
          kind: null,
          ...at(2, 3),
        },
      },
      {
        external: { id: overBlock, ...at(14, 3), feedId, summary: "Booked elsewhere" },
        collidesWith: {
          id: block.outcome === "added" ? block.block.id : "",
          source: "block",
          reference: null,
          kind: "maintenance",
          ...at(10, 5),
        },
      },
    ]);

    // The owner sees the same nights, but no guest's name; and staff's block is not theirs to remove.
    const ownerView = await read("owner");
    expect([...ownerView.stays, ...ownerView.tentative, ...ownerView.unplaced]).toHaveLength(4);
    for (const entry of [...ownerView.stays, ...ownerView.tentative, ...ownerView.unplaced])
      expect(entry.guestName).toBeNull();
    expect(ownerView.stays[0]).toMatchObject({ reference: stay.reference, guests: 3 });
    expect(ownerView.blocks[0]).toMatchObject({ note: "Roof repairs", removable: false });
    expect(ownerView.collisions).toEqual(staffView.collisions);

    // Another estate's calendar holds none of these.
    const padua = await read("staff", PADUA.id);
    expect(padua.stays).toEqual([]);
    expect(padua.blocks).toEqual([]);
    expect(padua.tentative.map((entry) => entry.status)).toEqual(["New"]);
    await expect(
      readEstateCalendar(deps, 999_999, window.from, window.to, "staff"),
    ).rejects.toThrow(NotFoundError);
  });

  it("refuses a block over a stay or another block, naming it, and lets one end where the next begins", async () => {
    const deps = database().deps;
    const stay = await insertCalendarRequest(deps, {
      propertyId: PADUA.id,
      nights: at(40, 3),
      status: "Confirmed",
    });
    const overStay = await addBlock(deps, {
      propertyId: PADUA.id,
      nights: at(41, 5),
      kind: "owner_stay",
      actor: OWNER,
    });
    expect(overStay).toEqual({
      outcome: "collision",
      collidesWith: [{ source: "stay", reference: stay.reference, kind: null, ...at(40, 3) }],
    });
    // The check-out day is free: a block may start on it, and end on the next arrival.
    const after = await addBlock(deps, {
      propertyId: PADUA.id,
      nights: at(43, 2),
      kind: "private_event",
      actor: OWNER,
    });
    expect(after.outcome).toBe("added");
    const before = await addBlock(deps, {
      propertyId: PADUA.id,
      nights: at(38, 2),
      kind: "other",
      actor: STAFF,
    });
    expect(before.outcome).toBe("added");
    const overBlocks = await addBlock(deps, {
      propertyId: PADUA.id,
      nights: at(37, 10),
      kind: "maintenance",
      actor: STAFF,
    });
    expect(overBlocks.outcome === "collision" && overBlocks.collidesWith).toEqual([
      { source: "block", reference: null, kind: "other", ...at(38, 2) },
      { source: "stay", reference: stay.reference, kind: null, ...at(40, 3) },
      { source: "block", reference: null, kind: "private_event", ...at(43, 2) },
    ]);
    // Imported busy times never refuse a block: they are shown as collisions instead.
    const feedId = await insertCalendarFeed(deps, PADUA.id);
    await insertExternalBusy(deps, { propertyId: PADUA.id, feedId, nights: at(50, 3) });
    expect(
      (
        await addBlock(deps, {
          propertyId: PADUA.id,
          nights: at(51, 1),
          kind: "other",
          actor: STAFF,
        })
      ).outcome,
    ).toBe("added");
  });

  it("refuses nights all in the past and an unknown estate", async () => {
    const deps = database().deps;
    const today = "2030-06-15";
    const past = addBlock(deps, {
      propertyId: GORDON.id,
      nights: { start: "2030-06-10", end: "2030-06-15" },
      kind: "other",
      actor: STAFF,
      today,
    });
    await expect(past).rejects.toThrow(ValidationError);
    await expect(past).rejects.toMatchObject({
      issues: [{ path: "end", message: "owner.calendar.validation.inPast" }],
    });
    // Started, not ended: the nights from today on are still worth blocking.
    const started = await addBlock(deps, {
      propertyId: GORDON.id,
      nights: { start: "2030-06-10", end: "2030-06-16" },
      kind: "other",
      actor: STAFF,
      today,
    });
    expect(started.outcome).toBe("added");
    await expect(
      addBlock(deps, { propertyId: 999_999, nights: at(1, 1), kind: "other", actor: STAFF }),
    ).rejects.toThrow(NotFoundError);
  });

  it("lets one of several writers racing for the same nights win, and names the winner to the others", async () => {
    const deps = database().deps;
    const attempts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        addBlock(deps, {
          propertyId: GORDON.id,
          nights: at(100 + (i % 3), 4),
          kind: "owner_stay",
          actor: i % 2 ? STAFF : OWNER,
        }),
      ),
    );
    const added = attempts.filter((attempt) => attempt.outcome === "added");
    expect(added).toHaveLength(1);
    const winner = added[0]!.outcome === "added" ? added[0]!.block : null;
    for (const attempt of attempts)
      if (attempt.outcome === "collision")
        expect(attempt.collidesWith).toEqual([
          {
            source: "block",
            reference: null,
            kind: "owner_stay",
            start: winner!.start,
            end: winner!.end,
          },
        ]);
    const rows = await deps.db
      .select()
      .from(calendarEntries)
      .where(
        and(eq(calendarEntries.propertyId, GORDON.id), eq(calendarEntries.kind, "owner_stay")),
      );
    expect(rows).toHaveLength(1);
  });

  it("lets staff remove any block and an owner only the owners' blocks, and nothing else", async () => {
    const deps = database().deps;
    const byStaff = await addBlock(deps, {
      propertyId: GORDON.id,
      nights: at(120, 2),
      kind: "maintenance",
      actor: STAFF,
    });
    const byOwner = await addBlock(deps, {
      propertyId: GORDON.id,
      nights: at(123, 2),
      kind: "owner_stay",
      actor: OWNER,
    });
    const padua = await addBlock(deps, {
      propertyId: PADUA.id,
      nights: at(123, 2),
      kind: "other",
      actor: STAFF,
    });
    const stay = await insertCalendarRequest(deps, {
      propertyId: GORDON.id,
      nights: at(126, 2),
      status: "Confirmed",
    });
    const feedId = await insertCalendarFeed(deps, GORDON.id);
    const busy = await insertExternalBusy(deps, {
      propertyId: GORDON.id,
      feedId,
      nights: at(130, 2),
    });
    const idOf = (result: Awaited<ReturnType<typeof addBlock>>) =>
      result.outcome === "added" ? result.block.id : "";
    const remove = (blockId: string, actor: typeof STAFF | typeof OWNER) =>
      removeBlock(deps, { propertyId: GORDON.id, blockId, actor });

    expect(await remove(idOf(byStaff), OWNER)).toEqual({ outcome: "forbidden" });
    // Not blocks, or another estate's: nothing of them is removed.
    expect(await remove(stay.entryId!, STAFF)).toEqual({ outcome: "not_found" });
    expect(await remove(busy, STAFF)).toEqual({ outcome: "not_found" });
    expect(await remove(idOf(padua), STAFF)).toEqual({ outcome: "not_found" });
    expect(await remove(crypto.randomUUID(), STAFF)).toEqual({ outcome: "not_found" });

    expect(await remove(idOf(byOwner), OWNER)).toEqual({ outcome: "removed" });
    expect(await remove(idOf(byOwner), OWNER)).toEqual({ outcome: "not_found" });
    expect(await remove(idOf(byStaff), STAFF)).toEqual({ outcome: "removed" });
    const ids = (await deps.db.select({ id: calendarEntries.id }).from(calendarEntries)).map(
      (row) => row.id,
    );
    expect(ids).toEqual(expect.arrayContaining([stay.entryId, busy, idOf(padua)]));
    expect(ids).not.toContain(idOf(byStaff));
    // The nights are free again.
    expect(
      (
        await addBlock(deps, {
          propertyId: GORDON.id,
          nights: at(120, 5),
          kind: "other",
          actor: OWNER,
        })
      ).outcome,
    ).toBe("added");
  });

  it("announces each change to every instance when it commits, and nothing for a refusal", async () => {
    const deps = database().deps;
    const heard: CatalogueChange[] = [];
    const listener = await listenForCatalogueChanges(deps, {
      onChange: (change) => heard.push(change),
      onListening: () => {},
      onLost: () => {},
    });
    try {
      const added = await addBlock(deps, {
        propertyId: PADUA.id,
        nights: at(200, 2),
        kind: "other",
        actor: STAFF,
      });
      const refused = await addBlock(deps, {
        propertyId: PADUA.id,
        nights: at(201, 2),
        kind: "other",
        actor: STAFF,
      });
      expect(refused.outcome).toBe("collision");
      await removeBlock(deps, {
        propertyId: PADUA.id,
        blockId: added.outcome === "added" ? added.block.id : "",
        actor: STAFF,
      });
      const marker = { propertyIds: [0] };
      await notifyCatalogueChanged(deps, marker);
      await expect.poll(() => heard).toContainEqual(marker);
      expect(heard).toEqual([{ propertyIds: [PADUA.id] }, { propertyIds: [PADUA.id] }, marker]);
    } finally {
      await listener.close();
    }
  });
});
