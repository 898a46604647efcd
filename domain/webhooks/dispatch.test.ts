import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { webhookDeliveries } from "#db/schema/index.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { expectErrorLog } from "#tests/setup/error-log.ts";
import { documentedVerify, serveWebhookReceiver } from "#tests/setup/webhook-receiver.ts";
import type { Deps } from "../deps.ts";
import { ValidationError } from "../errors.ts";
import type { WebhookEventType as EventType } from "../events/event-types.ts";
import { recordEvent } from "../events/record-event.ts";
import { deliverDueWebhooks, fanOutEvents, type WebhookConfig } from "./dispatch.ts";
import {
  listWebhookDeliveries,
  registerWebhook,
  rotateWebhookSecret,
  setWebhookPaused,
} from "./endpoints.ts";

const CONFIG: WebhookConfig = {
  outbound: { allowPrivateNetworks: true, timeoutMs: 2000 },
  retry: { baseMs: 10, maxMs: 20, maxAttempts: 50 },
  probeMinMs: 10,
  probeMaxMs: 20,
};
const CLOSED: WebhookConfig = { ...CONFIG, outbound: { allowPrivateNetworks: false } };
const CONTACT = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" };

interface Body {
  id: string;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
  contact?: unknown;
}

describeEachBackend(
  "webhook dispatch",
  (database, backend) => {
    const receiver = serveWebhookReceiver();
    const deps = () => database().deps;

    const register = (path: string, events: EventType[], includeContact = false) =>
      registerWebhook(deps(), CONFIG.outbound, {
        url: receiver.url(path),
        events,
        includeContact,
        createdBy: "staff:admin@castellum.test",
      });
    const record = (type: EventType, reference: string) =>
      recordEvent(deps().db, {
        type,
        data: { collection: "bookings", id: reference, reference, status: "New", actor: "guest" },
        contact: CONTACT,
      });
    const hitsOf = (path: string) => receiver.received.filter((hit) => hit.path === path);
    /** Runs the dispatcher (fan-out, then delivery) until `done`, at most 10 s. */
    const dispatchUntil = async (done: () => boolean, config = CONFIG, who: Deps = deps()) => {
      const deadline = Date.now() + 10_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error("the dispatcher did not get there in 10 s");
        await fanOutEvents(who);
        await deliverDueWebhooks(who, config);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };

    it("signs request.created and request.status_changed as docs/webhooks.md verifies, contact only where allowed", async () => {
      const verify = await documentedVerify();
      const open = await register("/signed", ["request.created", "request.status_changed"]);
      const withContact = await register("/contact", ["request.created"], true);
      const created = await record("request.created", "PB-SIGNED");
      const changed = await record("request.status_changed", "PB-SIGNED");
      await dispatchUntil(() => hitsOf("/signed").length >= 2 && hitsOf("/contact").length >= 1);

      const signed = hitsOf("/signed");
      expect(signed.map((hit) => hit.headers["castellum-event-id"]).sort()).toEqual(
        [created, changed].sort(),
      );
      for (const hit of signed) {
        const header = String(hit.headers["castellum-signature"]);
        expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
        expect(verify(open.secret, header, hit.body)).toBe(true);
        expect(verify(withContact.secret, header, hit.body)).toBe(false);
        expect(verify(open.secret, header, hit.body.replace("PB-SIGNED", "PB-FORGED"))).toBe(false);
        expect(hit.headers["content-type"]).toBe("application/json");
        const body = JSON.parse(hit.body) as Body;
        expect(body.id).toBe(hit.headers["castellum-event-id"]);
        expect(body.data).toMatchObject({ reference: "PB-SIGNED" });
        expect(body).not.toHaveProperty("contact");
        expect(hit.body).not.toContain("ada@example.com");
      }
      const [contactHit] = hitsOf("/contact");
      const body = JSON.parse(contactHit!.body) as Body;
      expect(body).toMatchObject({ id: created, type: "request.created", contact: CONTACT });
      expect(
        verify(
          withContact.secret,
          String(contactHit!.headers["castellum-signature"]),
          contactHit!.body,
        ),
      ).toBe(true);
    });

    it("keeps every event through an outage (refused, then 500) and delivers each once it is back", async () => {
      const endpoint = await register("/outage", ["block.changed"]);
      receiver.mode = "fail";
      const first = await record("block.changed", "B-1");
      await dispatchUntil(() => hitsOf("/outage").length >= 2);
      await receiver.refuse();
      const second = await record("block.changed", "B-2");
      await fanOutEvents(deps());
      // The new delivery is due at once: this run tries it, and meets the refused connection.
      const run = await deliverDueWebhooks(deps(), CONFIG);
      expect(run.unreachable).toEqual([endpoint.id]);
      const waiting = await deps()
        .db.select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.eventId, second));
      // While refused: waiting, not failed, no attempt spent on the outage.
      expect(waiting).toMatchObject([{ status: "pending", attempts: 0 }]);
      expect(waiting[0]!.lastError).toMatch(/network/);
      await receiver.listen();
      receiver.mode = "ok";
      await dispatchUntil(() =>
        [first, second].every((id) => receiver.deliveredIds().includes(id)),
      );
      const rows = await deps().db.select().from(webhookDeliveries);
      expect(rows.filter((row) => [first, second].includes(row.eventId))).toEqual([
        expect.objectContaining({ status: "delivered" }),
        expect.objectContaining({ status: "delivered" }),
      ]);
    });

    it("sends nothing to a paused endpoint until it is resumed, then what was queued", async () => {
      const paused = await register("/paused", ["stay.confirmed"]);
      await setWebhookPaused(deps(), paused.id, true);
      const held = await record("stay.confirmed", "PB-HELD");
      for (let run = 0; run < 3; run += 1) {
        await fanOutEvents(deps());
        await deliverDueWebhooks(deps(), CONFIG);
      }
      expect(hitsOf("/paused")).toHaveLength(0);
      expect(await listWebhookDeliveries(deps(), paused.id)).toMatchObject([
        { eventId: held, status: "pending", attempts: 0 },
      ]);
      await setWebhookPaused(deps(), paused.id, false);
      await dispatchUntil(() => hitsOf("/paused").length === 1);
      expect(hitsOf("/paused")[0]!.headers["castellum-event-id"]).toBe(held);
    });

    it("signs with the new secret once rotated, and does not send events from before an endpoint existed", async () => {
      const verify = await documentedVerify();
      const before = await record("request.expired", "PB-BEFORE");
      const endpoint = await register("/rotated", ["request.expired"]);
      const rotated = await rotateWebhookSecret(deps(), endpoint.id);
      expect(rotated!.secret).not.toBe(endpoint.secret);
      const after = await record("request.expired", "PB-AFTER");
      await dispatchUntil(() => hitsOf("/rotated").length === 1);
      await fanOutEvents(deps());
      await deliverDueWebhooks(deps(), CONFIG);
      const [hit, ...more] = hitsOf("/rotated");
      expect(more).toHaveLength(0);
      expect(hit!.headers["castellum-event-id"]).toBe(after);
      expect(hit!.headers["castellum-event-id"]).not.toBe(before);
      const header = String(hit!.headers["castellum-signature"]);
      expect(verify(rotated!.secret, header, hit!.body)).toBe(true);
      expect(verify(endpoint.secret, header, hit!.body)).toBe(false);
    });

    it("refuses a private address without the switch, at registration and at delivery", async () => {
      await expect(
        registerWebhook(deps(), CLOSED.outbound, {
          url: receiver.url("/private"),
          events: ["request.created"],
          includeContact: false,
          createdBy: "staff:admin@castellum.test",
        }),
      ).rejects.toThrow(ValidationError);
      const endpoint = await register("/private", ["request.message_received"]);
      await record("request.message_received", "PB-PRIVATE");
      await fanOutEvents(deps());
      expectErrorLog(/webhook delivery failed; given up/);
      await deliverDueWebhooks(deps(), CLOSED);
      expect(hitsOf("/private")).toHaveLength(0);
      expect(await listWebhookDeliveries(deps(), endpoint.id)).toMatchObject([
        { status: "failed", lastError: expect.stringMatching(/^blocked_address/) as unknown },
      ]);
    });

    it("does not follow a redirect", async () => {
      const endpoint = await register("/moved", ["request.message_received"]);
      receiver.mode = { redirectTo: receiver.url("/elsewhere") };
      await record("request.message_received", "PB-MOVED");
      await fanOutEvents(deps());
      expectErrorLog(/webhook delivery failed; given up/);
      await deliverDueWebhooks(deps(), CONFIG);
      receiver.mode = "ok";
      expect(hitsOf("/moved").length).toBeGreaterThan(0);
      expect(hitsOf("/elsewhere")).toHaveLength(0);
      const log = await listWebhookDeliveries(deps(), endpoint.id);
      expect(log!.filter((row) => row.eventType === "request.message_received")).toMatchObject([
        { status: "failed", lastError: expect.stringMatching(/^too_many_redirects/) as unknown },
      ]);
    });

    it.runIf(backend === "postgres")(
      "two dispatchers on one database do not send a delivery twice in one round",
      async () => {
        await register("/pair", ["request.created"]);
        const ids: string[] = [];
        for (let index = 0; index < 30; index += 1)
          ids.push(await record("request.created", `PB-PAIR-${index}`));
        await fanOutEvents(deps());
        // Two dispatchers at once, each on its own pooled connection, as two instances would be.
        await Promise.all([
          deliverDueWebhooks(deps(), CONFIG, { batch: 20 }),
          deliverDueWebhooks(deps(), CONFIG, { batch: 20 }),
        ]);
        const pairHits = () =>
          hitsOf("/pair").map((hit) => String(hit.headers["castellum-event-id"]));
        // Each claimed its own: none was sent by both.
        expect(pairHits()).toHaveLength(new Set(pairHits()).size);
        await dispatchUntil(() => new Set(pairHits()).size === ids.length);
        expect(pairHits()).toHaveLength(ids.length);
        expect(new Set(pairHits())).toEqual(new Set(ids));
      },
    );
  },
  { seed: false },
);
