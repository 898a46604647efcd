import { describe, beforeAll, expect, it, vi } from "vitest";
import { webhookEndpoints } from "#db/schema/index.ts";
import { createSession } from "#domain/auth/sessions.ts";
import {
  listWebhookDeliveries,
  listWebhooks,
  registerWebhook,
  rotateWebhookSecret,
  sendTestWebhook,
} from "#domain/webhooks/webhooks.contract.ts";
import { dataOf } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { serveIntake, submitGuestForm, validPropertyBooking } from "#tests/setup/intake.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";
import { documentedVerify, serveWebhookReceiver } from "#tests/setup/webhook-receiver.ts";

describeEachBackend("the webhook API", (database) => {
  const receiver = serveWebhookReceiver();
  const server = serveIntake(
    () => database().deps,
    () => ({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: true }),
  );
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    const deps = database().deps;
    await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
    await createTestStaff(deps, "clerk@castellum.test", { isAdmin: false });
    await createTestStaff(deps, "boss@other.test", { isAdmin: true });
    for (const email of ["admin@castellum.test", "clerk@castellum.test", "boss@other.test"])
      cookies[email] = await signIn(server().url, email);
    const session = await createSession(
      deps,
      { role: "owner", ownerEmail: "owner@example.com" },
      {},
    );
    cookies.owner = `castellum_session=${session.token}`;
  });

  const call = (method: string, path: string, options: Parameters<typeof staffCall>[3] = {}) =>
    staffCall(server().url, method, path, { cookie: cookies["admin@castellum.test"], ...options });

  it("delivers a guest's request and its status change, signed as docs/webhooks.md verifies", async () => {
    const verify = await documentedVerify();
    const registered = dataOf(
      registerWebhook,
      await call("POST", "/api/admin/webhooks", {
        body: { url: receiver.url("/crm"), events: ["request.created", "request.status_changed"] },
      }),
      201,
    );
    expect(registered.secret).toMatch(/^whsec_/);
    const { endpoints } = dataOf(listWebhooks, await call("GET", "/api/admin/webhooks"), 200);
    expect(endpoints).toMatchObject([
      { id: registered.id, url: receiver.url("/crm"), paused: false, includeContact: false },
    ]);
    expect(JSON.stringify(endpoints)).not.toContain(registered.secret);

    const sent = await submitGuestForm(server().url, "/bookings", validPropertyBooking());
    const changed = await call("PATCH", `/api/bookings/${sent.id}`, {
      body: { status: "Contacted" },
    });
    expect(changed.status).toBe(200);
    const hits = () => receiver.received.filter((hit) => hit.path === "/crm");
    // Both events were recorded with the writes they announce, and a dispatcher pass fans them
    // out and sends them. The mail job locks the same events as it reads them (SKIP LOCKED): a
    // pass that meets its lock leaves that event to the next pass, so passes run until both
    // have arrived.
    await vi.waitFor(
      async () => {
        await server().services.webhooks.worker.runNow();
        expect(hits()).toHaveLength(2);
      },
      { timeout: 10_000, interval: 50 },
    );
    const bodies = hits().map((hit) => {
      expect(verify(registered.secret, String(hit.headers["castellum-signature"]), hit.body)).toBe(
        true,
      );
      return JSON.parse(hit.body) as { type: string; data: Record<string, unknown> };
    });
    expect(bodies.map((body) => body.type).sort()).toEqual([
      "request.created",
      "request.status_changed",
    ]);
    const change = bodies.find((body) => body.type === "request.status_changed")!;
    expect(change.data).toMatchObject({
      collection: "bookings",
      id: sent.id,
      reference: sent.reference,
      status: "Contacted",
      previousStatus: "New",
      actor: "staff",
    });
    expect(change).not.toHaveProperty("contact");
    expect(JSON.stringify(bodies)).not.toContain(String(validPropertyBooking().email));

    const log = dataOf(
      listWebhookDeliveries,
      await call("GET", `/api/admin/webhooks/${registered.id}/deliveries`),
      200,
    );
    expect(log.deliveries.map((row) => row.status)).toEqual(["delivered", "delivered"]);
    const listed = dataOf(listWebhooks, await call("GET", "/api/admin/webhooks"), 200);
    expect(listed.endpoints[0]).toMatchObject({ pendingCount: 0, failedCount: 0 });
    expect(listed.endpoints[0]!.lastDeliveredAt).not.toBeNull();
  });

  it("sends a test event signed with the rotated secret, pauses, resumes and deletes", async () => {
    const verify = await documentedVerify();
    const { id } = dataOf(
      registerWebhook,
      await call("POST", "/api/admin/webhooks", {
        body: { url: receiver.url("/ops"), events: ["block.changed"], includeContact: true },
      }),
      201,
    );
    const rotated = dataOf(
      rotateWebhookSecret,
      await call("POST", `/api/admin/webhooks/${id}/rotate-secret`),
      200,
    );
    expect((await call("POST", `/api/admin/webhooks/${id}/pause`)).status).toBe(200);
    const test = dataOf(sendTestWebhook, await call("POST", `/api/admin/webhooks/${id}/test`), 200);
    expect(test).toMatchObject({ eventType: "webhook.test", status: "pending" });
    const hits = () => receiver.received.filter((hit) => hit.path === "/ops");
    // A whole dispatcher pass after the test event: it would have been delivered in it.
    await server().services.webhooks.worker.runNow();
    expect(hits()).toHaveLength(0);
    expect((await call("POST", `/api/admin/webhooks/${id}/resume`)).status).toBe(200);
    await server().services.webhooks.worker.runNow();
    expect(hits()).toHaveLength(1);
    const [hit] = hits();
    expect(hit!.headers["castellum-event-id"]).toBe(test.eventId);
    expect(verify(rotated.secret, String(hit!.headers["castellum-signature"]), hit!.body)).toBe(
      true,
    );
    expect((await call("DELETE", `/api/admin/webhooks/${id}`)).status).toBe(204);
    expect((await call("GET", `/api/admin/webhooks/${id}/deliveries`)).status).toBe(404);
  });

  it("refuses a private address when the switch is off, and malformed input", async () => {
    const bad = await call("POST", "/api/admin/webhooks", {
      body: { url: "ftp://example.com/x", events: ["request.created"] },
    });
    expect(bad.status).toBe(400);
    const none = await call("POST", "/api/admin/webhooks", {
      body: { url: receiver.url("/none"), events: [] },
    });
    expect(none.status).toBe(400);
    expect((await call("POST", "/api/admin/webhooks/not-a-uuid/pause")).status).toBe(404);
  });

  /** Every call, by every kind of caller: only a company admin passes. */
  describe("authorisation matrix", () => {
    let endpointId = "";
    beforeAll(async () => {
      const [row] = await database()
        .deps.db.insert(webhookEndpoints)
        .values({
          id: crypto.randomUUID(),
          url: "https://hooks.example.com/matrix",
          events: ["request.created"],
          secret: "whsec_matrix",
          createdBy: "staff:admin@castellum.test",
        })
        .returning();
      endpointId = row!.id;
    });
    const endpoints = () =>
      [
        [
          "POST",
          "/api/admin/webhooks",
          { url: "https://hooks.example.com/x", events: ["request.created"] },
        ],
        ["GET", "/api/admin/webhooks"],
        ["POST", `/api/admin/webhooks/${endpointId}/pause`],
        ["POST", `/api/admin/webhooks/${endpointId}/resume`],
        ["POST", `/api/admin/webhooks/${endpointId}/rotate-secret`],
        ["POST", `/api/admin/webhooks/${endpointId}/test`],
        ["GET", `/api/admin/webhooks/${endpointId}/deliveries`],
        ["DELETE", `/api/admin/webhooks/${endpointId}`],
      ] as const;
    const callers = [
      ["anonymous", undefined, 401, "Please sign in to the staff area.", "not_signed_in"],
      ["property owner", "owner", 401, "Please sign in to the staff area.", "not_signed_in"],
      [
        "staff who is not an admin",
        "clerk@castellum.test",
        403,
        "This account may not use the staff area.",
        "not_admin",
      ],
      [
        "admin of another domain",
        "boss@other.test",
        403,
        "Only company-domain email addresses are authorized to access admin features.",
        "access_denied",
      ],
    ] as const;
    for (const [who, key, status, message, code] of callers)
      it(`refuses the ${who} everywhere with ${status} and no data`, async () => {
        for (const [method, path, body] of endpoints()) {
          const answer = await staffCall(server().url, method, path, {
            cookie: key ? cookies[key] : undefined,
            body,
          });
          expect(answer.status, `${method} ${path}`).toBe(status);
          expect(answer.body, `${method} ${path}`).toEqual({ message, code });
        }
        const rows = await database().deps.db.select().from(webhookEndpoints);
        expect(rows.find((row) => row.id === endpointId)).toMatchObject({
          secret: "whsec_matrix",
          pausedAt: null,
        });
        expect(rows.filter((row) => row.url === "https://hooks.example.com/x")).toEqual([]);
      });

    it("lets the admin through everywhere", async () => {
      const statuses: number[] = [];
      for (const [method, path, body] of endpoints())
        statuses.push((await call(method, path, { body })).status);
      // The registration resolves hooks.example.com: refused (400) or registered (201) as DNS allows.
      expect(statuses.slice(1)).toEqual([200, 200, 200, 200, 200, 200, 204]);
      expect([201, 400]).toContain(statuses[0]);
    });
  });
});

describe("the signature check that docs/webhooks.md gives receivers", () => {
  it("answers false, never throws, for a delivery without a signature or with a broken one", async () => {
    const verify = await documentedVerify();
    const missing = undefined as unknown as string;
    for (const header of [missing, "", "garbage", "t=1", "v1=abc", `t=${Date.now()},v1=`])
      expect(verify("a-secret", header, '{"id":"x"}'), String(header)).toBe(false);
  });
});
