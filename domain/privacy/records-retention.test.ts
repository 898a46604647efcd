import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import {
  domainEvents,
  mailOutbox,
  offers,
  payments,
  webhookDeliveries,
  webhookEndpoints,
} from "#db/schema/index.ts";
import { DEMO_CATALOGUE, describeEachBackend, secondInstance } from "#tests/setup/database.ts";
import { insertOfferableRequest } from "#tests/factories/offers.ts";
import type { Deps } from "../deps.ts";
import { pruneRecords } from "./records-retention.ts";

const NOW = new Date("2040-03-01T12:00:00Z");
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);
const ESTATE = DEMO_CATALOGUE[0]!.id;
const CONFIG = { retentionDays: 730, financialRecordsYears: 10 };
const at = (deps: Deps): Deps => ({ ...deps, clock: () => NOW });

describeEachBackend("pruning records on the guest data's clock", (database, backend) => {
  it("prunes old mail, event contacts, delivery logs and old payments' identifiers once, on two instances, and keeps the rest", async () => {
    const deps = at(database().deps);
    const mailDirectory = mkdtempSync(join(tmpdir(), "castellum-prune-"));

    // Mail not about a request: an owner's code sent long ago, one sent last week, one old but
    // never delivered (staff still have to decide on it).
    const mail = (createdAt: Date, status: "sent" | "failed") => ({
      id: randomUUID(),
      template: "owner-code",
      recipient: "owner@example.org",
      subject: "Your code",
      text: "123456",
      html: "<p>123456</p>",
      status,
      createdAt,
    });
    const oldSent = mail(ago(800), "sent");
    const recentSent = mail(ago(7), "sent");
    const oldFailed = mail(ago(800), "failed");
    await deps.db.insert(mailOutbox).values([oldSent, recentSent, oldFailed]);
    for (const { id } of [oldSent, recentSent])
      writeFileSync(join(mailDirectory, `${id}.eml`), "Subject: Your code\n\n123456\n");

    // Events that carried a guest's contact: an old one delivered, an old one still waiting
    // for a delivery, a recent one.
    const event = (occurredAt: Date) => ({
      id: randomUUID(),
      type: "request.created",
      data: { reference: "CAS-TEST" },
      contact: { firstName: "Léonie", email: "leonie@example.org" },
      internal: { sharedReason: "Léonie's dates" },
      occurredAt,
      mailedAt: occurredAt,
      fannedOutAt: occurredAt,
    });
    const oldDone = event(ago(800));
    const oldWaiting = event(ago(800));
    const recent = event(ago(10));
    await deps.db.insert(domainEvents).values([oldDone, oldWaiting, recent]);
    const endpoint = randomUUID();
    await deps.db.insert(webhookEndpoints).values({
      id: endpoint,
      url: "https://hooks.example.org/castellum",
      events: ["request.created"],
      secret: "whsec_test",
      includeContact: true,
      createdBy: "admin@castellum.test",
    });
    const delivery = (eventId: string, status: "delivered" | "pending", createdAt: Date) => ({
      id: randomUUID(),
      endpointId: endpoint,
      eventId,
      eventType: "request.created",
      status,
      lastError: status === "pending" ? "503 from leonie@example.org's relay" : null,
      createdAt,
    });
    const oldDelivery = delivery(oldDone.id, "delivered", ago(800));
    const pendingDelivery = delivery(oldWaiting.id, "pending", ago(800));
    const recentDelivery = delivery(recent.id, "delivered", ago(10));
    await deps.db.insert(webhookDeliveries).values([oldDelivery, pendingDelivery, recentDelivery]);

    // Payments: one received eleven years ago, one last year.
    const request = await insertOfferableRequest(deps, {
      propertyId: ESTATE,
      nights: { start: "2029-05-01", end: "2029-05-05" },
    });
    const offer = randomUUID();
    await deps.db.insert(offers).values({
      id: offer,
      requestId: request.id,
      propertyId: ESTATE,
      status: "accepted",
      currency: "EUR",
      lines: [],
      tax: 0,
      taxIncluded: true,
      total: 400_000,
      deposit: 120_000,
      balance: 280_000,
      checkIn: "2029-05-01",
      checkOut: "2029-05-05",
      guests: 2,
      cancellationPolicy: "moderate",
      expiresAt: ago(4100),
      guestCaslTx: "0xguestwallettransaction",
      createdBy: "anna@castellum.test",
      createdAt: ago(4110),
    });
    const [old, lastYear] = await deps.db
      .insert(payments)
      .values([
        {
          requestId: request.id,
          offerId: offer,
          kind: "deposit",
          method: "bank_transfer",
          amount: 120_000,
          currency: "EUR",
          reference: "Transfer from L. Marchetti",
          receivedAt: ago(4100),
          recordedBy: "anna@castellum.test",
          createdAt: ago(4100),
        },
        {
          requestId: request.id,
          offerId: offer,
          kind: "balance",
          method: "card",
          amount: 280_000,
          currency: "EUR",
          reference: "cs_test_recent",
          receivedAt: ago(300),
          recordedBy: "stripe",
          provider: "stripe",
          providerId: "cs_test_recent",
          createdAt: ago(300),
        },
      ])
      .returning();

    const other = await secondInstance(database(), backend);
    try {
      const runs = await Promise.all([
        pruneRecords(deps, { ...CONFIG, mailDirectory }),
        pruneRecords(at(other.deps), { ...CONFIG, mailDirectory }),
      ]);
      // Between them, each record once.
      const total = (key: keyof (typeof runs)[0]) => runs[0]![key] + runs[1]![key];
      expect(total("mails")).toBe(1);
      expect(total("events")).toBe(1);
      expect(total("deliveries")).toBe(1);
      expect(total("payments")).toBe(1);
    } finally {
      await other.close();
    }
    expect(await pruneRecords(deps, { ...CONFIG, mailDirectory })).toEqual({
      mails: 0,
      events: 0,
      deliveries: 0,
      payments: 0,
    });

    const mailsLeft = await deps.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(inArray(mailOutbox.id, [oldSent.id, recentSent.id, oldFailed.id]));
    expect(mailsLeft.map((row) => row.id).sort()).toEqual([recentSent.id, oldFailed.id].sort());
    expect(existsSync(join(mailDirectory, `${oldSent.id}.eml`))).toBe(false);
    expect(existsSync(join(mailDirectory, `${recentSent.id}.eml`))).toBe(true);

    const events = await deps.db
      .select({ id: domainEvents.id, contact: domainEvents.contact, data: domainEvents.data })
      .from(domainEvents)
      .where(inArray(domainEvents.id, [oldDone.id, oldWaiting.id, recent.id]));
    const contactOf = (id: string) => events.find((row) => row.id === id)?.contact;
    expect(contactOf(oldDone.id)).toBeNull();
    expect(contactOf(oldWaiting.id)).toEqual(oldWaiting.contact);
    expect(contactOf(recent.id)).toEqual(recent.contact);
    // What happened stays.
    expect(events.every((row) => row.data.reference === "CAS-TEST")).toBe(true);

    const deliveriesLeft = await deps.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint));
    expect(deliveriesLeft.map((row) => row.id).sort()).toEqual(
      [pendingDelivery.id, recentDelivery.id].sort(),
    );

    const ledger = await deps.db
      .select()
      .from(payments)
      .where(eq(payments.requestId, request.id))
      .orderBy(payments.id);
    expect(ledger).toEqual([
      { ...old, reference: "", providerId: null, anonymisedAt: NOW },
      lastYear,
    ]);
    const [offerAfter] = await deps.db
      .select({ guestCaslTx: offers.guestCaslTx, total: offers.total })
      .from(offers)
      .where(eq(offers.id, offer));
    expect(offerAfter).toEqual({ guestCaslTx: null, total: 400_000 });

    // The ledger still refuses any other change, anonymised or not.
    await expect(
      deps.db.update(payments).set({ amount: 1 }).where(eq(payments.id, old!.id)),
    ).rejects.toThrow();
    await expect(
      deps.db.update(payments).set({ reference: "" }).where(eq(payments.id, lastYear!.id)),
    ).rejects.toThrow();
    rmSync(mailDirectory, { recursive: true, force: true });
  });
});
