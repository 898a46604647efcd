import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { calendarEntries, calendarFeeds } from "#db/schema/index.ts";
import { allDayCalendar, serveFeeds } from "#tests/setup/feed-server.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import {
  type CatalogueChange,
  type CatalogueChangeListener,
  listenForCatalogueChanges,
} from "../catalogue/catalogue-changes.ts";
import { ValidationError } from "../errors.ts";
import { type FeedSyncConfig, syncDueFeeds, syncEstateFeed, syncFeed } from "./feed-sync.ts";
import {
  addCalendarFeed,
  listCalendarFeeds,
  removeCalendarFeed,
  updateCalendarFeedSettings,
} from "./feeds.ts";

const NOW = new Date("2026-06-15T12:00:00Z");
const later = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const [FIRST, SECOND, THIRD] = DEMO_CATALOGUE.map((estate) => estate.id);

const CONFIG: FeedSyncConfig = {
  outbound: { allowPrivateNetworks: true, timeoutMs: 500, maxBytes: 64 * 1024 },
  intervalMinutes: 30,
};

describeEachBackend("calendar feed sync", (database) => {
  const feeds = serveFeeds();
  const deps = () => database().deps;
  const changes: CatalogueChange[] = [];
  let listener: CatalogueChangeListener | undefined;
  beforeAll(async () => {
    listener = await listenForCatalogueChanges(deps(), {
      onChange: (change) => changes.push(change),
      onListening: () => undefined,
      onLost: () => undefined,
    });
  });
  afterAll(() => listener?.close());

  const add = (propertyId: number, path: string, now = NOW) =>
    addCalendarFeed(deps(), CONFIG.outbound, {
      propertyId,
      url: feeds.url(path),
      createdBy: "owner:test@example.com",
      now,
    });
  /** A feed's busy times as `[uid, start, end]`, by start. */
  const entriesOf = async (feedId: string) => {
    const rows = await deps()
      .db.select({
        id: calendarEntries.id,
        uid: calendarEntries.externalUid,
        nights: calendarEntries.nights,
      })
      .from(calendarEntries)
      .where(eq(calendarEntries.feedId, feedId))
      .orderBy(asc(calendarEntries.nights));
    return rows;
  };
  const nightsOf = async (feedId: string) =>
    (await entriesOf(feedId)).map((row) => [row.uid, row.nights]);
  const feedRow = async (feedId: string) => {
    const [row] = await deps().db.select().from(calendarFeeds).where(eq(calendarFeeds.id, feedId));
    return row!;
  };

  it("follows a feed as events are added, moved and removed", async () => {
    feeds.serve(
      "/airbnb.ics",
      allDayCalendar([
        ["stay-1@airbnb", "2026-07-05", "2026-07-10"],
        ["stay-2@airbnb", "2026-07-20", "2026-07-22"],
      ]),
    );
    const feed = await add(FIRST!, "/airbnb.ics");
    expect(feed).toMatchObject({ eventCount: 0, lastSuccessAt: null, lastError: null });
    const before = changes.length;
    expect(await syncFeed(deps(), CONFIG, feed.id, NOW)).toEqual({
      outcome: "synced",
      eventCount: 2,
      changed: true,
    });
    expect(await nightsOf(feed.id)).toEqual([
      ["stay-1@airbnb", "[2026-07-05,2026-07-10)"],
      ["stay-2@airbnb", "[2026-07-20,2026-07-22)"],
    ]);
    expect(await feedRow(feed.id)).toMatchObject({
      lastAttemptAt: NOW,
      lastSuccessAt: NOW,
      lastError: null,
      eventCount: 2,
      nextSyncAt: later(30),
      lockedUntil: null,
    });
    // The public caches hear of the estate's change once the transaction commits.
    await expect.poll(() => changes.slice(before)).toContainEqual({ propertyIds: [FIRST] });
    const [kept] = await entriesOf(feed.id);

    // Moved, removed, added.
    feeds.serve(
      "/airbnb.ics",
      allDayCalendar([
        ["stay-1@airbnb", "2026-07-06", "2026-07-11"],
        ["stay-3@airbnb", "2026-08-01", "2026-08-04"],
      ]),
    );
    const moving = changes.length;
    await syncFeed(deps(), CONFIG, feed.id, later(30));
    // Heard before the quiet read below, so that read is judged on its own.
    await expect.poll(() => changes.slice(moving)).toContainEqual({ propertyIds: [FIRST] });
    expect(await nightsOf(feed.id)).toEqual([
      ["stay-1@airbnb", "[2026-07-06,2026-07-11)"],
      ["stay-3@airbnb", "[2026-08-01,2026-08-04)"],
    ]);
    // The moved event is the same entry, updated in place.
    expect((await entriesOf(feed.id))[0]!.id).toBe(kept!.id);
    expect(await feedRow(feed.id)).toMatchObject({ eventCount: 2, lastSuccessAt: later(30) });

    // Read again unchanged: nothing written, no cache dropped.
    const quiet = changes.length;
    expect(await syncFeed(deps(), CONFIG, feed.id, later(60))).toEqual({
      outcome: "synced",
      eventCount: 2,
      changed: false,
    });
    // A change on another estate, made after, arrives: nothing from the quiet sync came before it.
    await removeCalendarFeed(deps(), {
      propertyId: SECOND!,
      feedId: (await add(SECOND!, "/unused.ics")).id,
    });
    await expect.poll(() => changes.length).toBeGreaterThan(quiet);
    expect(changes.slice(quiet)).toEqual([{ propertyIds: [SECOND] }]);

    // Emptied: every busy time goes.
    feeds.serve("/airbnb.ics", allDayCalendar([]));
    await syncFeed(deps(), CONFIG, feed.id, later(90));
    expect(await nightsOf(feed.id)).toEqual([]);
    expect(await feedRow(feed.id)).toMatchObject({ eventCount: 0, lastError: null });
    await removeCalendarFeed(deps(), { propertyId: FIRST!, feedId: feed.id });
  });

  it("keeps an imported busy time that overlaps a block, beside it", async () => {
    await deps().db.insert(calendarEntries).values({
      id: randomUUID(),
      propertyId: THIRD!,
      nights: "[2026-09-01,2026-09-10)",
      source: "block",
      kind: "maintenance",
    });
    feeds.serve("/overlap.ics", allDayCalendar([["over@channel", "2026-09-05", "2026-09-07"]]));
    const feed = await add(THIRD!, "/overlap.ics");
    expect(await syncFeed(deps(), CONFIG, feed.id, NOW)).toMatchObject({ outcome: "synced" });
    const sources = await deps()
      .db.select({ source: calendarEntries.source, nights: calendarEntries.nights })
      .from(calendarEntries)
      .where(eq(calendarEntries.propertyId, THIRD!))
      .orderBy(asc(calendarEntries.nights));
    expect(sources).toEqual([
      { source: "block", nights: "[2026-09-01,2026-09-10)" },
      { source: "external", nights: "[2026-09-05,2026-09-07)" },
    ]);
    await removeCalendarFeed(deps(), { propertyId: THIRD!, feedId: feed.id });
  });

  it("contains a hostile feed: its error is recorded, its old busy times and other feeds stay", async () => {
    const good = allDayCalendar([["keep@x", "2026-07-01", "2026-07-03"]]);
    const paths = ["/huge.ics", "/html.ics", "/slow.ics", "/storm.ics", "/gone.ics", "/fine.ics"];
    for (const path of paths) feeds.serve(path, good);
    const added = [];
    for (const path of paths) added.push(await add(SECOND!, path, later(-1)));
    expect(await syncDueFeeds(deps(), { ...CONFIG, batch: 10 }, NOW)).toBe(paths.length);
    for (const feed of added)
      expect(await nightsOf(feed.id)).toEqual([["keep@x", "[2026-07-01,2026-07-03)"]]);

    feeds.handle("/huge.ics", (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/calendar" });
      res.end(
        `BEGIN:VCALENDAR\r\n${"X-PAD:".padEnd(100, "x").concat("\r\n").repeat(2000)}END:VCALENDAR\r\n`,
      );
    });
    feeds.handle("/html.ics", (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end("<!doctype html><title>Sign in</title>");
    });
    feeds.handle("/slow.ics", () => undefined);
    feeds.serve(
      "/storm.ics",
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:storm\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T000000Z\r\nDTEND:20260101T000100Z\r\nRRULE:FREQ=MINUTELY\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
    );
    feeds.handle("/gone.ics", (_req, res) => {
      res.writeHead(410);
      res.end();
    });
    feeds.serve("/fine.ics", allDayCalendar([["new@x", "2026-07-10", "2026-07-12"]]));

    const started = performance.now();
    expect(await syncDueFeeds(deps(), { ...CONFIG, batch: 10 }, later(31))).toBe(paths.length);
    // Side by side: the slow feed's timeout does not add up with the others.
    expect(performance.now() - started).toBeLessThan(5000);
    const listed = await listCalendarFeeds(deps(), SECOND!);
    const errors = Object.fromEntries(
      added.map(
        (feed, i) =>
          [paths[i]!, listed.find((f) => f.id === feed.id)?.lastError?.code ?? null] as const,
      ),
    );
    expect(errors).toEqual({
      "/huge.ics": "too_large",
      "/html.ics": "not_calendar",
      "/slow.ics": "timeout",
      "/storm.ics": "too_many_events",
      "/gone.ics": "http_status",
      "/fine.ics": null,
    });
    for (const feed of added.slice(0, 5)) {
      expect(await nightsOf(feed.id)).toEqual([["keep@x", "[2026-07-01,2026-07-03)"]]);
      expect(await feedRow(feed.id)).toMatchObject({
        lastSuccessAt: NOW,
        lastAttemptAt: later(31),
        eventCount: 1,
        nextSyncAt: later(61),
        lockedUntil: null,
      });
    }
    expect(await nightsOf(added[5]!.id)).toEqual([["new@x", "[2026-07-10,2026-07-12)"]]);
    // The error reads in short English for support, after its code.
    expect((await feedRow(added[3]!.id)).lastError).toMatch(
      /^too_many_events: the recurring event storm /,
    );
    // Once the feed is well again, the error goes.
    feeds.serve("/html.ics", good);
    const healed = await syncEstateFeed(deps(), CONFIG, {
      propertyId: SECOND!,
      feedId: added[1]!.id,
      now: later(40),
    });
    expect(healed).toMatchObject({ lastError: null, lastSuccessAt: later(40), eventCount: 1 });
    // A feed of another estate is not this estate's to sync.
    expect(
      await syncEstateFeed(deps(), CONFIG, {
        propertyId: FIRST!,
        feedId: added[1]!.id,
        now: later(40),
      }),
    ).toBeNull();
    for (const feed of added)
      await removeCalendarFeed(deps(), { propertyId: SECOND!, feedId: feed.id });
    // Removing a feed removes the busy times it brought.
    expect(await nightsOf(added[5]!.id)).toEqual([]);
  });

  it("imports a feed's readable events beside a broken one, and lists what it left out", async () => {
    feeds.serve(
      "/partly.ics",
      [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "BEGIN:VEVENT",
        "UID:fine@x",
        "DTSTAMP:20260601T000000Z",
        "DTSTART;VALUE=DATE:20260705",
        "DTEND;VALUE=DATE:20260710",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:broken@x",
        "SUMMARY:Owner's visit",
        "DTSTAMP:20260601T000000Z",
        "DTSTART;VALUE=DATE:20260720",
        "RRULE:FREQ=FORTNIGHTLY",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
      ].join("\r\n"),
    );
    const feed = await add(FIRST!, "/partly.ics");
    expect(await syncFeed(deps(), CONFIG, feed.id, NOW)).toMatchObject({ outcome: "synced" });
    expect(await nightsOf(feed.id)).toEqual([["fine@x", "[2026-07-05,2026-07-10)"]]);
    const [listed] = (await listCalendarFeeds(deps(), FIRST!)).filter((f) => f.id === feed.id);
    expect(listed).toMatchObject({
      lastError: null,
      lastSuccessAt: NOW,
      eventCount: 1,
      nightsClosed: 5,
      timedNightsClosed: 0,
      skippedCount: 1,
      skippedEvents: [{ uid: "broken@x", summary: "Owner's visit", line: 9, reason: "unreadable" }],
    });
    // Mended: the list empties at the next read.
    feeds.serve("/partly.ics", allDayCalendar([["fine@x", "2026-07-05", "2026-07-10"]]));
    await syncFeed(deps(), CONFIG, feed.id, later(30));
    expect(await feedRow(feed.id)).toMatchObject({ skippedCount: 0, skippedEvents: [] });
    await removeCalendarFeed(deps(), { propertyId: FIRST!, feedId: feed.id });
  });

  it("reads a feed's timed events as the feed chooses, and says how many nights they close", async () => {
    feeds.serve(
      "/viewings.ics",
      [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "BEGIN:VEVENT",
        "UID:viewing@x",
        "DTSTAMP:20260601T000000Z",
        "DTSTART:20260601T140000Z",
        "DTEND:20260601T150000Z",
        "RRULE:FREQ=DAILY",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:stay@x",
        "DTSTAMP:20260601T000000Z",
        "DTSTART;VALUE=DATE:20260705",
        "DTEND;VALUE=DATE:20260710",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
      ].join("\r\n"),
    );
    const feed = await add(FIRST!, "/viewings.ics");
    expect(feed).toMatchObject({ timedEventsClose: true, passOn: false });
    await syncFeed(deps(), CONFIG, feed.id, NOW);
    // As before: the one-hour viewing closes every night of the window from today on.
    expect(await feedRow(feed.id)).toMatchObject({ nightsClosed: 731, timedNightsClosed: 731 });

    const changed = await updateCalendarFeedSettings(deps(), {
      propertyId: FIRST!,
      feedId: feed.id,
      settings: { timedEventsClose: false },
      now: later(1),
    });
    // Made due at once, so the next read follows the new choice.
    expect(changed).toMatchObject({ timedEventsClose: false, nextSyncAt: later(1) });
    expect(await syncDueFeeds(deps(), CONFIG, later(1))).toBe(1);
    expect(await nightsOf(feed.id)).toEqual([["stay@x", "[2026-07-05,2026-07-10)"]]);
    expect(await feedRow(feed.id)).toMatchObject({ nightsClosed: 5, timedNightsClosed: 0 });

    // Passing on changes what the export lists, not what is read: the feed stays as scheduled.
    const passed = await updateCalendarFeedSettings(deps(), {
      propertyId: FIRST!,
      feedId: feed.id,
      settings: { passOn: true, timedEventsClose: false },
      now: later(2),
    });
    expect(passed).toMatchObject({ passOn: true, nextSyncAt: later(31) });
    // Another estate's feed is not this estate's to change.
    expect(
      await updateCalendarFeedSettings(deps(), {
        propertyId: SECOND!,
        feedId: feed.id,
        settings: { passOn: false },
        now: later(2),
      }),
    ).toBeNull();
    await removeCalendarFeed(deps(), { propertyId: FIRST!, feedId: feed.id });
  });

  it("never imports back an event this site exported", async () => {
    feeds.serve(
      "/echo.ics",
      allDayCalendar([
        ["3f0d@castellum.example", "2026-07-05", "2026-07-10"],
        ["theirs@other", "2026-08-01", "2026-08-03"],
      ]),
    );
    const feed = await add(FIRST!, "/echo.ics");
    await syncFeed(deps(), { ...CONFIG, ownHost: "castellum.example" }, feed.id, NOW);
    expect(await nightsOf(feed.id)).toEqual([["theirs@other", "[2026-08-01,2026-08-03)"]]);
    await removeCalendarFeed(deps(), { propertyId: FIRST!, feedId: feed.id });
  });

  it("syncs a due feed once when two instances look at the same moment", async () => {
    const paths = ["/race-1.ics", "/race-2.ics", "/race-3.ics"];
    for (const path of paths)
      feeds.serve(path, allDayCalendar([[`${path}@x`, "2026-10-01", "2026-10-02"]]));
    for (const path of paths) await add(FIRST!, path, later(100));
    const at = later(101);
    const claimed = await Promise.all([
      syncDueFeeds(deps(), { ...CONFIG, batch: 10 }, at),
      syncDueFeeds(deps(), { ...CONFIG, batch: 10 }, at),
    ]);
    expect(claimed[0] + claimed[1]).toBe(paths.length);
    for (const path of paths) expect(feeds.hits(path)).toBe(1);
    // Nothing due now: the next sync is ICAL_SYNC_MINUTES later.
    expect(await syncDueFeeds(deps(), CONFIG, later(102))).toBe(0);
    expect(await syncDueFeeds(deps(), { ...CONFIG, batch: 10 }, later(132))).toBe(paths.length);
    for (const path of paths) expect(feeds.hits(path)).toBe(2);
  });

  it("refuses an address it must not fetch, or one the estate already imports", async () => {
    const closed = { allowPrivateNetworks: false };
    const refusal = async (url: string, outbound = closed) => {
      try {
        await addCalendarFeed(deps(), outbound, {
          propertyId: THIRD!,
          url,
          createdBy: "x",
          now: NOW,
        });
      } catch (error) {
        if (error instanceof ValidationError) return error.issues.map((issue) => issue.message);
        throw error;
      }
      return [];
    };
    expect(await refusal(feeds.url("/private.ics"))).toEqual([
      "owner.calendarFeeds.errors.privateAddress",
    ]);
    expect(await refusal(feeds.url("/private.ics").replace("127.0.0.1", "localhost"))).toEqual([
      "owner.calendarFeeds.errors.privateAddress",
    ]);
    expect(await refusal("webcal://example.com/cal.ics")).toEqual([
      "owner.calendarFeeds.errors.urlInvalid",
    ]);
    expect(await refusal("not an address")).toEqual(["owner.calendarFeeds.errors.urlInvalid"]);
    await add(THIRD!, "/overlap.ics");
    expect(await refusal(feeds.url("/overlap.ics"), CONFIG.outbound)).toEqual([
      "owner.calendarFeeds.errors.duplicate",
    ]);
    // The same address written differently is the same feed.
    expect(
      await refusal(`  ${feeds.url("/overlap.ics").replace("http:", "HTTP:")}  `, CONFIG.outbound),
    ).toEqual(["owner.calendarFeeds.errors.duplicate"]);
    const rows = await deps()
      .db.select({ url: calendarFeeds.url })
      .from(calendarFeeds)
      .where(and(eq(calendarFeeds.propertyId, THIRD!)));
    expect(rows).toEqual([{ url: feeds.url("/overlap.ics") }]);
  });
});
