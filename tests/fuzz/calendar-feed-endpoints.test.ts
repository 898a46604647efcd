import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { calendarFeeds, properties, propertyClaims } from "#db/schema/index.ts";
import { createSession } from "#domain/auth/sessions.ts";
import { describeEachBackend } from "../setup/database.ts";
import { createTestStaff } from "../setup/staff.ts";
import { type FuzzEndpoint, fuzzApp, fuzzEndpoint, logReport } from "./harness.ts";
import { encodePathSegment, FUZZ_TIMEOUT_MS, hostileBodies, hostileString } from "./hostile.ts";

const ESTATE_ID = 16;

/**
 * Addresses a person might type, none of which the app may fetch (the fuzz app refuses
 * private networks, as production does): loopback, private, link-local, the cloud metadata
 * address, a name that does not resolve, another scheme. None is stored, and no request leaves.
 */
const URLS = [
  "http://127.0.0.1:1/a.ics",
  "http://[::1]/a.ics",
  "http://[::ffff:127.0.0.1]/a.ics",
  "http://10.0.0.1/cal.ics",
  "http://169.254.169.254/latest/meta-data/",
  "http://localhost:9/x.ics",
  "https://calendar.invalid/feed.ics",
  "webcal://calendar.invalid/feed.ics",
  "file:///etc/passwd",
  "https://",
];

describeEachBackend("fuzzing the iCal calls", (database) => {
  const server = fuzzApp(database, { ADMIN_EMAIL_DOMAIN: "castellum.test" });
  let adminCookie = "";
  let ownerCookie = "";
  /** A feed for the staff calls and one for the owner's: each synced, then removed. */
  const feedIds = { staff: randomUUID(), owner: randomUUID() };

  beforeAll(async () => {
    const deps = database().deps;
    const admin = await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
    adminCookie = `castellum_session=${(await createSession(deps, { role: "staff", staffUserId: admin.id }, {})).token}`;
    const [estate] = await deps.db
      .select({ ownerEmail: properties.ownerEmail })
      .from(properties)
      .where(eq(properties.id, ESTATE_ID));
    await deps.db
      .insert(propertyClaims)
      .values({ propertyId: ESTATE_ID, email: estate!.ownerEmail });
    ownerCookie = `castellum_session=${(await createSession(deps, { role: "owner", ownerEmail: estate!.ownerEmail }, {})).token}`;
    // Feeds to sync and remove: their address is refused at every fetch, so a sync is quick.
    for (const [who, id] of Object.entries(feedIds))
      await deps.db.insert(calendarFeeds).values({
        id,
        propertyId: ESTATE_ID,
        url: `http://127.0.0.1:1/${who}.ics`,
        createdBy: "staff:admin@castellum.test",
        nextSyncAt: new Date(Date.now() + 3_600_000),
      });
  });

  const asAdmin = () => ({ cookie: adminCookie });
  const asOwner = () => ({ cookie: ownerCookie });
  const url = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...URLS) },
    { weight: 1, arbitrary: hostileString },
  );
  /** A feed id in a path: the real one, another UUID, or hostile text. */
  const feedPathId = (who: keyof typeof feedIds) =>
    fc.oneof(
      fc.constant(null).map(() => feedIds[who]),
      fc.uuid(),
      hostileString.map((text) => encodePathSegment(text.slice(0, 200))),
    );
  /** An estate id in a path: the estate, another, or hostile text. */
  const estatePathId = fc.oneof(
    { weight: 3, arbitrary: fc.constant(String(ESTATE_ID)) },
    { weight: 1, arbitrary: fc.constantFrom("0", "-1", "2147483648", "1e3", "99999") },
    { weight: 1, arbitrary: hostileString.map((text) => encodePathSegment(text.slice(0, 100))) },
  );
  const noBody = fc.option(hostileBodies({ propertyId: ESTATE_ID }), { nil: undefined });
  /** A feed's choices: booleans, missing, or hostile values in their place. */
  const choice = fc.oneof(fc.boolean(), fc.constant(undefined), hostileString);
  const choices = fc
    .tuple(choice, choice)
    .chain(([timedEventsClose, passOn]) => hostileBodies({ timedEventsClose, passOn }));

  const endpoints: (FuzzEndpoint & { name: string })[] = [
    {
      name: "POST /api/admin/estates/{id}/calendar-feeds",
      method: "POST",
      documented: "/api/admin/estates/{id}/calendar-feeds",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          estatePathId,
          url.chain((value) => hostileBodies({ url: value })),
        )
        .map(([id, body]) => ({ path: `/api/admin/estates/${id}/calendar-feeds`, body })),
    },
    {
      name: "POST /api/admin/estates/{id}/calendar-feeds/{feedId}/sync",
      method: "POST",
      documented: "/api/admin/estates/{id}/calendar-feeds/{feedId}/sync",
      baseHeaders: asAdmin,
      cases: fc.tuple(estatePathId, feedPathId("staff"), noBody).map(([id, feed, body]) => ({
        path: `/api/admin/estates/${id}/calendar-feeds/${feed}/sync`,
        body,
      })),
    },
    {
      name: "PATCH /api/admin/estates/{id}/calendar-feeds/{feedId}",
      method: "PATCH",
      documented: "/api/admin/estates/{id}/calendar-feeds/{feedId}",
      baseHeaders: asAdmin,
      cases: fc.tuple(estatePathId, feedPathId("staff"), choices).map(([id, feed, body]) => ({
        path: `/api/admin/estates/${id}/calendar-feeds/${feed}`,
        body,
      })),
    },
    {
      name: "DELETE /api/admin/estates/{id}/calendar-feeds/{feedId}",
      method: "DELETE",
      documented: "/api/admin/estates/{id}/calendar-feeds/{feedId}",
      baseHeaders: asAdmin,
      cases: fc.tuple(estatePathId, feedPathId("staff"), noBody).map(([id, feed, body]) => ({
        path: `/api/admin/estates/${id}/calendar-feeds/${feed}`,
        body,
      })),
    },
    {
      name: "POST /api/admin/estates/{id}/ical-url",
      method: "POST",
      documented: "/api/admin/estates/{id}/ical-url",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(estatePathId, noBody)
        .map(([id, body]) => ({ path: `/api/admin/estates/${id}/ical-url`, body })),
    },
    {
      name: "POST /api/property-owners/calendar-feeds",
      method: "POST",
      documented: "/api/property-owners/calendar-feeds",
      baseHeaders: asOwner,
      cases: url
        .chain((value) =>
          fc.oneof(
            hostileBodies({ url: value }),
            hostileBodies({ url: value, propertyId: ESTATE_ID }),
          ),
        )
        .map((body) => ({ path: "/api/property-owners/calendar-feeds", body })),
    },
    {
      name: "POST /api/property-owners/calendar-feeds/{feedId}/sync",
      method: "POST",
      documented: "/api/property-owners/calendar-feeds/{feedId}/sync",
      baseHeaders: asOwner,
      cases: fc.tuple(feedPathId("owner"), noBody).map(([feed, body]) => ({
        path: `/api/property-owners/calendar-feeds/${feed}/sync`,
        body,
      })),
    },
    {
      name: "PATCH /api/property-owners/calendar-feeds/{feedId}",
      method: "PATCH",
      documented: "/api/property-owners/calendar-feeds/{feedId}",
      baseHeaders: asOwner,
      cases: fc.tuple(feedPathId("owner"), choices).map(([feed, body]) => ({
        path: `/api/property-owners/calendar-feeds/${feed}`,
        body,
      })),
    },
    {
      name: "DELETE /api/property-owners/calendar-feeds/{feedId}",
      method: "DELETE",
      documented: "/api/property-owners/calendar-feeds/{feedId}",
      baseHeaders: asOwner,
      cases: fc
        .tuple(feedPathId("owner"), noBody)
        .map(([feed, body]) => ({ path: `/api/property-owners/calendar-feeds/${feed}`, body })),
    },
    {
      name: "POST /api/property-owners/calendar/ical-url",
      method: "POST",
      documented: "/api/property-owners/calendar/ical-url",
      baseHeaders: asOwner,
      cases: noBody.map((body) => ({ path: "/api/property-owners/calendar/ical-url", body })),
    },
  ];

  for (const endpoint of endpoints)
    it(
      `${endpoint.name}: no 5xx, documented refusals`,
      async () => {
        logReport(endpoint.name, await fuzzEndpoint(server(), endpoint));
      },
      FUZZ_TIMEOUT_MS,
    );

  it("stored no address it must not fetch (and removed the two feeds)", async () => {
    const stored = await database()
      .deps.db.select({ url: calendarFeeds.url })
      .from(calendarFeeds)
      .where(eq(calendarFeeds.propertyId, ESTATE_ID));
    expect(stored).toEqual([]);
  });
});
