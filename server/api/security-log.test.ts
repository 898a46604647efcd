import { parse } from "csv-parse/sync";
import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { securityEvents } from "#db/schema/index.ts";
import { createSession } from "#domain/auth/sessions.ts";
import {
  exportSecurityEventsCsv,
  SECURITY_EXPORT_LIMIT,
  listSecurityEvents,
  type SecurityEventItem,
} from "#domain/security/security-log.contract.ts";
import { recordSecurityEvent } from "#domain/security/security-log.ts";
import { registerWebhook } from "#domain/webhooks/webhooks.contract.ts";
import { addEstateCalendarFeed } from "#domain/calendar/feeds.contract.ts";
import { dataOf } from "#tests/setup/api.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { allDayCalendar, serveFeeds } from "#tests/setup/feed-server.ts";
import { serveIntake } from "#tests/setup/intake.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";

const ADMIN = "sec-admin@castellum.test";
const CLERK = "sec-clerk@castellum.test";
const OUTSIDER = "sec-boss@other.test";
const OWNER = "sec-owner@example.com";

describeEachBackend("the security log API", (database) => {
  const feeds = serveFeeds();
  const server = serveIntake(
    () => database().deps,
    () => ({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: true }),
  );
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    const deps = database().deps;
    await createTestStaff(deps, ADMIN, { isAdmin: true });
    await createTestStaff(deps, CLERK, { isAdmin: false });
    await createTestStaff(deps, OUTSIDER, { isAdmin: true });
    for (const email of [ADMIN, CLERK, OUTSIDER])
      cookies[email] = await signIn(server().url, email);
    const owner = await createSession(deps, { role: "owner", ownerEmail: OWNER }, {});
    cookies.owner = `castellum_session=${owner.token}`;
  });

  /** A call with a user agent of its own, so the entries it causes can be found by it. */
  const call = (
    who: string | null,
    method: string,
    path: string,
    options: { body?: unknown; userAgent?: string } = {},
  ) =>
    staffCall(server().url, method, path, {
      cookie: who ? cookies[who] : undefined,
      body: options.body,
      headers: options.userAgent ? { "User-Agent": options.userAgent } : {},
    });

  /** The entries recorded with this user agent, oldest first. */
  const entriesOf = async (userAgent: string) =>
    database()
      .deps.db.select()
      .from(securityEvents)
      .where(eq(securityEvents.userAgent, userAgent))
      .orderBy(securityEvents.id);

  const page = async (query: string) =>
    dataOf(
      listSecurityEvents,
      await call(ADMIN, "GET", `/api/admin/security-events?${query}`),
      200,
    );

  it("answers admins only, and records each refusal once, with the route and not the id", async () => {
    const agent = `matrix-${crypto.randomUUID()}`;
    const id = crypto.randomUUID();
    for (const path of ["/api/admin/security-events", "/api/admin/security-events/export.csv"]) {
      expect((await call(null, "GET", path, { userAgent: agent })).status).toBe(401);
      expect((await call("owner", "GET", path, { userAgent: agent })).status).toBe(401);
      expect((await call(CLERK, "GET", path, { userAgent: agent })).status).toBe(403);
      expect((await call(OUTSIDER, "GET", path, { userAgent: agent })).status).toBe(403);
      expect((await call(ADMIN, "GET", path, { userAgent: agent })).status).toBe(200);
    }
    expect(
      (await call(null, "GET", `/api/admin/webhooks/${id}/deliveries`, { userAgent: agent }))
        .status,
    ).toBe(401);

    const refused = (await entriesOf(agent)).filter((row) => row.type === "access.refused");
    const listPath = "/api/admin/security-events";
    const csvPath = "/api/admin/security-events/export.csv";
    expect(
      refused.map((row) => [row.actorKind, row.actorEmail, row.data.status, row.data.path]),
    ).toEqual([
      ["anonymous", null, 401, listPath],
      ["owner", OWNER, 401, listPath],
      ["staff", CLERK, 403, listPath],
      ["staff", OUTSIDER, 403, listPath],
      ["anonymous", null, 401, csvPath],
      ["owner", OWNER, 401, csvPath],
      ["staff", CLERK, 403, csvPath],
      ["staff", OUTSIDER, 403, csvPath],
      ["anonymous", null, 401, "/api/admin/webhooks/{id}/deliveries"],
    ]);
    for (const row of refused) {
      expect(row.ip).toMatch(/127\.0\.0\.1|::1/);
      expect(row.data.method).toBe("GET");
    }
    expect(JSON.stringify(refused)).not.toContain(id);
  });

  it("records a refused owner call, and not a public 404", async () => {
    const agent = `owner-${crypto.randomUUID()}`;
    expect(
      (await call(null, "GET", "/api/property-owners/property-details", { userAgent: agent }))
        .status,
    ).toBe(401);
    expect(
      (
        await call(CLERK, "GET", `/api/property-owners/property-details?propertyId=1`, {
          userAgent: agent,
        })
      ).status,
    ).toBe(403);
    expect((await call(null, "GET", "/api/no-such-thing", { userAgent: agent })).status).toBe(404);
    expect((await call(null, "GET", "/api/ical/not-a-feed.ics", { userAgent: agent })).status).toBe(
      404,
    );
    const rows = await entriesOf(agent);
    expect(rows.map((row) => [row.type, row.data.status, row.data.path])).toEqual([
      ["access.refused", 401, "/api/property-owners/property-details"],
      ["access.refused", 403, "/api/property-owners/property-details"],
    ]);
  });

  it("pages newest first by the last id, with no row twice and none left out", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}-${crypto.randomUUID().slice(0, 8)}`;
    const db = database().deps.db;
    const created: number[] = [];
    for (let i = 0; i < 7; i++) {
      await recordSecurityEvent(db, {
        type: "sign_in.failed",
        actor: { kind: "anonymous", email: `pager${i}@example.com` },
        client: { ip, userAgent: "pager" },
        data: { reason: "wrong_password" },
      });
      const [row] = await db
        .select({ id: securityEvents.id })
        .from(securityEvents)
        .where(eq(securityEvents.actorEmail, `pager${i}@example.com`))
        .orderBy(sql`${securityEvents.id} desc`)
        .limit(1);
      created.push(row!.id);
    }
    const seen: SecurityEventItem[][] = [];
    let cursor: number | null | undefined;
    do {
      const answer = await page(
        `ip=${encodeURIComponent(ip)}&limit=3${cursor ? `&cursor=${cursor}` : ""}`,
      );
      seen.push(answer.events);
      cursor = answer.nextCursor;
    } while (cursor);
    expect(seen.map((events) => events.length)).toEqual([3, 3, 1]);
    expect(seen.flat().map((event) => event.id)).toEqual([...created].reverse());
    // Exactly a page's worth: no empty page after it.
    const three = await page(`ip=${encodeURIComponent(ip)}&limit=7`);
    expect(three.events).toHaveLength(7);
    expect(three.nextCursor).toBeNull();
  });

  it("filters by kind, group, email, address, day and outcome", async () => {
    const db = database().deps.db;
    const ip = `203.0.113.77-${crypto.randomUUID().slice(0, 8)}`;
    const client = { ip, userAgent: "filters" };
    await recordSecurityEvent(db, {
      type: "sign_in.failed",
      actor: { kind: "anonymous", email: "Ada@Example.com" },
      client,
      data: { reason: "wrong_password" },
    });
    await recordSecurityEvent(db, {
      type: "sign_in.succeeded",
      actor: { kind: "staff", staffUserId: crypto.randomUUID(), email: "ada@example.com" },
      client,
    });
    await recordSecurityEvent(db, {
      type: "owner.code_requested",
      actor: { kind: "owner", email: "bea@example.com" },
      client,
    });
    const types = async (query: string) =>
      (await page(`ip=${encodeURIComponent(ip)}&${query}`)).events.map((event) => event.type);
    expect(await types("")).toEqual([
      "owner.code_requested",
      "sign_in.succeeded",
      "sign_in.failed",
    ]);
    expect(await types("type=sign_in")).toEqual(["sign_in.succeeded", "sign_in.failed"]);
    expect(await types("type=sign_in.failed")).toEqual(["sign_in.failed"]);
    expect(await types("email=ADA%40example.com")).toEqual(["sign_in.succeeded", "sign_in.failed"]);
    expect(await types("outcome=failure")).toEqual(["sign_in.failed"]);
    expect(await types("outcome=success")).toEqual(["owner.code_requested", "sign_in.succeeded"]);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(await types(`from=${today}&to=${today}`)).toHaveLength(3);
    expect(await types(`from=${tomorrow}`)).toEqual([]);
    expect(await types(`to=${yesterday}`)).toEqual([]);
    // The first and last days a timestamp holds bound nothing (the day after the last was a 500:
    // JavaScript writes it "+010000-01-01", which the database refuses).
    expect(await types("from=0001-01-01&to=9999-12-31")).toHaveLength(3);
    const refused = [
      "type=sign_in.nope",
      "from=2026-13-45",
      "from=2026-02-30", // no such day: it is not read as 2 March
      "from=0000-01-01", // year 0, which the database refuses
      "cursor=-1",
      "limit=500",
    ];
    for (const bad of refused)
      expect((await call(ADMIN, "GET", `/api/admin/security-events?${bad}`)).status).toBe(400);
  });

  it("exports the filtered log as CSV that parses back, every cell quoted, and records the export", async () => {
    const db = database().deps.db;
    const ip = `192.0.2.5-${crypto.randomUUID().slice(0, 8)}`;
    const hostile = "Ada;=cmd|' /C calc'!A0;x";
    await recordSecurityEvent(db, {
      type: "sign_in.failed",
      actor: { kind: "anonymous", email: "csv@example.com" },
      client: { ip, userAgent: hostile },
      data: { reason: "unknown_account" },
    });
    await recordSecurityEvent(db, {
      type: "sign_out",
      actor: { kind: "anonymous" },
      client: { ip, userAgent: "=1+1" },
    });
    const agent = `export-${crypto.randomUUID()}`;
    const answer = await call(
      ADMIN,
      "GET",
      `/api/admin/security-events/export.csv?ip=${encodeURIComponent(ip)}`,
      { userAgent: agent },
    );
    expect(answer.status).toBe(200);
    expect(exportSecurityEventsCsv.responses[200].contentType).toBe("text/csv");
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("content-disposition")).toMatch(
      /^attachment; filename="security-events-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = answer.text.replace(/^\uFEFF/, "");
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => [row.type, row.actorEmail, row.ip])).toEqual([
      ["sign_out", "", ip],
      ["sign_in.failed", "csv@example.com", ip],
    ]);
    expect(JSON.parse(rows[1]!.data!)).toEqual({ reason: "unknown_account" });
    // No cell, nor any part after a separator, starts a formula.
    expect(rows[0]!.userAgent).toBe("'=1+1");
    expect(rows[1]!.userAgent).toBe("Ada;'=cmd|' /C calc'!A0;x");
    // Every cell is quoted, the header's too.
    for (const line of text.trim().split("\n")) expect(line).toMatch(/^"[^]*"$/);

    const [recorded] = await entriesOf(agent);
    expect(recorded).toMatchObject({
      type: "export.csv",
      actorKind: "staff",
      actorEmail: ADMIN,
      data: { export: "security-events", filters: { ip } },
    });
    expect(recorded!.ip).toMatch(/127\.0\.0\.1|::1/);
  });

  it("allows an admin a bounded number of exports in the window, then 429 with Retry-After", async () => {
    // An admin of their own, so the other tests' exports do not count here.
    const keeper = "exporter@castellum.test";
    await createTestStaff(database().deps, keeper, { isAdmin: true });
    cookies[keeper] = await signIn(server().url, keeper);
    const path = "/api/admin/security-events/export.csv?type=lockout";
    const statuses: number[] = [];
    for (let i = 0; i <= SECURITY_EXPORT_LIMIT.max; i += 1)
      statuses.push((await call(keeper, "GET", path)).status);
    expect(statuses).toEqual([
      ...Array.from({ length: SECURITY_EXPORT_LIMIT.max }, () => 200),
      429,
    ]);
    const refused = await call(keeper, "GET", path);
    dataOf(exportSecurityEventsCsv, refused, 429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another admin still exports.
    expect((await call(ADMIN, "GET", path)).status).toBe(200);
  });

  it("records the inbox's CSV export with its filters, a search only as one", async () => {
    const agent = `inbox-${crypto.randomUUID()}`;
    const answer = await call(ADMIN, "GET", "/api/bookings/export.csv?status=New&q=Camille", {
      userAgent: agent,
    });
    expect(answer.status).toBe(200);
    const rows = await entriesOf(agent);
    expect(rows.map((row) => [row.type, row.actorEmail, row.data])).toEqual([
      [
        "export.csv",
        ADMIN,
        {
          export: "inbox",
          kind: "property_booking",
          filters: { status: "New", q: "[search]", sort: "newest" },
        },
      ],
    ]);
  });

  it("records every webhook change, by whom and from where, never the secret", async () => {
    const agent = `hooks-${crypto.randomUUID()}`;
    const registered = dataOf(
      registerWebhook,
      await call(ADMIN, "POST", "/api/admin/webhooks", {
        userAgent: agent,
        body: { url: "http://127.0.0.1:9/crm?key=k3y-in-the-query", events: ["request.created"] },
      }),
      201,
    );
    const base = `/api/admin/webhooks/${registered.id}`;
    for (const [method, path, status] of [
      ["POST", `${base}/pause`, 200],
      ["POST", `${base}/resume`, 200],
      ["POST", `${base}/rotate-secret`, 200],
      ["POST", `${base}/test`, 200],
      ["DELETE", base, 204],
    ] as const)
      expect((await call(ADMIN, method, path, { userAgent: agent })).status, path).toBe(status);
    const rows = await entriesOf(agent);
    expect(rows.map((row) => [row.type, row.actorEmail, row.data.action, row.data.id])).toEqual(
      ["registered", "paused", "resumed", "rotated", "test_sent", "deleted"].map((action) => [
        "webhook.changed",
        ADMIN,
        action,
        registered.id,
      ]),
    );
    expect(rows[0]!.data.origin).toBe("http://127.0.0.1:9");
    const written = JSON.stringify(rows);
    expect(written).not.toContain(registered.secret);
    expect(written).not.toContain("k3y-in-the-query");
  });

  it("records calendar feeds added and removed and the export address rotated", async () => {
    const agent = `feeds-${crypto.randomUUID()}`;
    const estate = DEMO_CATALOGUE[4]!.id;
    feeds.serve("/seclog.ics?token=feed-secret", allDayCalendar([]));
    const added = dataOf(
      addEstateCalendarFeed,
      await call(ADMIN, "POST", `/api/admin/estates/${estate}/calendar-feeds`, {
        userAgent: agent,
        body: { url: feeds.url("/seclog.ics?token=feed-secret") },
      }),
      201,
    );
    const rotated = await call(ADMIN, "POST", `/api/admin/estates/${estate}/ical-url`, {
      userAgent: agent,
    });
    expect(rotated.status).toBe(200);
    const removed = await call(
      ADMIN,
      "DELETE",
      `/api/admin/estates/${estate}/calendar-feeds/${added.id}`,
      { userAgent: agent },
    );
    expect(removed.status).toBe(204);
    const rows = await entriesOf(agent);
    expect(
      rows.map((row) => [row.type, row.actorEmail, row.data.action, row.data.propertyId]),
    ).toEqual([
      ["calendar_feed.changed", ADMIN, "created", estate],
      ["calendar_feed.changed", ADMIN, "export_rotated", estate],
      ["calendar_feed.changed", ADMIN, "deleted", estate],
    ]);
    expect(rows[0]!.data.feedId).toBe(added.id);
    const written = JSON.stringify(rows);
    expect(written).not.toContain("feed-secret");
    const { icalUrl } = rotated.body as { icalUrl: string };
    expect(written).not.toContain(icalUrl.split("/").at(-1)!);
  });
});
