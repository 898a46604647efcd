import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import {
  calendarEntries,
  domainEvents,
  guestRequests,
  guestRequestStatusHistory,
  mailOutbox,
  offers,
  payments,
} from "#db/schema/index.ts";
import type { Language } from "#i18n/config.ts";
import { DEMO_CATALOGUE, describeEachBackend, secondInstance } from "#tests/setup/database.ts";
import type { Deps } from "../deps.ts";
import { type EventMailConfig, mailFromEvents } from "../mail/mail-from-events.ts";
import { deliverDueMail } from "../mail/mail-outbox.ts";
import { createMailTransport } from "../mail/transport.ts";
import { readRates } from "../pricing/estate-rates.ts";
import { transitionRequest } from "../requests/apply-transition.ts";
import { hashStatusToken, makeReference, makeStatusToken } from "../requests/intake/reference.ts";
import { runLifecycle } from "../requests/lifecycle.ts";
import type { RequestKind, RequestStatus } from "../requests/options.ts";
import {
  answerOffer,
  guestCancel,
  type OfferTerms,
  readOffers,
  recordPayment,
  sendOffer,
  staffCancel,
} from "./offers.ts";
import { MONEY_STATES, type MoneyState } from "./offer.schema.ts";
import { getRequestDetail, listInbox } from "../staff/inbox.ts";
import { InboxFilterSchema } from "../staff/inbox.schema.ts";
import { addDays } from "../calendar/nights.ts";

const T0 = new Date("2027-01-10T09:00:00Z");
const HOUR = 3_600_000;
const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);
const when = (deps: Deps, now: Date): Deps => ({ ...deps, clock: () => now });
const TERMS: OfferTerms = { offerHours: 72, depositHours: 48 };
const STAFF = { kind: "staff" as const, id: randomUUID(), email: "anna@castellum.test" };
const MAIL: EventMailConfig = {
  staffEmail: "staff@castellum.test",
  staffLanguage: "en",
  publicUrl: "https://castellum.test",
};
const ESTATE = DEMO_CATALOGUE[0]!.id;
const bankTransfer = (
  kind: "deposit" | "balance" | "refund",
  amount: number,
  currency: string,
) => ({
  kind,
  method: "bank_transfer" as const,
  amount,
  currency,
  reference: "BANK-1",
  receivedAt: at(1).toISOString(),
});

let nightsCursor = 0;
/** Nights no other test of the file uses: a week, later each time. */
function freshNights() {
  const start = new Date(Date.UTC(2027, 2, 1) + nightsCursor * 8 * 86_400_000);
  nightsCursor += 1;
  const end = new Date(start.getTime() + 7 * 86_400_000);
  return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
}

async function makeRequest(
  deps: Deps,
  options: { language?: Language; status?: RequestStatus; kind?: RequestKind } = {},
) {
  const id = randomUUID();
  const token = makeStatusToken();
  const kind = options.kind ?? "property_booking";
  const nights = freshNights();
  await deps.db.insert(guestRequests).values({
    id,
    kind,
    reference: makeReference(kind),
    status: options.status ?? "In progress",
    language: options.language ?? "en",
    email: `guest-${id.slice(0, 8)}@example.com`,
    firstName: "Camille",
    lastName: "Durand",
    propertyId: ESTATE,
    stayStart: nights.start,
    stayEnd: nights.end,
    details: { numberOfGuests: 2 },
    statusTokenHash: hashStatusToken(token),
    createdAt: T0,
    updatedAt: T0,
    dueAt: at(48),
    remindAt: at(36),
  });
  await deps.db
    .insert(guestRequestStatusHistory)
    .values({ requestId: id, toStatus: "New", changedBy: "guest", changedAt: T0 });
  return { id, token, kind, nights };
}

async function statusOf(deps: Deps, id: string) {
  const [row] = await deps.db
    .select({ status: guestRequests.status })
    .from(guestRequests)
    .where(eq(guestRequests.id, id));
  return row?.status;
}

async function eventsOf(deps: Deps, id: string) {
  const rows = await deps.db
    .select({ type: domainEvents.type })
    .from(domainEvents)
    .where(sql`${domainEvents.data}->>'id' = ${id}`)
    .orderBy(domainEvents.seq);
  return rows.map((row) => row.type);
}

async function stayRows(deps: Deps, id: string) {
  const rows = await deps.db
    .select({ id: calendarEntries.id })
    .from(calendarEntries)
    .where(eq(calendarEntries.requestId, id));
  return rows.length;
}

async function mailTo(deps: Deps, requestId: string) {
  await mailFromEvents(deps, MAIL);
  return deps.db
    .select({
      recipient: mailOutbox.recipient,
      subject: mailOutbox.subject,
      text: mailOutbox.text,
      template: mailOutbox.template,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.requestId, requestId))
    .orderBy(mailOutbox.template);
}

async function sent(deps: Deps, request: { id: string; kind: RequestKind }, offer = {}) {
  const result = await sendOffer(deps, {
    kind: request.kind,
    id: request.id,
    offer,
    actor: STAFF,
    terms: TERMS,
  });
  if (result.outcome !== "sent") throw new Error(`not sent: ${JSON.stringify(result)}`);
  return result.offer;
}

/** A request whose guest has accepted staff's offer: its nights held, its deposit due. */
async function accepted(deps: Deps, options: Parameters<typeof makeRequest>[1] = {}) {
  const request = await makeRequest(deps, options);
  const offer = await sent(deps, request);
  await answerOffer(deps, {
    token: request.token,
    offerId: offer.id,
    answer: "accept",
    terms: TERMS,
  });
  return { request, offer };
}

/** The whole deposit of `offer`, received by bank transfer: the booking is confirmed. */
function payDeposit(
  deps: Deps,
  request: { id: string },
  offer: { deposit: number; currency: string },
) {
  return recordPayment(deps, {
    requestId: request.id,
    payment: bankTransfer("deposit", offer.deposit, offer.currency),
    recordedBy: STAFF.email,
  });
}

describeEachBackend("offers and payments", (database, backend) => {
  const deps = () => when(database().deps, T0);

  it("prices the offer from the estate's quote, and the guest hears of it in French", async () => {
    const request = await makeRequest(deps(), { language: "fr" });
    const rates = await readRates(deps(), ESTATE);
    expect(rates).not.toBeNull();
    const offer = await sent(deps(), request, { discount: 1000, note: "Bienvenue" });
    expect(offer.status).toBe("sent");
    expect(offer.currency).toBe(rates!.rates.currency);
    expect(offer.lines.at(-1)).toMatchObject({ code: "discount", amount: -1000 });
    expect(offer.deposit + offer.balance).toBe(offer.total);
    expect(offer.expiresAt.getTime()).toBe(at(72).getTime());
    expect(await statusOf(deps(), request.id)).toBe("Offered");
    expect(await eventsOf(deps(), request.id)).toContain("offer.sent");
    const mails = await mailTo(deps(), request.id);
    expect(mails.map((mail) => mail.template)).toEqual(["offer.sent"]);
    expect(mails[0]!.subject).toContain("offre");
    expect(mails[0]!.text).toContain(
      new Intl.NumberFormat("fr", { style: "currency", currency: offer.currency }).format(
        offer.total / 100,
      ),
    );
  });

  it("withdraws the offer still out when staff send a new one: one live offer per request", async () => {
    const request = await makeRequest(deps());
    const first = await sent(deps(), request);
    const second = await sent(when(deps(), at(1)), request, { discount: 500 });
    const { offers: all } = await readOffers(deps(), request.id);
    expect(all.map((offer) => [offer.id, offer.status])).toEqual([
      [second.id, "sent"],
      [first.id, "withdrawn"],
    ]);
    // The database itself refuses a second live offer.
    await expect(
      deps().db.update(offers).set({ status: "sent" }).where(eq(offers.id, first.id)),
    ).rejects.toThrow();
  });

  it("refuses an offer without an estate or dates, or a discount that leaves nothing to pay", async () => {
    const request = await makeRequest(deps());
    await deps().db.execute(
      sql`update guest_requests set stay_start = null, stay_end = null where id = ${request.id}`,
    );
    expect(await sendOffer(deps(), { ...request, offer: {}, actor: STAFF, terms: TERMS })).toEqual({
      outcome: "no_stay",
    });
    const other = await makeRequest(deps());
    expect(
      await sendOffer(deps(), {
        ...other,
        offer: { discount: 9_000_000_000 },
        actor: STAFF,
        terms: TERMS,
      }),
    ).toMatchObject({ outcome: "invalid", field: "discount" });
    expect((await readOffers(deps(), other.id)).offers).toEqual([]);
    expect(await statusOf(deps(), other.id)).toBe("In progress");
  });

  it("takes the nights on acceptance, once however often the guest clicks, and confirms on the deposit", async () => {
    const request = await makeRequest(deps());
    const offer = await sent(deps(), request);
    const answer = {
      token: request.token,
      offerId: offer.id,
      answer: "accept" as const,
      terms: TERMS,
    };
    expect(await answerOffer(when(deps(), at(1)), answer)).toMatchObject({
      outcome: "done",
      status: "Awaiting deposit",
    });
    expect(await answerOffer(when(deps(), at(1)), answer)).toEqual({
      outcome: "already",
      status: "Awaiting deposit",
    });
    expect(await stayRows(deps(), request.id)).toBe(1);
    // The nights were taken by the guest's acceptance, and the event log says so.
    const [held] = await deps()
      .db.select({ data: domainEvents.data })
      .from(domainEvents)
      .where(
        and(
          eq(domainEvents.type, "stay.confirmed"),
          sql`${domainEvents.data}->>'id' = ${request.id}`,
        ),
      );
    expect((held?.data as { actor?: string } | undefined)?.actor).toBe("guest");
    const [accepted] = (await readOffers(deps(), request.id)).offers;
    expect(accepted!.depositDueAt?.getTime()).toBe(at(1 + 48).getTime());
    // The deposit in two transfers: the first leaves it awaiting, the second confirms.
    const part = Math.floor(offer.deposit / 2);
    const first = await recordPayment(deps(), {
      requestId: request.id,
      payment: bankTransfer("deposit", part, offer.currency),
      recordedBy: STAFF.email,
    });
    expect(first).toMatchObject({ outcome: "recorded", status: "Awaiting deposit" });
    const second = await recordPayment(deps(), {
      requestId: request.id,
      payment: bankTransfer("deposit", offer.deposit - part, offer.currency),
      recordedBy: STAFF.email,
    });
    expect(second).toMatchObject({ outcome: "recorded", status: "Confirmed" });
    expect(await statusOf(deps(), request.id)).toBe("Confirmed");
    const view = (await readOffers(deps(), request.id)).offers[0]!;
    expect(view.paid).toBe(offer.deposit);
    expect(view.outstanding).toBe(offer.balance);
    const mails = await mailTo(deps(), request.id);
    expect(mails.map((mail) => mail.template)).toEqual([
      "offer.accepted.staff",
      "offer.payment",
      "offer.payment",
      "offer.sent",
      "property_booking.status",
    ]);
  });

  it("refuses a payment in another currency, a refund above what was paid, and any change to the ledger", async () => {
    const { request, offer } = await accepted(deps());
    const other = offer.currency === "EUR" ? "GBP" : "EUR";
    expect(
      await recordPayment(deps(), {
        requestId: request.id,
        payment: bankTransfer("deposit", 100, other),
        recordedBy: STAFF.email,
      }),
    ).toMatchObject({ outcome: "invalid", field: "currency" });
    expect(
      await recordPayment(deps(), {
        requestId: request.id,
        payment: bankTransfer("refund", 1, offer.currency),
        recordedBy: STAFF.email,
      }),
    ).toMatchObject({ outcome: "invalid", field: "amount" });
    await recordPayment(deps(), {
      requestId: request.id,
      payment: bankTransfer("deposit", 100, offer.currency),
      recordedBy: STAFF.email,
    });
    const refusal = (work: Promise<unknown>) =>
      work.then(
        () => "written",
        (error: Error & { cause?: Error }) => String(error.cause?.message ?? error.message),
      );
    expect(
      await refusal(
        deps().db.update(payments).set({ amount: 1 }).where(eq(payments.requestId, request.id)),
      ),
    ).toMatch(/append-only/);
    expect(
      await refusal(deps().db.delete(payments).where(eq(payments.requestId, request.id))),
    ).toMatch(/append-only/);
  });

  it("mails the guest each payment's receipt as a PDF, drawn when the mail is sent", async () => {
    const { request, offer } = await accepted(deps(), { language: "fr" });
    await payDeposit(deps(), request, offer);
    await mailFromEvents(deps(), MAIL);
    const directory = mkdtempSync(join(tmpdir(), "castellum-receipts-"));
    const transport = createMailTransport({
      from: "Castellum <no-reply@castellum.test>",
      directory,
      messageIdDomain: "castellum.test",
    });
    try {
      await deliverDueMail(deps(), transport);
      const [receiptMail] = await deps()
        .db.select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.requestId, request.id), eq(mailOutbox.template, "offer.payment")));
      const eml = readFileSync(join(directory, `${receiptMail!.id}.eml`), "utf8");
      const [, reference] = /filename="?receipt-([A-Z0-9-]+)-\d+\.pdf/.exec(eml) ?? [];
      expect(reference).toMatch(/^PB-/);
      expect(eml).toContain("Content-Type: application/pdf");
      const pdf = Buffer.from(
        eml.split(/Content-Type: application\/pdf[^\n]*\n(?:[^\n]+\n)*\n/)[1]!.split("\n--")[0]!,
        "base64",
      );
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
      // The offer's own mail carries nothing.
      const [offerMail] = await deps()
        .db.select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.requestId, request.id), eq(mailOutbox.template, "offer.sent")));
      expect(readFileSync(join(directory, `${offerMail!.id}.eml`), "utf8")).not.toContain(
        "application/pdf",
      );
    } finally {
      transport.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("records a provider's payment once, however often it is reported", async () => {
    const { request, offer } = await accepted(deps());
    const card = {
      requestId: request.id,
      payment: {
        ...bankTransfer("deposit", offer.deposit, offer.currency),
        method: "card" as const,
      },
      recordedBy: "stripe",
      provider: { name: "stripe", id: `cs_test_${request.id}` },
    };
    const results = await Promise.all([1, 2, 3].map(() => recordPayment(deps(), card)));
    expect(results.filter((result) => result.outcome === "recorded")).toHaveLength(1);
    expect(results.filter((result) => result.outcome === "duplicate")).toHaveLength(2);
    const { payments: ledger } = await readOffers(deps(), request.id);
    expect(ledger).toHaveLength(1);
    expect(await statusOf(deps(), request.id)).toBe("Confirmed");
  });

  it("refuses the acceptance when the nights were taken meanwhile, and changes nothing", async () => {
    const request = await makeRequest(deps());
    const offer = await sent(deps(), request);
    // Another request for the same nights is confirmed by staff.
    const rival = await makeRequest(deps(), { status: "In progress" });
    await deps()
      .db.update(guestRequests)
      .set({ stayStart: request.nights.start, stayEnd: request.nights.end })
      .where(eq(guestRequests.id, rival.id));
    const confirmed = await transitionRequest(deps(), {
      id: rival.id,
      kind: rival.kind,
      transition: { type: "set_status", to: "Confirmed" },
      actor: STAFF,
    });
    expect(confirmed).toMatchObject({ outcome: "applied" });
    const before = await eventsOf(deps(), request.id);
    const answer = await answerOffer(deps(), {
      token: request.token,
      offerId: offer.id,
      answer: "accept",
      terms: TERMS,
    });
    expect(answer).toMatchObject({ outcome: "collision" });
    expect(await statusOf(deps(), request.id)).toBe("Offered");
    expect(await stayRows(deps(), request.id)).toBe(0);
    expect(await eventsOf(deps(), request.id)).toEqual(before);
    expect((await readOffers(deps(), request.id)).offers[0]!.status).toBe("sent");
  });

  it("expires an unanswered offer and an unpaid deposit each once, across two instances", async () => {
    const other = await secondInstance(database(), backend);
    try {
      const unanswered = await makeRequest(deps());
      const offerA = await sent(deps(), unanswered);
      const unpaid = await makeRequest(deps());
      const offerB = await sent(deps(), unpaid);
      await answerOffer(deps(), {
        token: unpaid.token,
        offerId: offerB.id,
        answer: "accept",
        terms: TERMS,
      });
      // Before their times nothing moves.
      await runLifecycle(when(deps(), at(47)), { responseHours: 48 });
      expect(await statusOf(deps(), unpaid.id)).toBe("Awaiting deposit");
      expect(await statusOf(deps(), unanswered.id)).toBe("Offered");
      const later = at(73);
      const reports = await Promise.all([
        runLifecycle(when(deps(), later), { responseHours: 48 }),
        runLifecycle(when(other.deps, later), { responseHours: 48 }),
      ]);
      const sum = (key: "offersExpired" | "depositsExpired") =>
        reports.reduce((total, report) => total + report[key], 0);
      expect(sum("offersExpired")).toBeGreaterThanOrEqual(1);
      expect(sum("depositsExpired")).toBeGreaterThanOrEqual(1);
      expect(await statusOf(deps(), unanswered.id)).toBe("In progress");
      expect(await statusOf(deps(), unpaid.id)).toBe("Cancelled");
      expect(await stayRows(deps(), unpaid.id)).toBe(0);
      const offersNow = await deps()
        .db.select({ id: offers.id, status: offers.status })
        .from(offers)
        .where(eq(offers.id, offerA.id));
      expect(offersNow[0]?.status).toBe("expired");
      expect(
        (await eventsOf(deps(), unanswered.id)).filter((type) => type === "offer.expired"),
      ).toHaveLength(1);
      expect(
        (await eventsOf(deps(), unpaid.id)).filter((type) => type === "booking.cancelled"),
      ).toHaveLength(1);
      // The staff window runs again for the request whose offer expired.
      const [row] = await deps()
        .db.select({ dueAt: guestRequests.dueAt })
        .from(guestRequests)
        .where(eq(guestRequests.id, unanswered.id));
      expect(row!.dueAt!.getTime()).toBeGreaterThan(later.getTime());
      expect((await mailTo(deps(), unanswered.id)).map((mail) => mail.template)).toEqual([
        "offer.expired",
        "offer.expired.staff",
        "offer.sent",
      ]);
      expect((await mailTo(deps(), unpaid.id)).map((mail) => mail.template)).toEqual([
        "offer.accepted.staff",
        "offer.cancelled",
        "offer.cancelled.staff",
        "offer.sent",
      ]);
    } finally {
      await other.close();
    }
  });

  it("reminds the guest of a balance once, seven days before it is due", async () => {
    const request = await makeRequest(deps());
    const offer = await sent(deps(), request);
    expect(offer.balance).toBeGreaterThan(0);
    expect(offer.balanceDueOn).not.toBeNull();
    await answerOffer(deps(), {
      token: request.token,
      offerId: offer.id,
      answer: "accept",
      terms: TERMS,
    });
    await payDeposit(deps(), request, offer);
    const dueOn = new Date(`${offer.balanceDueOn}T09:00:00Z`);
    const daysBefore = (days: number) => when(deps(), new Date(dueOn.getTime() - days * 24 * HOUR));
    // Other tests' bookings share the database and fall due on their own dates: count this
    // request's reminders, not the run's.
    const reminders = async () =>
      (await mailTo(deps(), request.id)).filter((mail) => mail.template === "offer.balanceReminder")
        .length;
    await runLifecycle(daysBefore(8), { responseHours: 48 });
    expect(await reminders()).toBe(0);
    await runLifecycle(daysBefore(7), { responseHours: 48 });
    expect(await reminders()).toBe(1);
    await runLifecycle(daysBefore(1), { responseHours: 48 });
    expect(await reminders()).toBe(1);
  });

  it("lets one of an acceptance and a confirmation of the same nights win, on two instances", async () => {
    const other = await secondInstance(database(), backend);
    try {
      const rounds = backend === "postgres" ? 100 : 10;
      for (let round = 0; round < rounds; round++) {
        const request = await makeRequest(deps());
        const offer = await sent(deps(), request);
        const rival = await makeRequest(deps());
        await deps()
          .db.update(guestRequests)
          .set({ stayStart: request.nights.start, stayEnd: request.nights.end })
          .where(eq(guestRequests.id, rival.id));
        const [accepted, confirmed] = await Promise.all([
          answerOffer(deps(), {
            token: request.token,
            offerId: offer.id,
            answer: "accept",
            terms: TERMS,
          }),
          transitionRequest(other.deps, {
            id: rival.id,
            kind: rival.kind,
            transition: { type: "set_status", to: "Confirmed" },
            actor: STAFF,
          }),
        ]);
        const wins = [accepted.outcome === "done", confirmed.outcome === "applied"];
        expect(wins.filter(Boolean), `round ${round}`).toHaveLength(1);
        const held = await deps()
          .db.select({ requestId: calendarEntries.requestId })
          .from(calendarEntries)
          .where(
            and(
              eq(calendarEntries.propertyId, ESTATE),
              sql`${calendarEntries.requestId} in (${request.id}, ${rival.id})`,
            ),
          );
        expect(held, `round ${round}`).toHaveLength(1);
      }
    } finally {
      await other.close();
    }
  });

  it("cancels a confirmed booking with the refund its policy gives, the guest only while it refunds", async () => {
    const { request, offer } = await accepted(deps());
    await payDeposit(deps(), request, offer);
    // On the day of arrival no policy refunds anything: the guest may not cancel.
    const arrival = new Date(`${offer.checkIn}T10:00:00Z`);
    expect(await guestCancel(when(deps(), arrival), { token: request.token })).toEqual({
      outcome: "refused",
      refusal: "cancel_not_allowed",
    });
    expect(
      await staffCancel(when(deps(), arrival), { ...request, actor: STAFF, reason: "Flood" }),
    ).toMatchObject({
      outcome: "done",
      status: "Cancelled",
    });
    const view = (await readOffers(deps(), request.id)).offers[0]!;
    expect(view.refundDue).toBe(0);
    expect(await stayRows(deps(), request.id)).toBe(0);
    // Money is still recorded against a cancelled booking; a refund cannot pass what was paid.
    expect(
      await recordPayment(deps(), {
        requestId: request.id,
        payment: bankTransfer("refund", offer.deposit, offer.currency),
        recordedBy: STAFF.email,
      }),
    ).toMatchObject({ outcome: "recorded" });
    expect((await readOffers(deps(), request.id)).offers[0]!.refunded).toBe(offer.deposit);
  });

  it("refuses offers for membership applications and staff moves of an accepted booking", async () => {
    const membership = await makeRequest(deps(), { kind: "membership" });
    expect(
      await sendOffer(deps(), { ...membership, offer: {}, actor: STAFF, terms: TERMS }),
    ).toMatchObject({
      outcome: "refused",
    });
    const { request } = await accepted(deps());
    expect(
      await transitionRequest(deps(), {
        id: request.id,
        kind: request.kind,
        transition: { type: "set_status", to: "Rejected", reason: "no" },
        actor: STAFF,
      }),
    ).toEqual({ outcome: "refused", refusal: "offer_accepted" });
    expect(await statusOf(deps(), request.id)).toBe("Awaiting deposit");
  });

  it("shows where each request's money stands in the inbox, and finds requests by it", async () => {
    const pay = (
      requestId: string,
      kind: "deposit" | "balance",
      amount: number,
      currency: string,
    ) =>
      recordPayment(deps(), {
        requestId,
        payment: bankTransfer(kind, amount, currency),
        recordedBy: STAFF.email,
      });
    const none = await makeRequest(deps());
    const offered = await makeRequest(deps());
    const offer = await sent(deps(), offered);
    const depositDue = await accepted(deps());
    // The overdue balance's stay comes first, so its balance falls due before the other's.
    const overdue = await accepted(deps());
    await pay(overdue.request.id, "deposit", overdue.offer.deposit, overdue.offer.currency);
    const due = await accepted(deps());
    await pay(due.request.id, "deposit", due.offer.deposit, due.offer.currency);
    const paid = await accepted(deps());
    await pay(paid.request.id, "deposit", paid.offer.deposit, paid.offer.currency);
    await pay(paid.request.id, "balance", paid.offer.balance, paid.offer.currency);
    const refund = await accepted(deps());
    await pay(refund.request.id, "deposit", refund.offer.deposit, refund.offer.currency);
    expect(
      await staffCancel(deps(), { ...refund.request, actor: STAFF, reason: "Flood" }),
    ).toMatchObject({ outcome: "done" });
    const today = addDays(overdue.offer.balanceDueOn!, 1);
    expect(due.offer.balanceDueOn! > today).toBe(true);
    const onToday = when(deps(), new Date(`${today}T12:00:00Z`));

    const expected: [string, MoneyState | null][] = [
      [none.id, null],
      [offered.id, "offer_sent"],
      [depositDue.request.id, "deposit_due"],
      [overdue.request.id, "balance_overdue"],
      [due.request.id, "balance_due"],
      [paid.request.id, "paid"],
      [refund.request.id, "refund_due"],
    ];
    for (const [id, state] of expected) {
      const detail = await getRequestDetail(onToday, id);
      expect(detail?.money?.state ?? null, id).toBe(state);
      // The filter finds the request under its own state and under no other.
      for (const money of MONEY_STATES) {
        const page = await listInbox(
          onToday,
          InboxFilterSchema.parse({ kind: "property_booking", q: detail!.reference, money }),
        );
        expect(
          page.items.map((item) => item.id),
          `${id} as ${money}`,
        ).toEqual(money === state ? [id] : []);
      }
    }
    const row = (await getRequestDetail(onToday, offered.id))!.money!;
    expect(row).toEqual({
      state: "offer_sent",
      currency: offer.currency,
      total: offer.total,
      outstanding: offer.total,
      dueOn: offer.expiresAt.toISOString().slice(0, 10),
    });
    const overdueRow = (await getRequestDetail(onToday, overdue.request.id))!.money!;
    expect(overdueRow.outstanding).toBe(overdue.offer.balance);
    expect(overdueRow.dueOn).toBe(overdue.offer.balanceDueOn);
  });
});
