import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import {
  domainEvents,
  guestRequests,
  guestRequestStatusHistory,
  mailOutbox,
} from "#db/schema/index.ts";
import type { Language } from "#i18n/config.ts";
import { DEMO_CATALOGUE, describeEachBackend, secondInstance } from "#tests/setup/database.ts";
import { decodeMail } from "#tests/setup/mail-text.ts";
import { TestSmtpServer } from "#tests/setup/smtp.ts";
import type { Deps } from "../deps.ts";
import { findRequestByStatusToken } from "./intake/request-status.ts";
import { hashStatusToken, makeReference, makeStatusToken } from "./intake/reference.ts";
import { type EventMailConfig, mailFromEvents } from "../mail/mail-from-events.ts";
import { deliverDueMail } from "../mail/mail-outbox.ts";
import { createMailTransport } from "../mail/transport.ts";
import { changeRequestStatus } from "./change-status.ts";
import { extendRequestDue } from "./extend-due.ts";
import { getInboxOverview, getRequestDetail, listInbox } from "../staff/inbox.ts";
import { InboxFilterSchema } from "../staff/inbox.schema.ts";
import type { StaffUser } from "../staff/staff-user.ts";
import { dueTimesOf } from "./apply-transition.ts";
import { type LifecycleConfig, responseHoursOf, runLifecycle } from "./lifecycle.ts";
import type { RequestKind, RequestStatus } from "./options.ts";

const T0 = new Date("2026-06-15T12:00:00Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const STAFF = "staff@castellum.test";
/** REQUEST_RESPONSE_HOURS=0.01: 36 seconds, the reminder at 27. */
const HOURS = 0.01;

const configOf = (overrides: Partial<LifecycleConfig> = {}): LifecycleConfig => ({
  responseHours: HOURS,
  ...overrides,
});
const MAIL: EventMailConfig = {
  staffEmail: STAFF,
  staffLanguage: "en",
  publicUrl: "https://castellum.test",
};

/** `deps` reading a clock that stands at `now`. */
const when = (deps: Deps, now: Date): Deps => ({ ...deps, clock: () => now });

const ACTOR: StaffUser = {
  id: randomUUID(),
  email: "anna@castellum.test",
  displayName: "Anna",
} as StaffUser;

interface Made {
  id: string;
  token: string;
  email: string;
}

/** A request as intake stores it, arrived at `createdAt`, due `hours` later (null: never). */
async function makeRequest(
  deps: Deps,
  options: {
    kind?: RequestKind;
    language?: Language;
    createdAt?: Date;
    hours?: number | null;
    status?: RequestStatus;
  } = {},
): Promise<Made> {
  const kind = options.kind ?? "property_booking";
  const createdAt = options.createdAt ?? T0;
  const hours = options.hours === undefined ? HOURS : options.hours;
  const due = hours === null ? { dueAt: null, remindAt: null } : dueTimesOf(createdAt, hours);
  const id = randomUUID();
  const token = makeStatusToken();
  const email = `guest-${id.slice(0, 8)}@example.com`;
  const estate = DEMO_CATALOGUE[0]?.id ?? null;
  await deps.db.insert(guestRequests).values({
    id,
    kind,
    reference: makeReference(kind),
    status: options.status ?? "New",
    language: options.language ?? "en",
    email,
    firstName: "Camille",
    lastName: "Durand",
    propertyId: kind === "property_booking" ? estate : null,
    stayStart: kind === "property_booking" ? "2027-03-01" : null,
    stayEnd: kind === "property_booking" ? "2027-03-04" : null,
    details: { firstName: "Camille", lastName: "Durand", email },
    statusTokenHash: hashStatusToken(token),
    createdAt,
    updatedAt: createdAt,
    ...due,
  });
  await deps.db.insert(guestRequestStatusHistory).values({
    requestId: id,
    toStatus: "New",
    changedBy: "guest",
    changedAt: createdAt,
  });
  return { id, token, email };
}

describeEachBackend("the request lifecycle: reminders and expiry", (database, backend) => {
  const deps = () => database().deps;
  const smtp = new TestSmtpServer();
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());
  beforeEach(async () => {
    await deps().db.delete(mailOutbox);
    await deps().db.delete(domainEvents);
    await deps().db.delete(guestRequests);
    smtp.received.length = 0;
  });

  /** Turns the recorded events into mail, as the mail job does before it sends. */
  const mailEvents = (config: EventMailConfig = MAIL) => mailFromEvents(deps(), config);
  /** Mails the events, then sends the outbox through the real SMTP transport to the relay. */
  const deliver = async (config: EventMailConfig = MAIL) => {
    await mailEvents(config);
    const transport = createMailTransport({
      from: "Castellum <bookings@castellum.test>",
      smtpUrl: smtp.url,
      directory: "/nonexistent",
      messageIdDomain: "castellum.test",
    });
    try {
      await deliverDueMail(deps(), transport);
    } finally {
      transport.close();
    }
  };
  const mailsTo = (address: string) => smtp.to(address).map((mail) => decodeMail(mail.raw));
  const systemRows = (id: string) =>
    deps()
      .db.select()
      .from(guestRequestStatusHistory)
      .where(
        and(
          eq(guestRequestStatusHistory.requestId, id),
          eq(guestRequestStatusHistory.changedBy, "system"),
        ),
      );
  const eventsOf = async (type: string) =>
    (await deps().db.select().from(domainEvents).orderBy(asc(domainEvents.seq))).filter(
      (event) => event.type === type,
    );

  it("closes an unanswered request at its due time, not before, and tells the guest in French", async () => {
    const request = await makeRequest(deps(), { language: "fr" });
    expect(await runLifecycle(when(deps(), at(35)), configOf())).toEqual({
      reminded: 1,
      expired: 0,
      offersExpired: 0,
      depositsExpired: 0,
      balancesReminded: 0,
    });
    expect((await findRequestByStatusToken(deps(), request.token))?.status).toBe("New");

    expect(await runLifecycle(when(deps(), at(36)), configOf())).toEqual({
      reminded: 0,
      expired: 1,
      offersExpired: 0,
      depositsExpired: 0,
      balancesReminded: 0,
    });
    const view = await findRequestByStatusToken(deps(), request.token);
    expect(view).toMatchObject({
      status: "Rejected",
      reason: "Nous n’avons pas pu confirmer vos dates à temps.",
    });
    const detail = await getRequestDetail(deps(), request.id);
    expect(detail?.history.at(-1)).toMatchObject({
      fromStatus: "New",
      toStatus: "Rejected",
      changedBy: "system",
      reasonShared: true,
    });
    expect(detail?.stayHeld).toBe(false);

    const [expired] = await eventsOf("request.expired");
    expect(expired?.data).toMatchObject({
      collection: "bookings",
      id: request.id,
      status: "Rejected",
      previousStatus: "New",
      actor: "system",
      stayStart: "2027-03-01",
    });
    expect(JSON.stringify(expired?.data)).not.toContain(request.email);
    expect(await eventsOf("request.status_changed")).toHaveLength(1);

    await deliver();
    const [mail, ...more] = mailsTo(request.email);
    expect(more).toHaveLength(0);
    expect(mail).toContain("Nous n’avons pas pu confirmer vos dates à temps.");
    expect(mail).toContain("Bonjour,");
    expect(mail).not.toContain("Camille");
  });

  it("leaves a Confirmed request, and so its nights, alone", async () => {
    // A Confirmed request is not open: the job leaves it and its nights alone.
    const confirmed = await makeRequest(deps(), { status: "Confirmed" });
    expect(await runLifecycle(when(deps(), at(3600)), configOf())).toEqual({
      reminded: 0,
      expired: 0,
      offersExpired: 0,
      depositsExpired: 0,
      balancesReminded: 0,
    });
    expect((await findRequestByStatusToken(deps(), confirmed.token))?.status).toBe("Confirmed");
  });

  it("two instances at once and a restart close each request once: one history row, one mail, one event", async () => {
    const made = await Promise.all([
      makeRequest(deps(), { language: "zh" }),
      makeRequest(deps(), { language: "fr", kind: "booking_request" }),
      ...Array.from({ length: 6 }, () => makeRequest(deps(), { language: "it" })),
    ]);
    const { deps: second, close: closeSecond } = await secondInstance(database(), backend);
    try {
      const config = configOf({ batchSize: 3 });
      const reports = await Promise.all([
        runLifecycle(when(deps(), at(60)), config),
        runLifecycle(when(second, at(60)), config),
        runLifecycle(when(second, at(60)), config),
      ]);
      // "Restart": a fresh runner later finds nothing left to do.
      const restarted = await runLifecycle(when(second, at(120)), configOf());
      expect(restarted.expired).toBe(0);
      expect(reports.reduce((sum, report) => sum + report.expired, 0)).toBe(made.length);
    } finally {
      await closeSecond();
    }

    for (const request of made) expect(await systemRows(request.id)).toHaveLength(1);
    const expired = await eventsOf("request.expired");
    expect(expired.map((event) => (event.data as { id: string }).id).sort()).toEqual(
      made.map((r) => r.id).sort(),
    );
    expect(await eventsOf("request.status_changed")).toHaveLength(made.length);
    await mailEvents();
    const guestMails = await deps()
      .db.select()
      .from(mailOutbox)
      .where(
        inArray(
          mailOutbox.recipient,
          made.map((request) => request.email),
        ),
      );
    expect(guestMails).toHaveLength(made.length);

    await deliver();
    const [zh, fr] = made;
    expect(mailsTo(zh?.email ?? "")).toHaveLength(1);
    expect(mailsTo(zh?.email ?? "")[0]).toContain("我们未能及时确认您的日期。");
    expect(mailsTo(fr?.email ?? "")).toHaveLength(1);
    expect(mailsTo(fr?.email ?? "")[0]).toContain(
      "Nous n’avons pas pu confirmer vos dates à temps.",
    );
  });

  it("reminds staff once, in STAFF_LANGUAGE, with a link to the request's details", async () => {
    const request = await makeRequest(deps(), { kind: "booking_request", hours: 4 });
    // Three quarters of four hours: three hours after arrival.
    expect((await runLifecycle(when(deps(), at(3 * 3600 - 1)), configOf())).reminded).toBe(0);
    const atThree = when(deps(), at(3 * 3600));
    const runs = await Promise.all([
      runLifecycle(atThree, configOf()),
      runLifecycle(atThree, configOf()),
    ]);
    expect(runs.reduce((sum, run) => sum + run.reminded, 0)).toBe(1);
    expect((await runLifecycle(when(deps(), at(3 * 3600 + 60)), configOf())).reminded).toBe(0);

    await deliver({ ...MAIL, staffLanguage: "it" });
    const mails = mailsTo(STAFF);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("Promemoria");
    expect(mails[0]).toContain(
      `https://castellum.test/admin/booking-requests/booking-requests/${request.id}`,
    );
  });

  it("leaves membership applications open unless MEMBERSHIP_RESPONSE_HOURS is set", async () => {
    expect(responseHoursOf("membership", null, { responseHours: 48 })).toBeNull();
    expect(
      responseHoursOf("membership", null, { responseHours: 48, membershipResponseHours: 2 }),
    ).toBe(2);
    expect(responseHoursOf("property_booking", 12, { responseHours: 48 })).toBe(12);
    expect(responseHoursOf("booking_request", null, { responseHours: 48 })).toBe(48);

    const never = await makeRequest(deps(), { kind: "membership", hours: null });
    const timed = await makeRequest(deps(), { kind: "membership", hours: 2, language: "zh" });
    expect((await runLifecycle(when(deps(), at(365 * 86_400)), configOf())).expired).toBe(1);
    expect((await findRequestByStatusToken(deps(), never.token))?.status).toBe("New");
    expect(await findRequestByStatusToken(deps(), timed.token)).toMatchObject({
      status: "Declined",
      reason: "我们未能及时确认您的日期。",
    });
  });

  it("does not expire a request staff answered before its due time", async () => {
    const confirmed = await makeRequest(deps());
    const rejected = await makeRequest(deps(), { kind: "booking_request" });
    const contacted = await makeRequest(deps(), { kind: "booking_request" });
    const change = (id: string, kind: RequestKind, status: RequestStatus) =>
      changeRequestStatus(deps(), {
        id,
        kind,
        actor: ACTOR,
        change: {
          status,
          reason: status === "Rejected" ? "Fully booked" : undefined,
          shareReason: true,
          notifyGuest: false,
        },
      });
    expect((await change(confirmed.id, "property_booking", "Confirmed")).outcome).toBe("changed");
    expect((await change(rejected.id, "booking_request", "Rejected")).outcome).toBe("changed");
    // Contacted is still waiting for an answer: staff extend it if they need longer.
    expect((await change(contacted.id, "booking_request", "Contacted")).outcome).toBe("changed");

    expect((await runLifecycle(when(deps(), at(3600)), configOf())).expired).toBe(1);
    expect((await findRequestByStatusToken(deps(), confirmed.token))?.status).toBe("Confirmed");
    expect(await findRequestByStatusToken(deps(), rejected.token)).toMatchObject({
      status: "Rejected",
      reason: "Fully booked",
    });
    expect((await findRequestByStatusToken(deps(), contacted.token))?.status).toBe("Rejected");
    expect(await systemRows(confirmed.id)).toHaveLength(0);
    expect(await systemRows(rejected.id)).toHaveLength(0);
  });

  it("gives a request staff reopen after its due time a fresh window, then closes it once", async () => {
    const request = await makeRequest(deps(), { kind: "booking_request" });
    expect((await runLifecycle(when(deps(), at(3600)), configOf())).expired).toBe(1);
    const reopenedAt = at(7200).getTime();
    const reopened = await changeRequestStatus(when(deps(), new Date(reopenedAt)), {
      id: request.id,
      kind: "booking_request",
      actor: ACTOR,
      change: { status: "New", shareReason: false, notifyGuest: false },
    });
    expect(reopened.outcome).toBe("changed");
    const [row] = await deps()
      .db.select({ dueAt: guestRequests.dueAt, remindedAt: guestRequests.remindedAt })
      .from(guestRequests)
      .where(eq(guestRequests.id, request.id));
    // The window it had (0.01 hours), counted from the reopening rather than from its arrival.
    expect(row?.dueAt?.getTime()).toBe(reopenedAt + HOURS * 3_600_000);
    expect(row?.remindedAt).toBeNull();

    // A run straight after the reopening leaves it open; one after its new due time closes it.
    expect((await runLifecycle(when(deps(), new Date(reopenedAt)), configOf())).expired).toBe(0);
    expect((await findRequestByStatusToken(deps(), request.token))?.status).toBe("New");
    const later = new Date(reopenedAt + 3_600_000);
    expect((await runLifecycle(when(deps(), later), configOf())).expired).toBe(1);
    expect((await runLifecycle(when(deps(), later), configOf())).expired).toBe(0);
    expect(await systemRows(request.id)).toHaveLength(2);
  });

  it("records a due extension in the history and keeps the request open until the new time", async () => {
    const request = await makeRequest(deps(), { kind: "booking_request", hours: 4 });
    // Reminded at three hours...
    expect((await runLifecycle(when(deps(), at(3 * 3600)), configOf())).reminded).toBe(1);
    const newDue = at(10 * 3600);
    const extended = await extendRequestDue(when(deps(), at(3 * 3600 + 60)), {
      id: request.id,
      kind: "booking_request",
      dueAt: newDue,
      actor: ACTOR,
    });
    expect(extended.outcome).toBe("changed");
    if (extended.outcome !== "changed") return;
    expect(extended.request.dueAt).toBe(newDue.toISOString());
    expect(extended.request.history.at(-1)).toMatchObject({
      event: "due",
      changedBy: ACTOR.email,
      fromStatus: "New",
      toStatus: "New",
      dueAt: newDue.toISOString(),
    });
    // ...past the old due time nothing happens; a new reminder comes before the new one.
    expect(await runLifecycle(when(deps(), at(4 * 3600 + 1)), configOf())).toEqual({
      reminded: 0,
      expired: 0,
      offersExpired: 0,
      depositsExpired: 0,
      balancesReminded: 0,
    });
    expect((await runLifecycle(when(deps(), at(9 * 3600)), configOf())).reminded).toBe(1);
    expect((await runLifecycle(when(deps(), newDue), configOf())).expired).toBe(1);

    // A due time in the past, or for a closed request, is refused.
    const other = await makeRequest(deps(), { hours: 4 });
    expect(
      (
        await extendRequestDue(when(deps(), at(120)), {
          id: other.id,
          kind: "property_booking",
          dueAt: at(60),
          actor: ACTOR,
        })
      ).outcome,
    ).toBe("out_of_range");
    expect(
      (
        await extendRequestDue(when(deps(), at(11 * 3600)), {
          id: request.id,
          kind: "booking_request",
          dueAt: at(20 * 3600),
          actor: ACTOR,
        })
      ).outcome,
    ).toBe("closed");
  });

  it("shows the inbox due times, the overdue, and sorts by the soonest due", async () => {
    const now = new Date();
    const later = await makeRequest(deps(), { createdAt: now, hours: 10 });
    const sooner = await makeRequest(deps(), { createdAt: now, hours: 2 });
    const overdue = await makeRequest(deps(), {
      createdAt: new Date(now.getTime() - 3 * 3_600_000),
      hours: 1,
    });
    await makeRequest(deps(), { createdAt: now, hours: 1, status: "Confirmed" });
    const page = await listInbox(
      deps(),
      InboxFilterSchema.parse({ kind: "property_booking", sort: "due", limit: 2 }),
    );
    expect(page.items.map((item) => item.id)).toEqual([overdue.id, sooner.id]);
    expect(page.items.map((item) => item.overdue)).toEqual([true, false]);
    const next = await listInbox(
      deps(),
      InboxFilterSchema.parse({
        kind: "property_booking",
        sort: "due",
        limit: 2,
        after: page.nextCursor,
      }),
    );
    expect(next.items[0]?.id).toBe(later.id);
    expect(next.items).toHaveLength(2);
    expect(next.nextCursor).toBeNull();
    expect((await getInboxOverview(deps())).overdue).toBe(1);
  });
});
