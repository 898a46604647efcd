import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import {
  calendarEntries,
  domainEvents,
  guestRequestMessages,
  guestRequestNotes,
  guestRequests,
  guestRequestStatusHistory,
  guestRequestStatusLinks,
  mailOutbox,
  ownerRequestViews,
} from "#db/schema/index.ts";
import { DEMO_CATALOGUE, describeEachBackend, secondInstance } from "#tests/setup/database.ts";
import { insertOfferableRequest } from "#tests/factories/offers.ts";
import { addDays } from "../calendar/nights.ts";
import type { Deps } from "../deps.ts";
import { mailFromEvents } from "../mail/mail-from-events.ts";
import { deliverDueMail, enqueueMail } from "../mail/mail-outbox.ts";
import { createMailTransport } from "../mail/transport.ts";
import { transitionRequest } from "../requests/apply-transition.ts";
import { getRequestDetail, listInbox } from "../staff/inbox.ts";
import { InboxFilterSchema } from "../staff/inbox.schema.ts";
import { KEPT_DETAILS, runGuestDataRetention } from "./erase-guest.ts";

const T0 = new Date("2027-01-10T09:00:00Z");
const STAFF = { kind: "staff" as const, id: randomUUID(), email: "anna@castellum.test" };
const ESTATE = DEMO_CATALOGUE[0]!.id;
/** A window of minutes, as the test asks: five. */
const FIVE_MINUTES = 5 / (24 * 60);
const when = (deps: Deps, now: Date): Deps => ({ ...deps, clock: () => now });
const MAIL_CONFIG = {
  publicUrl: "https://castellum.test",
  staffEmail: "requests@castellum.test",
  staffLanguage: "en" as const,
};

let weeks = 0;
function nights() {
  const start = addDays("2027-05-03", 8 * weeks++);
  return { start, end: addDays(start, 5) };
}

async function rowOf(deps: Deps, id: string) {
  const [row] = await deps.db.select().from(guestRequests).where(eq(guestRequests.id, id));
  return row!;
}

async function countOf(
  deps: Deps,
  table:
    | typeof guestRequestMessages
    | typeof guestRequestNotes
    | typeof guestRequestStatusLinks
    | typeof mailOutbox
    | typeof calendarEntries
    | typeof guestRequestStatusHistory,
  id: string,
) {
  const [row] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(eq(table.requestId, id));
  return row!.n;
}

describeEachBackend("the guest-data retention job", (database, backend) => {
  const deps = () => when(database().deps, T0);

  it("erases a closed request's guest data everywhere once, on two instances, and keeps its nights and history", async () => {
    const stay = nights();
    const done = await insertOfferableRequest(deps(), {
      propertyId: ESTATE,
      nights: stay,
      createdAt: T0,
    });
    expect(
      await transitionRequest(deps(), {
        id: done.id,
        kind: done.kind,
        transition: { type: "set_status", to: "Confirmed", reason: "Welcome, Camille" },
        actor: STAFF,
      }),
    ).toMatchObject({ outcome: "applied" });
    await deps().db.insert(guestRequestMessages).values({
      requestId: done.id,
      author: "guest",
      body: "We arrive with our dog Biscuit, call me on +33 6 12 34 56 78",
    });
    await deps().db.insert(guestRequestNotes).values({
      requestId: done.id,
      authorName: "Anna",
      body: "Camille is a returning guest",
    });
    await deps().db.insert(guestRequestStatusLinks).values({
      requestId: done.id,
      sealedToken: "sealed",
    });
    await deps().db.insert(ownerRequestViews).values({
      requestId: done.id,
      propertyId: ESTATE,
      agree: true,
      note: "Camille stayed in 2024",
      actorRole: "owner",
      actorEmail: "owner@example.com",
    });
    await enqueueMail(deps().db, [
      {
        template: "status.confirmed",
        recipient: done.email,
        subject: "Confirmed",
        text: "Dear Camille",
        html: "<p>Dear Camille</p>",
        requestId: done.id,
      },
    ]);
    const mailDirectory = mkdtempSync(join(tmpdir(), "castellum-retention-"));
    const transport = createMailTransport({
      from: "Castellum <no-reply@castellum.test>",
      directory: mailDirectory,
      messageIdDomain: "castellum.test",
    });
    await deliverDueMail(deps(), transport);
    transport.close();
    const [mail] = await deps()
      .db.select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(eq(mailOutbox.requestId, done.id));
    const eml = join(mailDirectory, `${mail!.id}.eml`);
    expect(existsSync(eml)).toBe(true);

    // Still open, however old: kept. Closed a minute ago: kept.
    const open = await insertOfferableRequest(deps(), { propertyId: ESTATE, nights: nights() });
    const recent = await insertOfferableRequest(deps(), { propertyId: ESTATE, nights: nights() });
    const now = new Date(`${addDays(stay.end, 30)}T12:00:00Z`);
    await deps()
      .db.update(guestRequests)
      .set({ status: "Rejected", updatedAt: new Date(now.getTime() - 60_000) })
      .where(eq(guestRequests.id, recent.id));
    const historyBefore = await countOf(deps(), guestRequestStatusHistory, done.id);
    const before = await rowOf(deps(), done.id);

    const other = await secondInstance(database(), backend);
    try {
      const config = { retentionDays: FIVE_MINUTES, mailDirectory };
      const counts = await Promise.all([
        runGuestDataRetention(when(deps(), now), config),
        runGuestDataRetention(when(other.deps, now), config),
      ]);
      // The suite's own database: this request is the only one past retention, erased once.
      expect(counts[0]! + counts[1]!).toBe(1);
      expect(await runGuestDataRetention(when(deps(), now), config)).toBe(0);
    } finally {
      await other.close();
      rmSync(mailDirectory, { recursive: true, force: true });
    }

    const after = await rowOf(deps(), done.id);
    expect(after).toMatchObject({
      firstName: "",
      lastName: "",
      email: "",
      phone: "",
      reference: before.reference,
      kind: before.kind,
      status: "Confirmed",
      propertyId: ESTATE,
      stayStart: stay.start,
      stayEnd: stay.end,
    });
    expect(after.erasedAt?.getTime()).toBe(now.getTime());
    expect(
      Object.keys(after.details).every((key) => (KEPT_DETAILS as readonly string[]).includes(key)),
    ).toBe(true);
    expect(after.details).toMatchObject({ numberOfGuests: 2 });
    expect(after.statusTokenHash).not.toBe(before.statusTokenHash);
    // Its nights and its history stay; what was written about the guest goes.
    expect(await countOf(deps(), calendarEntries, done.id)).toBe(1);
    expect(await countOf(deps(), guestRequestStatusHistory, done.id)).toBe(historyBefore);
    const reasons = await deps()
      .db.select({ reason: guestRequestStatusHistory.reason })
      .from(guestRequestStatusHistory)
      .where(eq(guestRequestStatusHistory.requestId, done.id));
    expect(reasons.every((row) => row.reason === null)).toBe(true);
    expect(await countOf(deps(), guestRequestMessages, done.id)).toBe(0);
    expect(await countOf(deps(), guestRequestNotes, done.id)).toBe(0);
    expect(await countOf(deps(), guestRequestStatusLinks, done.id)).toBe(0);
    expect(await countOf(deps(), mailOutbox, done.id)).toBe(0);
    expect(existsSync(eml)).toBe(false);
    const [view] = await deps()
      .db.select({ note: ownerRequestViews.note, agree: ownerRequestViews.agree })
      .from(ownerRequestViews)
      .where(eq(ownerRequestViews.requestId, done.id));
    expect(view).toEqual({ note: null, agree: true });
    const events = await deps()
      .db.select({ contact: domainEvents.contact })
      .from(domainEvents)
      .where(sql`${domainEvents.data}->>'id' = ${done.id}`);
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((event) => event.contact === null)).toBe(true);
    expect(JSON.stringify(after)).not.toMatch(/Camille|Durand|Biscuit/);

    // The inbox says so, and its search no longer finds the guest.
    expect((await getRequestDetail(deps(), done.id))?.erasedAt).toBe(now.toISOString());
    const search = (q: string) =>
      listInbox(deps(), InboxFilterSchema.parse({ kind: done.kind, q }));
    expect((await search(done.email)).items).toEqual([]);
    expect((await search("Camille Durand")).items.map((item) => item.id)).not.toContain(done.id);
    expect((await search(before.reference)).items.map((item) => item.id)).toEqual([done.id]);

    // A change after the erasure carries no contact and mails staff only: no guest is left.
    expect(
      await transitionRequest(when(deps(), now), {
        id: done.id,
        kind: done.kind,
        transition: { type: "cancel" },
        actor: STAFF,
      }),
    ).toMatchObject({ outcome: "applied" });
    const [change] = await deps()
      .db.select({ contact: domainEvents.contact })
      .from(domainEvents)
      .where(
        sql`${domainEvents.data}->>'id' = ${done.id} and ${domainEvents.type} = 'booking.cancelled' and ${domainEvents.occurredAt} >= ${now}`,
      );
    expect(change).toEqual({ contact: null });
    while ((await mailFromEvents(when(deps(), now), MAIL_CONFIG)) > 0);
    const queued = await deps()
      .db.select({ recipient: mailOutbox.recipient })
      .from(mailOutbox)
      .where(eq(mailOutbox.requestId, done.id));
    expect(queued.every((mail) => mail.recipient === MAIL_CONFIG.staffEmail)).toBe(true);

    // The open request and the one closed a minute ago keep their guest.
    expect((await rowOf(deps(), open.id)).email).toBe(open.email);
    expect((await rowOf(deps(), recent.id)).email).toBe(recent.email);
  });
});
