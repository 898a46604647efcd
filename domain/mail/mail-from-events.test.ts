import { randomUUID } from "node:crypto";
import { eq, isNull } from "drizzle-orm";
import { expect, it } from "vitest";
import { withTransaction } from "#db/client.ts";
import {
  domainEvents,
  guestRequests,
  mailOutbox,
  properties,
  propertyClaims,
} from "#db/schema/index.ts";
import { DEMO_CATALOGUE, describeEachBackend, secondInstance } from "#tests/setup/database.ts";
import { createTestStaff } from "#tests/setup/staff.ts";
import { manualClock } from "../clock.ts";
import { sendStaffMessage } from "../conversation/messages.ts";
import { keepStatusLink, statusLinkKey } from "../conversation/status-link.ts";
import type { Deps } from "../deps.ts";
import { recordEvent } from "../events/record-event.ts";
import { applyTransition, transitionRequest } from "../requests/apply-transition.ts";
import { hashStatusToken, makeReference, makeStatusToken } from "../requests/intake/reference.ts";
import { webhookBody } from "../webhooks/dispatch.ts";
import { type EventMailConfig, mailFromEvents } from "./mail-from-events.ts";

const T0 = new Date("2027-02-01T09:00:00Z");
const CONFIG: EventMailConfig = {
  staffEmail: "staff@castellum.test",
  staffLanguage: "en",
  publicUrl: "https://castellum.test",
};

/** A membership application as intake stores it, with its status link kept. */
async function submit(deps: Deps, language: "fr" | "zh" = "fr") {
  const id = randomUUID();
  const token = makeStatusToken();
  const email = `guest-${id.slice(0, 8)}@example.com`;
  const key = await statusLinkKey(deps);
  await withTransaction(deps.db, async (tx) => {
    await applyTransition(
      tx,
      null,
      {
        type: "submit",
        row: {
          id,
          kind: "membership",
          reference: makeReference("membership"),
          language,
          email,
          firstName: "Camille",
          lastName: "Durand",
          details: { firstName: "Camille", lastName: "Durand", email },
          statusTokenHash: hashStatusToken(token),
        },
        responseHours: 48,
      },
      { kind: "guest" },
      T0,
    );
    await keepStatusLink(tx, key, id, token);
  });
  return { id, token, email };
}

describeEachBackend("mail as a subscriber of events", (database, backend) => {
  const deps = () => ({ ...database().deps, clock: manualClock(T0) });
  const mailOf = (requestId: string) =>
    deps().db.select().from(mailOutbox).where(eq(mailOutbox.requestId, requestId));

  it("queues a new request's mail once, from its event, however many instances take events", async () => {
    const made = await Promise.all(Array.from({ length: 12 }, () => submit(deps())));
    // Nothing is mailed by the writer: the events wait for the mail job.
    expect(await mailOf(made[0]!.id)).toEqual([]);
    const second = await secondInstance(database(), backend);
    try {
      // Small batches, so the two instances interleave over the events.
      const runs = [deps(), { ...second.deps, clock: manualClock(T0) }].map(async (instance) => {
        while ((await mailFromEvents(instance, CONFIG, 3)) > 0);
      });
      await Promise.all(runs);
    } finally {
      await second.close();
    }
    for (const request of made) {
      const mails = await mailOf(request.id);
      expect(mails.map((mail) => mail.template).sort()).toEqual([
        "membership.confirmation",
        "membership.staff",
      ]);
      const confirmation = mails.find((mail) => mail.recipient === request.email);
      // The guest's link is rebuilt from its sealed copy, in the guest's language.
      expect(confirmation?.text).toContain(
        `https://castellum.test/requests/${request.token}?lang=fr`,
      );
    }
    expect(
      await deps().db.select().from(domainEvents).where(isNull(domainEvents.mailedAt)),
    ).toEqual([]);
  });

  it("tells the guest of a status change only when staff chose to, with the shared reason and the link", async () => {
    const request = await submit(deps(), "zh");
    await mailFromEvents(deps(), CONFIG);
    const staff = { kind: "staff", id: randomUUID(), email: "anna@castellum.test" } as const;
    const silent = await transitionRequest(deps(), {
      id: request.id,
      kind: "membership",
      transition: { type: "set_status", to: "Contacted" },
      actor: staff,
    });
    expect(silent).toMatchObject({ outcome: "applied" });
    const told = await transitionRequest(deps(), {
      id: request.id,
      kind: "membership",
      transition: {
        type: "set_status",
        to: "Declined",
        reason: "会员名额已满",
        shareReason: true,
        notifyGuest: true,
      },
      actor: staff,
    });
    expect(told).toMatchObject({ outcome: "applied" });
    await mailFromEvents(deps(), CONFIG);
    const statusMails = (await mailOf(request.id)).filter(
      (mail) => mail.template === "membership.status",
    );
    expect(statusMails).toHaveLength(1);
    expect(statusMails[0]?.text).toContain("会员名额已满");
    expect(statusMails[0]?.text).toContain(
      `https://castellum.test/requests/${request.token}?lang=zh`,
    );
  });

  it("mails a staff message to the guest with its text, which the event itself does not carry", async () => {
    const request = await submit(deps());
    await mailFromEvents(deps(), CONFIG);
    const anna = await createTestStaff(deps(), `anna-${randomUUID().slice(0, 6)}@castellum.test`, {
      displayName: "Anna",
    });
    const sent = await sendStaffMessage(deps(), {
      id: request.id,
      kind: "membership",
      body: "Nous vous attendons jeudi à 16 h.",
      actor: anna,
    });
    expect(sent.outcome).toBe("sent");
    const [event] = await deps()
      .db.select()
      .from(domainEvents)
      .where(eq(domainEvents.type, "request.message_sent"));
    expect(JSON.stringify(event)).not.toContain("jeudi");
    await mailFromEvents(deps(), CONFIG);
    const [mail] = (await mailOf(request.id)).filter(
      (row) => row.template === "membership.message",
    );
    expect(mail?.text).toContain("Nous vous attendons jeudi à 16 h.");
    expect(mail?.text).toContain(`/requests/${request.token}?lang=fr`);
    // Like every mail to a guest, it ends with the privacy notice in the guest's language.
    expect(mail?.text.trimEnd()).toMatch(
      /\nPolitique de confidentialité: https:\/\/castellum\.test\/privacy\?lang=fr$/,
    );
    expect(mail?.html).toContain('href="https://castellum.test/privacy?lang=fr"');
  });

  it("sends a request's mail to no one once the request is gone, and still marks its events", async () => {
    const request = await submit(deps());
    await deps().db.delete(guestRequests).where(eq(guestRequests.id, request.id));
    await mailFromEvents(deps(), CONFIG);
    expect(await mailOf(request.id)).toEqual([]);
    expect(
      await deps().db.select().from(domainEvents).where(isNull(domainEvents.mailedAt)),
    ).toEqual([]);
  });

  it("tells an estate's owner once of a request assigned to it before the mail job ran", async () => {
    const owner = `owner-${randomUUID().slice(0, 6)}@example.com`;
    const [estate] = await deps()
      .db.update(properties)
      .set({ ownerEmail: owner })
      .where(eq(properties.id, DEMO_CATALOGUE[2]!.id))
      .returning({ id: properties.id });
    await deps().db.insert(propertyClaims).values({ propertyId: estate!.id, email: owner });
    const id = randomUUID();
    await withTransaction(deps().db, (tx) =>
      applyTransition(
        tx,
        null,
        {
          type: "submit",
          row: {
            id,
            kind: "booking_request",
            reference: makeReference("booking_request"),
            language: "en",
            email: "general@example.com",
            firstName: "Ada",
            lastName: "Lovelace",
            details: { firstName: "Ada", lastName: "Lovelace" },
            statusTokenHash: hashStatusToken(makeStatusToken()),
          },
          responseHours: 48,
        },
        { kind: "guest" },
        T0,
      ),
    );
    // Staff name the estate before the mail job has taken the request's first event.
    const assigned = await transitionRequest(deps(), {
      id,
      kind: "booking_request",
      transition: {
        type: "set_stay",
        propertyId: estate!.id,
        nights: { start: "2027-05-01", end: "2027-05-04" },
      },
      actor: { kind: "staff", id: randomUUID(), email: "anna@castellum.test" },
    });
    expect(assigned).toMatchObject({ outcome: "applied" });
    await mailFromEvents(deps(), CONFIG);
    expect((await mailOf(id)).filter((mail) => mail.recipient === owner)).toHaveLength(1);
  });

  it("keeps what only Castellum's subscribers read out of a webhook's body", async () => {
    const id = await recordEvent(deps().db, {
      type: "request.status_changed",
      data: { id: randomUUID(), status: "Declined" },
      internal: { notifyGuest: true, sharedReason: "Fully booked" },
    });
    const [event] = await deps().db.select().from(domainEvents).where(eq(domainEvents.id, id));
    if (!event) throw new Error("not recorded");
    expect(webhookBody(event, true)).not.toContain("Fully booked");
    expect(JSON.parse(webhookBody(event, true))).not.toHaveProperty("internal");
  });
});
