import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import ical, { type VEvent } from "node-ical";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { calendarEntries, calendarFeeds, guestRequests, propertyClaims } from "#db/schema/index.ts";
import { createSession } from "#domain/auth/sessions.ts";
import { ErrorSchema, ValidationErrorSchema } from "#domain/api/operation.ts";
import { syncFeed } from "#domain/calendar/feed-sync.ts";
import { addCalendarFeed } from "#domain/calendar/feeds.ts";
import {
  addEstateCalendarFeed,
  addOwnerCalendarFeed,
  listEstateCalendarFeeds,
  listOwnerCalendarFeeds,
  rotateEstateIcalUrl,
  syncEstateCalendarFeed,
  syncOwnerCalendarFeed,
  updateEstateCalendarFeed,
  updateOwnerCalendarFeed,
} from "#domain/calendar/feeds.contract.ts";
import { dataOf } from "#tests/setup/api.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { allDayCalendar, serveFeeds } from "#tests/setup/feed-server.ts";
import { serveIntake } from "#tests/setup/intake.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";

const [ESTATE, OTHER, THIRD] = DEMO_CATALOGUE.slice(0, 3).map((estate) => ({
  id: estate.id,
  email: estate.ownerEmail.toLowerCase(),
}));

/** What a guest wrote, and staff's note: none of it may reach the export feed. */
const PRIVATE = {
  firstName: "Ottoline",
  lastName: "Featherstonehaugh",
  email: "ottoline@guests.example",
  phone: "+44 20 7946 0000",
  note: "Keys under the third urn",
};

/** An all-day date as node-ical gives it (midnight where the process runs), as YYYY-MM-DD. */
const dayOf = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;

describeEachBackend("the iCal calls", (database) => {
  const feeds = serveFeeds();
  /** Every log line the server writes, to check what it writes about the export feed. */
  const logLines: string[] = [];
  const server = serveIntake(
    () => ({
      ...database().deps,
      log: pino(
        { level: "info", base: undefined },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            logLines.push(chunk.toString("utf8"));
            done();
          },
        }),
      ),
    }),
    () => ({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: true }),
  );
  // The same app as it runs in production: private networks refused.
  const strict = serveIntake(() => database().deps);
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    const deps = database().deps;
    await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
    await createTestStaff(deps, "clerk@castellum.test", { isAdmin: false });
    await createTestStaff(deps, "boss@other.test", { isAdmin: true });
    for (const email of ["admin@castellum.test", "clerk@castellum.test", "boss@other.test"])
      cookies[email] = await signIn(server().url, email);
    cookies.strictAdmin = await signIn(strict().url, "admin@castellum.test");
    for (const [key, estate] of [
      ["owner", ESTATE!],
      ["otherOwner", OTHER!],
    ] as const) {
      await deps.db.insert(propertyClaims).values({ propertyId: estate.id, email: estate.email });
      const session = await createSession(deps, { role: "owner", ownerEmail: estate.email }, {});
      cookies[key] = `castellum_session=${session.token}`;
    }
  });

  const call = (method: string, path: string, options: Parameters<typeof staffCall>[3] = {}) =>
    staffCall(server().url, method, path, { cookie: cookies["admin@castellum.test"], ...options });
  const staffPath = (id: number | string, rest = "") => `/api/admin/estates/${id}${rest}`;

  /** A confirmed stay with a guest's details, a block with a note, and an imported busy time. */
  async function fillCalendar(propertyId: number) {
    const deps = database().deps;
    const requestId = randomUUID();
    await deps.db.insert(guestRequests).values({
      id: requestId,
      kind: "property_booking",
      reference: `PB-${requestId.slice(0, 8)}`,
      status: "Confirmed",
      language: "en",
      email: PRIVATE.email,
      firstName: PRIVATE.firstName,
      lastName: PRIVATE.lastName,
      phone: PRIVATE.phone,
      propertyId,
      stayStart: "2027-07-05",
      stayEnd: "2027-07-10",
      details: { message: PRIVATE.note },
      statusTokenHash: randomUUID(),
    });
    const stayId = randomUUID();
    const blockId = randomUUID();
    await deps.db.insert(calendarEntries).values([
      { id: stayId, propertyId, nights: "[2027-07-05,2027-07-10)", source: "stay", requestId },
      {
        id: blockId,
        propertyId,
        nights: "[2027-08-01,2027-08-03)",
        source: "block",
        kind: "owner_stay",
        note: PRIVATE.note,
        createdBy: `owner:${PRIVATE.email}`,
      },
    ]);
    feeds.serve(
      "/elsewhere.ics",
      allDayCalendar([["elsewhere@channel", "2027-09-01", "2027-09-05"]]),
    );
    const feed = await addCalendarFeed(
      deps,
      { allowPrivateNetworks: true },
      {
        propertyId,
        url: feeds.url("/elsewhere.ics"),
        createdBy: "staff:admin@castellum.test",
        now: new Date(),
      },
    );
    const synced = await call("POST", staffPath(propertyId, `/calendar-feeds/${feed.id}/sync`));
    expect(dataOf(syncEstateCalendarFeed, synced, 200)).toMatchObject({
      eventCount: 1,
      lastError: null,
    });
    return { stayId, blockId };
  }

  const readExport = async (icalUrl: string) => {
    const response = await fetch(`${server().url}${new URL(icalUrl).pathname}`);
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  describe("the export feed", () => {
    it("lists stays and blocks as busy days, stable, with nothing personal; rotating ends the old address", async () => {
      const { stayId, blockId } = await fillCalendar(ESTATE!.id);
      const listed = dataOf(
        listEstateCalendarFeeds,
        await call("GET", staffPath(ESTATE!.id, "/calendar-feeds")),
        200,
      );
      expect(listed.icalUrl).toMatch(
        new RegExp(`^http://localhost/api/ical/${ESTATE!.id}\\.[\\w-]{43}\\.ics$`),
      );

      const first = await readExport(listed.icalUrl);
      expect(first.status).toBe(200);
      expect(first.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
      expect(first.headers.get("cache-control")).toBe("private, no-store");
      // Named after the estate, as a channel lists its imported calendars.
      expect(first.text).toMatch(/^X-WR-CALNAME:\S.* \(Castellum\)\r?$/m);
      expect(first.text).not.toMatch(/^X-WR-CALNAME:Castellum\r?$/m);
      const events = Object.values(ical.sync.parseICS(first.text))
        .filter((component) => component?.type === "VEVENT")
        .map((component) => {
          const event = component as VEvent;
          return {
            uid: event.uid,
            summary: event.summary,
            allDay: event.datetype,
            start: dayOf(event.start),
            end: event.end && dayOf(event.end),
            transparency: event.transparency,
          };
        })
        .sort((a, b) => (a.start < b.start ? -1 : 1));
      // The imported busy time of September is not sent back out.
      expect(events).toEqual([
        {
          uid: `${stayId}@localhost`,
          summary: "Reserved",
          allDay: "date",
          start: "2027-07-05",
          end: "2027-07-10",
          transparency: "OPAQUE",
        },
        {
          uid: `${blockId}@localhost`,
          summary: "Blocked",
          allDay: "date",
          start: "2027-08-01",
          end: "2027-08-03",
          transparency: "OPAQUE",
        },
      ]);
      expect(first.text).toMatch(/DTSTART;VALUE=DATE:20270705\r\n/);
      expect(first.text).toMatch(/DTSTAMP:\d{8}T\d{6}Z\r\n/);
      for (const secret of [...Object.values(PRIVATE), "owner_stay", "elsewhere", "PB-"])
        expect(first.text).not.toContain(secret);
      // Read again: the same calendar, to the byte.
      expect((await readExport(listed.icalUrl)).text).toBe(first.text);

      // The address never reaches the logs; the request does, redacted.
      const token = new URL(listed.icalUrl).pathname.split("/").at(-1)!;
      expect(logLines.join("\n")).not.toContain(token.split(".")[1]);
      expect(logLines.some((line) => line.includes('"url":"/api/ical/[redacted]"'))).toBe(true);

      // Rotated: the old address is 404, the new one serves the same events.
      const rotated = dataOf(
        rotateEstateIcalUrl,
        await call("POST", staffPath(ESTATE!.id, "/ical-url")),
        200,
      );
      expect(rotated.icalUrl).not.toBe(listed.icalUrl);
      const old = await readExport(listed.icalUrl);
      expect(old.status).toBe(404);
      expect(old.headers.get("cache-control")).toBe("private, no-store");
      expect((await readExport(rotated.icalUrl)).text).toBe(first.text);
      // The owner sees the new address, and rotating as the owner ends it in turn.
      const owners = dataOf(
        listOwnerCalendarFeeds,
        await call("GET", "/api/property-owners/calendar-feeds", { cookie: cookies.owner }),
        200,
      );
      expect(owners.icalUrl).toBe(rotated.icalUrl);
      const byOwner = await call("POST", "/api/property-owners/calendar/ical-url", {
        cookie: cookies.owner,
      });
      expect(byOwner.status).toBe(200);
      expect((await readExport(rotated.icalUrl)).status).toBe(404);
    });

    it("answers 404 to a token that is forged, of another estate, or malformed", async () => {
      const { icalUrl } = dataOf(
        listEstateCalendarFeeds,
        await call("GET", staffPath(OTHER!.id, "/calendar-feeds")),
        200,
      );
      const path = new URL(icalUrl).pathname;
      const signature = path.split(".")[1]!;
      for (const forged of [
        path.replace(`/${OTHER!.id}.`, `/${ESTATE!.id}.`),
        path.replace(
          signature,
          signature.replace(/^./, (c) => (c === "A" ? "B" : "A")),
        ),
        path.replace(".ics", ".ical"),
        path.replace(".ics", ""),
        "/api/ical/1.ics",
        "/api/ical/..%2F..%2Fetc%2Fpasswd.ics",
        `/api/ical/${"9".repeat(300)}.ics`,
      ]) {
        const response = await fetch(`${server().url}${forged}`);
        expect({ forged, status: response.status }).toEqual({ forged, status: 404 });
      }
      expect((await fetch(`${server().url}${path}`)).status).toBe(200);
    });
  });

  describe("passing imported busy times on", () => {
    const FOURTH = DEMO_CATALOGUE[3]!.id;

    it("lists a feed's busy times in the export once chosen, marked, and never reads them back", async () => {
      const { stayId } = await fillCalendar(FOURTH);
      const listed = dataOf(
        listEstateCalendarFeeds,
        await call("GET", staffPath(FOURTH, "/calendar-feeds")),
        200,
      );
      const [feed] = listed.feeds;
      expect(feed).toMatchObject({ passOn: false, timedEventsClose: true, nightsClosed: 4 });
      const busyOf = (text: string) =>
        Object.values(ical.sync.parseICS(text))
          .filter((component) => component?.type === "VEVENT")
          .map((component) => component as VEvent)
          .filter((event) => event.summary === "Busy")
          .map((event) => [dayOf(event.start), event.end && dayOf(event.end)]);
      // Off by default: the imported busy time stays out of the export.
      expect(busyOf((await readExport(listed.icalUrl)).text)).toEqual([]);

      const chosen = await call("PATCH", staffPath(FOURTH, `/calendar-feeds/${feed!.id}`), {
        body: { passOn: true },
      });
      expect(dataOf(updateEstateCalendarFeed, chosen, 200)).toMatchObject({
        id: feed!.id,
        passOn: true,
        timedEventsClose: true,
      });
      const exported = (await readExport(listed.icalUrl)).text;
      expect(busyOf(exported)).toEqual([["2027-09-01", "2027-09-05"]]);
      // Every event carries our mark, and a UID at our host.
      const marks = exported.match(/^X-CASTELLUM-ORIGIN:(\w+)\r?$/gm) ?? [];
      expect(marks.map((line) => line.trim()).sort()).toEqual([
        "X-CASTELLUM-ORIGIN:castellum",
        "X-CASTELLUM-ORIGIN:castellum",
        "X-CASTELLUM-ORIGIN:imported",
      ]);
      expect(exported).toContain(`UID:${stayId}@localhost`);

      // The other site hands our export back as its own: nothing of it is imported.
      feeds.serve("/echo.ics", exported);
      const echo = await addCalendarFeed(
        database().deps,
        { allowPrivateNetworks: true },
        {
          propertyId: FOURTH,
          url: feeds.url("/echo.ics"),
          createdBy: "staff:admin@castellum.test",
          now: new Date(),
        },
      );
      const synced = await call("POST", staffPath(FOURTH, `/calendar-feeds/${echo.id}/sync`));
      expect(dataOf(syncEstateCalendarFeed, synced, 200)).toMatchObject({
        lastError: null,
        eventCount: 0,
      });
      // Even with its marks stripped (a site that keeps only UIDs), our UIDs stay out.
      feeds.serve("/echo.ics", exported.replace(/^X-CASTELLUM-ORIGIN:.*\r\n/gm, ""));
      await syncFeed(database().deps, server().services.calendarFeeds.config, echo.id, new Date());
      const [, stripped] = dataOf(
        listEstateCalendarFeeds,
        await call("GET", staffPath(FOURTH, "/calendar-feeds")),
        200,
      ).feeds;
      expect(stripped).toMatchObject({ id: echo.id, lastError: null, eventCount: 0 });
    });

    it("changes a feed's choices as staff and as the owner, with the same schema's refusals", async () => {
      feeds.serve("/choices.ics", allDayCalendar([["c1@x", "2027-04-01", "2027-04-03"]]));
      const feed = await addCalendarFeed(
        database().deps,
        { allowPrivateNetworks: true },
        {
          propertyId: ESTATE!.id,
          url: feeds.url("/choices.ics"),
          createdBy: "staff:admin@castellum.test",
          // Not due: the sync job leaves it alone while its choices change.
          now: new Date(Date.now() + 3_600_000),
        },
      );
      const path = staffPath(ESTATE!.id, `/calendar-feeds/${feed.id}`);
      for (const body of [{}, { passOn: "yes" }, { timedEventsClose: null }, { other: true }]) {
        const refused = await call("PATCH", path, { body });
        expect({ body, status: refused.status }).toEqual({ body, status: 400 });
      }
      const refused = await call("PATCH", path, {
        body: {},
        headers: { "Accept-Language": "fr" },
      });
      expect(ValidationErrorSchema.parse(refused.body).errors?.[0]?.message).toBe(
        "Choisissez si les événements horaires ferment des nuits, ou si le calendrier est transmis",
      );
      // Another estate's feed is not there.
      expect(
        (
          await call("PATCH", staffPath(OTHER!.id, `/calendar-feeds/${feed.id}`), {
            body: { passOn: true },
          })
        ).status,
      ).toBe(404);
      const byOwner = await call(
        "PATCH",
        `/api/property-owners/calendar-feeds/${feed.id}?propertyId=${ESTATE!.id}`,
        { cookie: cookies.owner, body: { passOn: true, timedEventsClose: true } },
      );
      expect(dataOf(updateOwnerCalendarFeed, byOwner, 200)).toMatchObject({
        timedEventsClose: true,
        passOn: true,
      });
      const [stored] = await database()
        .deps.db.select({ passOn: calendarFeeds.passOn, nextSyncAt: calendarFeeds.nextSyncAt })
        .from(calendarFeeds)
        .where(eq(calendarFeeds.id, feed.id));
      // The same timed-events choice as before: the feed keeps its schedule.
      expect(stored).toEqual({ passOn: true, nextSyncAt: feed.nextSyncAt });
      expect((await call("DELETE", path)).status).toBe(204);
    });
  });

  describe("the imported feeds", () => {
    it("adds, reads, lists and removes a feed, as staff and as the owner", async () => {
      feeds.serve("/booking.ics", allDayCalendar([["b1@booking", "2027-03-01", "2027-03-04"]]));
      const added = await call("POST", staffPath(THIRD!.id, "/calendar-feeds"), {
        body: { url: feeds.url("/booking.ics") },
      });
      const feed = dataOf(addEstateCalendarFeed, added, 201);
      expect(feed).toMatchObject({
        url: feeds.url("/booking.ics"),
        eventCount: 0,
        lastSuccessAt: null,
      });
      const synced = dataOf(
        syncEstateCalendarFeed,
        await call("POST", staffPath(THIRD!.id, `/calendar-feeds/${feed.id}/sync`)),
        200,
      );
      expect(synced).toMatchObject({ id: feed.id, eventCount: 1, lastError: null });
      expect(synced.lastSuccessAt).not.toBeNull();
      // Read moments ago: not read again (a click cannot make the server fetch at will).
      const fetched = feeds.hits("/booking.ics");
      const again = await call("POST", staffPath(THIRD!.id, `/calendar-feeds/${feed.id}/sync`));
      expect(again.status).toBe(429);
      expect(ErrorSchema.parse(again.body).message).toMatch(
        /^This calendar was read moments ago\. It can be read again in \d+ seconds\.$/,
      );
      expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(50);
      expect(feeds.hits("/booking.ics")).toBe(fetched);
      // Broken: the answer says why, as a code, and the busy time read before stays.
      // (Read on schedule, which no click limits.) The feed's last success as stored: the
      // worker, kicked when the feed was added, may have read it too, just after the click.
      const [healthy] = dataOf(
        listEstateCalendarFeeds,
        await call("GET", staffPath(THIRD!.id, "/calendar-feeds")),
        200,
      ).feeds;
      feeds.serve("/booking.ics", "<html>maintenance</html>");
      await syncFeed(database().deps, server().services.calendarFeeds.config, feed.id, new Date());
      const [broken] = dataOf(
        listEstateCalendarFeeds,
        await call("GET", staffPath(THIRD!.id, "/calendar-feeds")),
        200,
      ).feeds;
      expect(healthy!.lastSuccessAt).not.toBeNull();
      expect(broken).toMatchObject({
        eventCount: 1,
        lastSuccessAt: healthy!.lastSuccessAt,
        lastError: { code: "not_calendar" },
      });
      const busy = await database()
        .deps.db.select({ nights: calendarEntries.nights })
        .from(calendarEntries)
        .where(eq(calendarEntries.feedId, feed.id));
      expect(busy).toEqual([{ nights: "[2027-03-01,2027-03-04)" }]);
      const listed = dataOf(
        listEstateCalendarFeeds,
        await call("GET", staffPath(THIRD!.id, "/calendar-feeds")),
        200,
      );
      expect(listed.feeds.map((f) => [f.id, f.lastError?.code])).toEqual([
        [feed.id, "not_calendar"],
      ]);

      // A duplicate, a private address on the production settings, a malformed one: 400s.
      const duplicate = await call("POST", staffPath(THIRD!.id, "/calendar-feeds"), {
        body: { url: feeds.url("/booking.ics") },
        headers: { "Accept-Language": "fr" },
      });
      expect(duplicate.status).toBe(400);
      expect(ValidationErrorSchema.parse(duplicate.body).errors).toEqual([
        { path: "url", message: "Ce calendrier est déjà importé" },
      ]);
      const inside = await staffCall(
        strict().url,
        "POST",
        staffPath(THIRD!.id, "/calendar-feeds"),
        {
          cookie: cookies.strictAdmin,
          body: { url: "http://localhost:8080/admin.ics" },
          headers: { "Accept-Language": "it" },
        },
      );
      expect(inside.status).toBe(400);
      expect(ValidationErrorSchema.parse(inside.body).errors).toEqual([
        {
          path: "url",
          message: "Questo indirizzo punta a una rete privata e non può essere usato",
        },
      ]);
      // Apple's and Outlook's webcal:// addresses are the same feed over https.
      const webcal = await call("POST", staffPath(THIRD!.id, "/calendar-feeds"), {
        body: { url: feeds.url("/apple.ics").replace(/^http:/, "webcal:") },
      });
      expect(dataOf(addEstateCalendarFeed, webcal, 201).url).toBe(
        feeds.url("/apple.ics").replace(/^http:/, "https:"),
      );
      for (const url of [
        "ftp://example.com/x.ics",
        "",
        `https://example.com/${"x".repeat(2100)}`,
      ]) {
        const refused = await call("POST", staffPath(THIRD!.id, "/calendar-feeds"), {
          body: { url },
        });
        expect({ url: url.slice(0, 30), status: refused.status }).toEqual({
          url: url.slice(0, 30),
          status: 400,
        });
        expect(ValidationErrorSchema.parse(refused.body).errors?.[0]?.path).toBe("url");
      }
      expect(
        (
          await call("POST", staffPath(THIRD!.id, "/calendar-feeds"), {
            body: { url: "https://a.example/x", extra: 1 },
          })
        ).status,
      ).toBe(400);

      // Removed: its busy times go with it.
      expect(
        (await call("DELETE", staffPath(THIRD!.id, `/calendar-feeds/${feed.id}`))).status,
      ).toBe(204);
      expect(
        await database()
          .deps.db.select()
          .from(calendarEntries)
          .where(eq(calendarEntries.feedId, feed.id)),
      ).toEqual([]);
      expect(
        (await call("DELETE", staffPath(THIRD!.id, `/calendar-feeds/${feed.id}`))).status,
      ).toBe(404);

      // The owner, on their own estate, without naming it.
      feeds.serve("/own.ics", allDayCalendar([["o1@own", "2027-04-01", "2027-04-02"]]));
      const own = dataOf(
        addOwnerCalendarFeed,
        await call("POST", "/api/property-owners/calendar-feeds", {
          cookie: cookies.owner,
          body: { url: feeds.url("/own.ics") },
        }),
        201,
      );
      const [row] = await database()
        .deps.db.select()
        .from(calendarFeeds)
        .where(eq(calendarFeeds.id, own.id));
      expect(row).toMatchObject({ propertyId: ESTATE!.id, createdBy: `owner:${ESTATE!.email}` });
      const ownSynced = dataOf(
        syncOwnerCalendarFeed,
        await call("POST", `/api/property-owners/calendar-feeds/${own.id}/sync`, {
          cookie: cookies.owner,
        }),
        200,
      );
      expect(ownSynced).toMatchObject({ eventCount: 1, lastError: null });
      expect(
        (
          await call("DELETE", `/api/property-owners/calendar-feeds/${own.id}`, {
            cookie: cookies.owner,
          })
        ).status,
      ).toBe(204);
    });
  });

  /** Every call, by every kind of caller: staff calls for the admin only, owner calls for the estate's owner and the admin. */
  describe("authorisation matrix", () => {
    let feedId = "";
    beforeAll(async () => {
      feeds.serve("/matrix.ics", allDayCalendar([["m1@x", "2027-05-01", "2027-05-02"]]));
      const feed = await addCalendarFeed(
        database().deps,
        { allowPrivateNetworks: true },
        {
          propertyId: ESTATE!.id,
          url: feeds.url("/matrix.ics"),
          createdBy: "staff:admin@castellum.test",
          now: new Date(),
        },
      );
      feedId = feed.id;
    });

    const staffCalls = () =>
      [
        ["GET", staffPath(ESTATE!.id, "/calendar-feeds")],
        ["POST", staffPath(ESTATE!.id, "/calendar-feeds"), { url: feeds.url("/matrix-staff.ics") }],
        ["POST", staffPath(ESTATE!.id, `/calendar-feeds/${feedId}/sync`)],
        ["POST", staffPath(ESTATE!.id, "/ical-url")],
        ["DELETE", staffPath(ESTATE!.id, `/calendar-feeds/${feedId}`)],
      ] as const;
    const ownerCalls = () =>
      [
        ["GET", `/api/property-owners/calendar-feeds?propertyId=${ESTATE!.id}`],
        [
          "POST",
          "/api/property-owners/calendar-feeds",
          { url: feeds.url("/matrix-owner.ics"), propertyId: ESTATE!.id },
        ],
        ["POST", `/api/property-owners/calendar-feeds/${feedId}/sync?propertyId=${ESTATE!.id}`],
        ["POST", `/api/property-owners/calendar/ical-url?propertyId=${ESTATE!.id}`],
        ["DELETE", `/api/property-owners/calendar-feeds/${feedId}?propertyId=${ESTATE!.id}`],
      ] as const;
    const countFeeds = async () =>
      (
        await database()
          .deps.db.select()
          .from(calendarFeeds)
          .where(eq(calendarFeeds.propertyId, ESTATE!.id))
      ).length;

    it("refuses every staff call to anyone but an admin, and every owner call to anyone but the estate's owner or an admin", async () => {
      const before = await countFeeds();
      const staffRefusals = [
        ["anonymous", undefined, 401],
        ["owner", "owner", 401],
        ["clerk", "clerk@castellum.test", 403],
        ["admin of another domain", "boss@other.test", 403],
      ] as const;
      for (const [who, key, status] of staffRefusals)
        for (const [method, path, body] of staffCalls()) {
          const answer = await staffCall(server().url, method, path, {
            cookie: key ? cookies[key] : undefined,
            body,
          });
          expect({ who, method, path, status: answer.status }).toEqual({
            who,
            method,
            path,
            status,
          });
        }
      const ownerRefusals = [
        ["anonymous", undefined, 401],
        ["owner of another estate", "otherOwner", 403],
        ["clerk", "clerk@castellum.test", 403],
        ["admin of another domain", "boss@other.test", 403],
      ] as const;
      for (const [who, key, status] of ownerRefusals)
        for (const [method, path, body] of ownerCalls()) {
          const answer = await staffCall(server().url, method, path, {
            cookie: key ? cookies[key] : undefined,
            body,
          });
          expect({ who, method, path, status: answer.status }).toEqual({
            who,
            method,
            path,
            status,
          });
        }
      // The other owner, on their own estate, cannot reach this estate's feed either: 404.
      for (const [method, path] of [
        ["POST", `/api/property-owners/calendar-feeds/${feedId}/sync`],
        ["DELETE", `/api/property-owners/calendar-feeds/${feedId}`],
      ] as const)
        expect(
          (await staffCall(server().url, method, path, { cookie: cookies.otherOwner })).status,
        ).toBe(404);
      // Nor staff through another estate's path; a malformed id names nothing.
      for (const [method, path, key] of [
        ["POST", staffPath(OTHER!.id, `/calendar-feeds/${feedId}/sync`), "admin@castellum.test"],
        ["DELETE", staffPath(OTHER!.id, `/calendar-feeds/${feedId}`), "admin@castellum.test"],
        ["GET", staffPath("12abc", "/calendar-feeds"), "admin@castellum.test"],
        ["GET", staffPath(999_999, "/calendar-feeds"), "admin@castellum.test"],
        ["POST", staffPath(ESTATE!.id, "/calendar-feeds/not-a-uuid/sync"), "admin@castellum.test"],
        ["DELETE", "/api/property-owners/calendar-feeds/not-a-uuid", "owner"],
      ] as const) {
        const answer = await call(method, path, { cookie: cookies[key] });
        expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      }
      // Nothing was added or removed by the refused calls.
      expect(await countFeeds()).toBe(before);
      // A cross-site page cannot change anything, even with the admin's cookie.
      const crossSite = await call("POST", staffPath(ESTATE!.id, "/ical-url"), {
        headers: { "Sec-Fetch-Site": "cross-site" },
      });
      expect(crossSite.status).toBe(403);
    });

    it("lets the admin through every staff call, and the owner and the admin through every owner call", async () => {
      const staffStatuses = [];
      for (const [method, path, body] of staffCalls())
        staffStatuses.push((await call(method, path, { body })).status);
      expect(staffStatuses).toEqual([200, 201, 200, 200, 204]);
      // Again for the owner calls: a feed to act on.
      const feed = await addCalendarFeed(
        database().deps,
        { allowPrivateNetworks: true },
        {
          propertyId: ESTATE!.id,
          url: feeds.url("/matrix.ics"),
          createdBy: "staff:admin@castellum.test",
          now: new Date(),
        },
      );
      feedId = feed.id;
      const ownerStatuses = [];
      for (const [method, path, body] of ownerCalls())
        ownerStatuses.push((await call(method, path, { body, cookie: cookies.owner })).status);
      expect(ownerStatuses).toEqual([200, 201, 200, 200, 204]);
      const again = await addCalendarFeed(
        database().deps,
        { allowPrivateNetworks: true },
        {
          propertyId: ESTATE!.id,
          url: feeds.url("/matrix.ics"),
          createdBy: "staff:admin@castellum.test",
          now: new Date(),
        },
      );
      feedId = again.id;
      const adminStatuses = [];
      for (const [method, path, body] of ownerCalls())
        adminStatuses.push(
          (
            await call(method, path, {
              body: body && { ...body, url: feeds.url("/matrix-admin.ics") },
            })
          ).status,
        );
      expect(adminStatuses).toEqual([200, 201, 200, 200, 204]);
    });
  });
});
