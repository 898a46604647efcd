import { and, eq, like } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { calendarEntries, guestRequests, mailOutbox, ownerLanguages } from "#db/schema/index.ts";
import { calendarBase, insertCalendarRequest, nightsAt } from "#tests/factories/calendar.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { allDayCalendar, serveFeeds } from "#tests/setup/feed-server.ts";
import { createTestStaff } from "#tests/setup/staff.ts";
import { type EventMailConfig, mailFromEvents } from "../mail/mail-from-events.ts";
import { formatDate } from "../requests/summary.ts";
import { changeRequestStatus } from "../requests/change-status.ts";
import type { StaffUser } from "../staff/staff-user.ts";
import { type FeedSyncConfig, syncFeed } from "./feed-sync.ts";
import { addCalendarFeed } from "./feeds.ts";
import { IMPORT_COLLISION_TEMPLATES } from "./import-collision-alerts.ts";

const GORDON = demoEstate("gordon-castle");
const PADUA = demoEstate("padua");
const TABIANO = demoEstate("tabiano");

const CONFIG: FeedSyncConfig = {
  outbound: { allowPrivateNetworks: true, timeoutMs: 2000, maxBytes: 64 * 1024 },
  intervalMinutes: 30,
};
const MAIL: EventMailConfig = {
  staffEmail: "requests@castellum.test",
  staffLanguage: "fr",
  publicUrl: "https://castellum.test",
};

describeEachBackend("imported busy times over confirmed stays", (database) => {
  const feeds = serveFeeds();
  const deps = () => database().deps;
  const base = calendarBase();
  const at = (offset: number, length: number) => nightsAt(base, offset, length);
  let staff: StaffUser;

  beforeAll(async () => {
    staff = await createTestStaff(deps(), "alerts@castellum.test", { isAdmin: true });
    await deps()
      .db.insert(ownerLanguages)
      .values({ email: GORDON.email.toLowerCase(), language: "it" });
  });

  const addFeed = async (propertyId: number, path: string) =>
    (
      await addCalendarFeed(deps(), CONFIG.outbound, {
        propertyId,
        url: feeds.url(path),
        createdBy: "staff:alerts@castellum.test",
        now: new Date(),
      })
    ).id;
  const sync = (feedId: string) => syncFeed(deps(), CONFIG, feedId, new Date());
  /** The collision mail of a request, once the mail job has taken the sync's events. */
  const alertMails = async (requestId: string) => {
    await mailFromEvents(deps(), MAIL);
    return deps()
      .db.select()
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.requestId, requestId),
          like(mailOutbox.template, "calendar.import_collision.%"),
        ),
      );
  };

  it("mails staff and the owner once, in their languages, when a sync brings a busy time onto a confirmed stay", async () => {
    const stay = await insertCalendarRequest(deps(), {
      propertyId: GORDON.id,
      nights: at(10, 4),
      status: "Confirmed",
      firstName: "Grace",
      lastName: "Hopper",
    });
    feeds.serve(
      "/gordon.ics",
      allDayCalendar([["other-1@airbnb", at(12, 3).start, at(12, 3).end]]),
    );
    const feedId = await addFeed(GORDON.id, "/gordon.ics");
    expect(await sync(feedId)).toMatchObject({ outcome: "synced", eventCount: 1 });

    const mails = await alertMails(stay.id);
    expect(mails.map((mail) => [mail.template, mail.recipient]).sort()).toEqual(
      [
        [IMPORT_COLLISION_TEMPLATES.owner, GORDON.email],
        [IMPORT_COLLISION_TEMPLATES.staff, "requests@castellum.test"],
      ].sort(),
    );
    const staffMail = mails.find((mail) => mail.template === IMPORT_COLLISION_TEMPLATES.staff)!;
    const ownerMail = mails.find((mail) => mail.template === IMPORT_COLLISION_TEMPLATES.owner)!;
    // Staff read it in the staff language, the owner in theirs; both name the estate, the busy
    // dates, the feed (its host, never the whole address) and the stay.
    const host = new URL(feeds.url("/gordon.ics")).host;
    expect(staffMail.subject).toContain("Calendrier importé");
    expect(staffMail.subject).toContain(formatDate(at(12, 3).start, "fr"));
    expect(staffMail.text).toContain(host);
    expect(staffMail.text).toContain(stay.reference);
    expect(staffMail.text).toContain("Grace Hopper");
    expect(staffMail.text).toContain(`/admin/estates/${GORDON.id}/calendar`);
    expect(ownerMail.subject).toContain("Calendario importato");
    expect(ownerMail.text).toContain(formatDate(at(10, 4).start, "it"));
    expect(ownerMail.text).toContain(stay.reference);
    expect(ownerMail.text).toContain(host);
    expect(ownerMail.text).not.toContain("Hopper");
    expect(ownerMail.text).not.toContain("/gordon.ics");

    // The same collision is never told again: not at the next sync, nor when the event moves
    // and still lies over the stay.
    await sync(feedId);
    feeds.serve(
      "/gordon.ics",
      allDayCalendar([["other-1@airbnb", at(11, 2).start, at(11, 2).end]]),
    );
    expect(await sync(feedId)).toMatchObject({ outcome: "synced", changed: true });
    expect(await alertMails(stay.id)).toHaveLength(2);

    // Another event of the feed over the same stay is a new collision.
    feeds.serve(
      "/gordon.ics",
      allDayCalendar([
        ["other-1@airbnb", at(11, 2).start, at(11, 2).end],
        ["other-2@airbnb", at(13, 2).start, at(13, 2).end],
      ]),
    );
    await sync(feedId);
    expect(await alertMails(stay.id)).toHaveLength(4);
  });

  it("tells nobody of a busy time over a pending request or over free nights", async () => {
    const pending = await insertCalendarRequest(deps(), {
      propertyId: PADUA.id,
      nights: at(20, 3),
      status: "New",
    });
    const elsewhere = await insertCalendarRequest(deps(), {
      propertyId: PADUA.id,
      nights: at(40, 3),
      status: "Confirmed",
    });
    feeds.serve(
      "/padua.ics",
      allDayCalendar([
        ["p-1@vrbo", at(20, 2).start, at(20, 2).end],
        ["p-2@vrbo", at(30, 2).start, at(30, 2).end],
        // The stay's check-out day is free: no collision.
        ["p-3@vrbo", at(43, 2).start, at(43, 2).end],
      ]),
    );
    await sync(await addFeed(PADUA.id, "/padua.ics"));
    expect(await alertMails(pending.id)).toEqual([]);
    expect(await alertMails(elsewhere.id)).toEqual([]);
  });

  it("asks staff to confirm knowingly over an imported busy time, and then tells nobody of it", async () => {
    feeds.serve("/tabiano.ics", allDayCalendar([["t-1@booking", at(50, 3).start, at(50, 3).end]]));
    const feedId = await addFeed(TABIANO.id, "/tabiano.ics");
    await sync(feedId);
    const request = await insertCalendarRequest(deps(), {
      propertyId: TABIANO.id,
      nights: at(51, 4),
      status: "In progress",
    });
    const confirm = (confirmOverImported?: boolean) =>
      changeRequestStatus(deps(), {
        id: request.id,
        kind: "property_booking",
        change: {
          status: "Confirmed",
          shareReason: false,
          notifyGuest: false,
          confirmOverImported,
        },
        actor: staff,
      });

    const warned = await confirm();
    expect(warned).toEqual({
      outcome: "imported_busy",
      importedBusy: [
        expect.objectContaining({
          feedId,
          feed: new URL(feeds.url("/")).host,
          ...at(50, 3),
        }),
      ],
    });
    // Nothing was written: the request is still pending and holds no nights.
    const [row] = await deps()
      .db.select({ status: guestRequests.status, version: guestRequests.version })
      .from(guestRequests)
      .where(eq(guestRequests.id, request.id));
    expect(row).toEqual({ status: "In progress", version: 1 });
    expect(
      await deps()
        .db.select()
        .from(calendarEntries)
        .where(eq(calendarEntries.requestId, request.id)),
    ).toEqual([]);

    const confirmed = await confirm(true);
    expect(confirmed.outcome).toBe("changed");
    if (confirmed.outcome === "changed") expect(confirmed.request.stayHeld).toBe(true);

    // The event moves but still lies over the stay: staff knew of it, so no mail.
    feeds.serve("/tabiano.ics", allDayCalendar([["t-1@booking", at(51, 3).start, at(51, 3).end]]));
    expect(await sync(feedId)).toMatchObject({ changed: true });
    expect(await alertMails(request.id)).toEqual([]);
  });

  it("refuses outright when a stay of the estate holds the nights, whatever imported calendars say", async () => {
    const held = await insertCalendarRequest(deps(), {
      propertyId: TABIANO.id,
      nights: at(70, 3),
      status: "Confirmed",
    });
    feeds.serve(
      "/tabiano-2.ics",
      allDayCalendar([["t-9@booking", at(71, 3).start, at(71, 3).end]]),
    );
    await sync(await addFeed(TABIANO.id, "/tabiano-2.ics"));
    const request = await insertCalendarRequest(deps(), {
      propertyId: TABIANO.id,
      nights: at(71, 3),
      status: "New",
    });
    for (const confirmOverImported of [false, true]) {
      const result = await changeRequestStatus(deps(), {
        id: request.id,
        kind: "property_booking",
        change: {
          status: "Confirmed",
          shareReason: false,
          notifyGuest: false,
          confirmOverImported,
        },
        actor: staff,
      });
      expect(result).toEqual({
        outcome: "collision",
        collidesWith: [{ source: "stay", reference: held.reference, kind: null, ...at(70, 3) }],
      });
    }
  });
});
