import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import {
  calendarEntries,
  estateRateRevisions,
  guestRequestMessages,
  guestRequestNotes,
  guestRequests,
  offers,
  payments,
  properties,
} from "#db/schema/index.ts";
import { BLOCK_NOTE_MAX_LENGTH, MAX_BLOCK_NIGHTS } from "#domain/calendar/block.schema.ts";
import { fromDateRange, nightsBetween } from "#domain/calendar/nights.ts";
import { createSession } from "#domain/auth/sessions.ts";
import { BLOCK_KINDS } from "#domain/calendar/calendar.schema.ts";
import { isEmailAddress } from "#domain/owners/owner-fields.ts";
import { ratesSchema } from "#domain/pricing/rates.schema.ts";
import { type RequestKind, statusesOf } from "#domain/requests/options.ts";
import { STAFF_COLLECTIONS } from "#domain/staff/collections.ts";
import { MessageBodySchema } from "#domain/conversation/messages.schema.ts";
import { NoteSchema } from "#domain/staff/inbox.schema.ts";
import { MAX_OFFER_NOTE, PAYMENT_KINDS, PAYMENT_METHODS } from "#domain/offers/offer.schema.ts";
import { MAX_AMOUNT } from "#domain/pricing/money.ts";
import { OFFER_KINDS, type OfferKind } from "#domain/offers/offers.contract.ts";
import { answerOffer, type OfferTerms, sendOffer } from "#domain/offers/offers.ts";
import { calendarBase, nightsAt } from "../factories/calendar.ts";
import { demoEstate } from "../factories/demo-estates.ts";
import { insertOfferableRequest } from "../factories/offers.ts";
import { describeEachBackend } from "../setup/database.ts";
import { validBookingRequest, validMembership, validPropertyBooking } from "../setup/intake.ts";
import { createTestStaff, STAFF_PASSWORD } from "../setup/staff.ts";
import {
  type FuzzCase,
  type FuzzEndpoint,
  fuzzApp,
  fuzzEndpoint,
  logReport,
  passingToken,
} from "./harness.ts";
import {
  encodePathSegment,
  hostileString,
  jsonTree,
  rawText,
  serialize,
  FUZZ_TIMEOUT_MS,
  hostileBodies,
} from "./hostile.ts";
import { inject } from "./inject.ts";

const KINDS = Object.keys(STAFF_COLLECTIONS) as RequestKind[];

/** An estate's rates as staff save them: the fuzz starts from this and bends it. */
const VALID_RATES = {
  currency: "EUR",
  nightly: 85_000,
  minNights: 2,
  includedGuests: 8,
  extraGuestNightly: 6_000,
  cleaningFee: 25_000,
  taxPercent: 10,
  taxIncluded: true,
  depositPercent: 30,
  balanceDueDays: 30,
  cancellationPolicy: "moderate",
  seasons: [{ start: "2027-07-01", end: "2027-09-01", nightly: 120_000, minNights: 7 }],
};

/**
 * The estate the offer entries price. Not Gordon Castle (15): the entries above rewrite its
 * rates and block its nights, which would turn these entries' valid cases into refusals.
 */
const OFFER_ESTATE = demoEstate("bellingham-castle");
const OFFER_TERMS: OfferTerms = { offerHours: 72, depositHours: 72 };

/** An offer as staff shape one: their own lines, a discount, a deposit share, an expiry, a note. */
const validOffer = () => ({
  lines: [
    { code: "nights", quantity: 7, unitAmount: 150_000 },
    { code: "extra", text: "Private chef", quantity: 2, unitAmount: 40_000 },
  ],
  discount: 5_000,
  depositPercent: 30,
  expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  note: "We look forward to welcoming you.",
});

/** One setup request of each offer kind per stage of the flow an entry below drives. */
interface OfferFlowRequest {
  id: string;
  offerId: string;
  currency: string;
  deposit: number;
}

describeEachBackend("fuzzing the staff endpoints", (database) => {
  const server = fuzzApp(database, {
    ADMIN_EMAIL_DOMAIN: "castellum.test",
    // Sign-in hashes every well-formed try: a few per address, then 429s, keep the run short.
    LOGIN_MAX_PER_IP: 5,
    LOGIN_MAX_PER_ACCOUNT: 3,
  });
  let adminCookie = "";
  let adminId = "";
  const requestIds = {} as Record<RequestKind, string>;

  beforeAll(async () => {
    const deps = database().deps;
    const admin = await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
    adminId = admin.id;
    const { token } = await createSession(deps, { role: "staff", staffUserId: admin.id }, {});
    adminCookie = `castellum_session=${token}`;
    const forms = {
      booking_request: ["/api/booking-requests", validBookingRequest()],
      property_booking: ["/api/bookings", validPropertyBooking()],
      membership: ["/api/membership/apply", validMembership()],
    } as const;
    for (const kind of KINDS) {
      const [path, body] = forms[kind];
      const answer = await inject(server().app, {
        method: "POST",
        url: path,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...body, turnstileToken: passingToken() }),
      });
      expect(answer.status).toBe(201);
      requestIds[kind] = (answer.json as { id: string }).id;
    }
  });

  /**
   * Requests on OFFER_ESTATE for the offer entries, per kind: one to send offers on (In
   * progress), one with an offer out to withdraw, and two whose offer the guest accepted
   * (Awaiting deposit), one to cancel and one to record payments on. A week each, 200 days and
   * more past calendarBase(), clear of every other entry's nights.
   */
  const offerFlow = {
    offerable: {} as Record<OfferKind, string>,
    offered: {} as Record<OfferKind, OfferFlowRequest>,
    cancellable: {} as Record<OfferKind, OfferFlowRequest>,
    payable: {} as Record<OfferKind, OfferFlowRequest>,
  };

  beforeAll(async () => {
    const deps = database().deps;
    const actor = { kind: "staff" as const, id: adminId, email: "admin@castellum.test" };
    let week = 0;
    const request = (kind: OfferKind) =>
      insertOfferableRequest(deps, {
        propertyId: OFFER_ESTATE.id,
        kind,
        nights: nightsAt(calendarBase(), 200 + 8 * week++, 7),
      });
    const offered = async (kind: OfferKind) => {
      const made = await request(kind);
      const sent = await sendOffer(deps, {
        kind,
        id: made.id,
        offer: {},
        actor,
        terms: OFFER_TERMS,
      });
      if (sent.outcome !== "sent") throw new Error(`no offer sent: ${JSON.stringify(sent)}`);
      const { id: offerId, currency, deposit } = sent.offer;
      const flow: OfferFlowRequest = { id: made.id, offerId, currency, deposit };
      return { flow, token: made.token };
    };
    const accepted = async (kind: OfferKind) => {
      const { flow, token } = await offered(kind);
      const answer = await answerOffer(deps, {
        token,
        offerId: flow.offerId,
        answer: "accept",
        terms: OFFER_TERMS,
      });
      if (answer.outcome !== "done") throw new Error(`not accepted: ${JSON.stringify(answer)}`);
      return flow;
    };
    for (const kind of OFFER_KINDS) {
      offerFlow.offerable[kind] = (await request(kind)).id;
      offerFlow.offered[kind] = (await offered(kind)).flow;
      offerFlow.cancellable[kind] = await accepted(kind);
      offerFlow.payable[kind] = await accepted(kind);
    }
  });

  /** A payment as staff record one: a balance by bank transfer, in the offer's currency. */
  const validPayment = (kind: OfferKind) => ({
    kind: "balance",
    method: "bank_transfer",
    amount: 10_000,
    currency: offerFlow.payable[kind].currency,
    reference: "TRF-2027-0042",
    receivedAt: new Date().toISOString(),
  });

  /**
   * A payment of a valid kind and method whose amount and reference are anything: it reaches
   * the ledger's own checks (a refund above what was paid) and stores hostile references.
   */
  const nearValidPayment = (kind: OfferKind) =>
    fc
      .record({
        kind: fc.constantFrom(...PAYMENT_KINDS),
        method: fc.constantFrom(...PAYMENT_METHODS),
        amount: fc.oneof(
          fc.integer({ min: -1, max: 2_000_000 }),
          fc.constantFrom(0, 1.5, 2 ** 31, 2 ** 53 + 1, MAX_AMOUNT, MAX_AMOUNT + 1),
        ),
        reference: hostileString,
      })
      .map((fields) => JSON.stringify({ ...validPayment(kind), ...fields }));

  /** An id in a path: a real one, another UUID, or hostile text. */
  const pathId = (real: () => string) =>
    fc.oneof(
      fc.constant(null).map(() => real()),
      fc.uuid(),
      hostileString.map((text) => encodePathSegment(text.slice(0, 200))),
    );

  const asAdmin = () => ({ cookie: adminCookie });

  const endpoints: (FuzzEndpoint & { name: string })[] = [
    {
      name: "POST /api/admin/login",
      method: "POST",
      documented: "/api/admin/login",
      // Not loopback: X-Forwarded-For is not trusted, so every try counts against one address.
      remoteAddress: "203.0.113.9",
      cases: hostileBodies({ email: "admin@castellum.test", password: STAFF_PASSWORD }).map(
        (body) => ({
          path: "/api/admin/login",
          body,
        }),
      ),
    },
    {
      name: "POST /api/admin/logout",
      method: "POST",
      documented: "/api/admin/logout",
      cases: fc.oneof(rawText, jsonTree.map(serialize)).map((body) => ({
        path: "/api/admin/logout",
        body,
      })),
    },
    {
      name: "POST /api/admin/setup",
      method: "POST",
      documented: "/api/admin/setup",
      cases: hostileBodies({
        token: "AAAAAAAAAAAAAAAAAAAAAA",
        email: "second@castellum.test",
        displayName: "Second Admin",
        password: "another-long-passphrase-7",
        language: "fr",
      }).map((body) => ({ path: "/api/admin/setup", body })),
    },
    {
      name: "PATCH /api/{collection}/{id}",
      method: "PATCH",
      documented: "",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          fc.constantFrom(...KINDS),
          hostileBodies({
            status: "Rejected",
            reason: "Dates taken",
            shareReason: true,
            version: 1,
          }),
        )
        .chain(([kind, body]) =>
          pathId(() => requestIds[kind]).map((id): FuzzCase => ({
            path: `/api${STAFF_COLLECTIONS[kind]}/${id}`,
            body,
          })),
        ),
    },
    {
      name: "POST /api/{collection}/{id}/notes",
      method: "POST",
      documented: "",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(fc.constantFrom(...KINDS), hostileBodies({ body: "Called the guest back." }))
        .chain(([kind, body]) =>
          pathId(() => requestIds[kind]).map((id): FuzzCase => ({
            path: `/api${STAFF_COLLECTIONS[kind]}/${id}/notes`,
            body,
          })),
        ),
      examples: () => [
        {
          path: `/api${STAFF_COLLECTIONS.booking_request}/${requestIds.booking_request}/notes`,
          body: JSON.stringify({ body: "Called the guest back." }),
        },
      ],
    },
    {
      name: "POST /api/{collection}/{id}/messages",
      method: "POST",
      documented: "",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          fc.constantFrom(...KINDS),
          hostileBodies({ body: "Our chef can cook on Saturday.", lastSeenMessageId: 0 }),
        )
        .chain(([kind, body]) =>
          pathId(() => requestIds[kind]).map((id): FuzzCase => ({
            path: `/api${STAFF_COLLECTIONS[kind]}/${id}/messages`,
            body,
          })),
        ),
      examples: () => [
        {
          path: `/api${STAFF_COLLECTIONS.booking_request}/${requestIds.booking_request}/messages`,
          body: JSON.stringify({ body: "Our chef can cook on Saturday." }),
        },
      ],
    },
    {
      name: "PUT /api/{collection}/{id}/due",
      method: "PUT",
      documented: "/api/booking-requests/{id}/due",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          fc.constantFrom(...KINDS),
          hostileBodies({
            dueAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
            version: 1,
          }),
        )
        .chain(([kind, body]) =>
          pathId(() => requestIds[kind]).map((id): FuzzCase => ({
            path: `/api${STAFF_COLLECTIONS[kind]}/${id}/due`,
            body,
          })),
        ),
    },
    {
      name: "PUT /api/admin/estates/{id}/response-hours",
      method: "PUT",
      documented: "/api/admin/estates/{id}/response-hours",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          pathId(() => "15"),
          hostileBodies({ hours: 24 }),
        )
        .map(([id, body]) => ({ path: `/api/admin/estates/${id}/response-hours`, body })),
    },
    {
      name: "POST /api/admin/personal-data/erase",
      method: "POST",
      documented: "/api/admin/personal-data/erase",
      baseHeaders: asAdmin,
      cases: hostileBodies({
        email: "guest@example.org",
        reason: "The guest asked",
        dryRun: true,
      }).map((body) => ({ path: "/api/admin/personal-data/erase", body })),
    },
    {
      name: "PUT /api/admin/estates/{id}/commission",
      method: "PUT",
      documented: "/api/admin/estates/{id}/commission",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          pathId(() => "15"),
          hostileBodies({ percent: 12.5 }),
        )
        .map(([id, body]) => ({ path: `/api/admin/estates/${id}/commission`, body })),
    },
    {
      name: "PUT /api/admin/estates/{id}/rates",
      method: "PUT",
      documented: "/api/admin/estates/{id}/rates",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          pathId(() => "15"),
          hostileBodies(VALID_RATES),
        )
        .map(([id, body]) => ({ path: `/api/admin/estates/${id}/rates`, body })),
      examples: () => [{ path: "/api/admin/estates/15/rates", body: JSON.stringify(VALID_RATES) }],
    },
    {
      name: "POST /api/admin/estates/{id}/rates/revisions/{revision}/revert",
      method: "POST",
      documented: "/api/admin/estates/{id}/rates/revisions/{revision}/revert",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          pathId(() => "15"),
          pathId(() => "1"),
          fc.option(rawText),
        )
        .map(([id, revision, body]) => ({
          path: `/api/admin/estates/${id}/rates/revisions/${revision}/revert`,
          body: body ?? undefined,
        })),
    },
    {
      name: "POST /api/admin/mail/{id}/retry",
      method: "POST",
      documented: "/api/admin/mail/{id}/retry",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          pathId(() => crypto.randomUUID()),
          fc.option(rawText),
        )
        .map(([id, body]) => ({ path: `/api/admin/mail/${id}/retry`, body: body ?? undefined })),
    },
    {
      name: "DELETE /api/admin/mail/{id}",
      method: "DELETE",
      documented: "/api/admin/mail/{id}",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          pathId(() => crypto.randomUUID()),
          fc.option(rawText),
        )
        .map(([id, body]) => ({ path: `/api/admin/mail/${id}`, body: body ?? undefined })),
    },
    {
      name: "PATCH /api/admin/estates/{id}/owner-email",
      method: "PATCH",
      documented: "/api/admin/estates/{id}/owner-email",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          pathId(() => "15"),
          hostileBodies({ email: "new-office@gordon-castle.example" }),
        )
        .map(([id, body]) => ({ path: `/api/admin/estates/${id}/owner-email`, body })),
    },
    {
      name: "POST /api/admin/estates/{id}/revisions/{revisionId}/revert",
      method: "POST",
      documented: "/api/admin/estates/{id}/revisions/{revisionId}/revert",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          pathId(() => "15"),
          pathId(() => "1"),
          fc.option(rawText),
        )
        .map(([id, revision, body]) => ({
          path: `/api/admin/estates/${id}/revisions/${revision}/revert`,
          body: body ?? undefined,
        })),
    },
    {
      name: "POST /api/admin/estates/{id}/blocks",
      method: "POST",
      documented: "/api/admin/estates/{id}/blocks",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          pathId(() => "15"),
          fc.integer({ min: -30, max: 400 }),
          fc.integer({ min: -2, max: 370 }),
          fc.constantFrom(...BLOCK_KINDS, "holiday"),
        )
        .chain(([id, offset, length, kind]) =>
          hostileBodies({ ...nightsAt(calendarBase(), offset, length), kind, note: "Roof" }).map(
            (body) => ({ path: `/api/admin/estates/${id}/blocks`, body }),
          ),
        ),
    },
    {
      name: "DELETE /api/admin/estates/{id}/blocks/{blockId}",
      method: "DELETE",
      documented: "/api/admin/estates/{id}/blocks/{blockId}",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          pathId(() => "15"),
          pathId(() => crypto.randomUUID()),
          fc.option(rawText),
        )
        .map(([id, blockId, body]) => ({
          path: `/api/admin/estates/${id}/blocks/${blockId}`,
          body: body ?? undefined,
        })),
    },
    {
      name: "POST /api/{collection}/{id}/offers",
      method: "POST",
      documented: "/api/bookings/{id}/offers",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          fc.constantFrom(...OFFER_KINDS),
          // The body is optional: none is the estate's quote.
          fc.option(hostileBodies(validOffer()), { freq: 6 }),
        )
        .chain(([kind, body]) =>
          pathId(() => offerFlow.offerable[kind]).map((id): FuzzCase => ({
            path: `/api${STAFF_COLLECTIONS[kind]}/${id}/offers`,
            body: body ?? undefined,
          })),
        ),
      examples: () => [
        {
          path: `/api/bookings/${offerFlow.offerable.property_booking}/offers`,
          body: JSON.stringify(validOffer()),
        },
        { path: `/api/booking-requests/${offerFlow.offerable.booking_request}/offers`, body: "{}" },
        { path: `/api/booking-requests/${offerFlow.offerable.booking_request}/offers` },
      ],
    },
    {
      name: "POST /api/{collection}/{id}/offers/{offerId}/withdraw",
      method: "POST",
      documented: "/api/bookings/{id}/offers/{offerId}/withdraw",
      baseHeaders: asAdmin,
      cases: fc.tuple(fc.constantFrom(...OFFER_KINDS), fc.option(rawText)).chain(([kind, body]) =>
        fc
          .tuple(
            pathId(() => offerFlow.offered[kind].id),
            pathId(() => offerFlow.offered[kind].offerId),
          )
          .map(([id, offerId]): FuzzCase => ({
            path: `/api${STAFF_COLLECTIONS[kind]}/${id}/offers/${offerId}/withdraw`,
            body: body ?? undefined,
          })),
      ),
      examples: () =>
        OFFER_KINDS.map((kind) => ({
          path: `/api${STAFF_COLLECTIONS[kind]}/${offerFlow.offered[kind].id}/offers/${offerFlow.offered[kind].offerId}/withdraw`,
        })),
    },
    {
      name: "POST /api/{collection}/{id}/cancel",
      method: "POST",
      documented: "/api/bookings/{id}/cancel",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(
          fc.constantFrom(...OFFER_KINDS),
          fc.option(hostileBodies({ reason: "The guest's plans changed." }), { freq: 6 }),
        )
        .chain(([kind, body]) =>
          pathId(() => offerFlow.cancellable[kind].id).map((id): FuzzCase => ({
            path: `/api${STAFF_COLLECTIONS[kind]}/${id}/cancel`,
            body: body ?? undefined,
          })),
        ),
      examples: () => [
        {
          path: `/api/bookings/${offerFlow.cancellable.property_booking.id}/cancel`,
          body: JSON.stringify({ reason: "The guest's plans changed." }),
        },
        { path: `/api/booking-requests/${offerFlow.cancellable.booking_request.id}/cancel` },
      ],
    },
    {
      name: "POST /api/{collection}/{id}/payments",
      method: "POST",
      documented: "/api/bookings/{id}/payments",
      baseHeaders: asAdmin,
      cases: fc.constantFrom(...OFFER_KINDS).chain((kind) =>
        fc
          .tuple(
            pathId(() => offerFlow.payable[kind].id),
            // Built when generated: the currency is the setup offer's.
            fc
              .constant(null)
              .chain(() => fc.oneof(hostileBodies(validPayment(kind)), nearValidPayment(kind))),
          )
          .map(([id, body]): FuzzCase => ({
            path: `/api${STAFF_COLLECTIONS[kind]}/${id}/payments`,
            body,
          })),
      ),
      examples: () => [
        // The deposit in full (the booking is confirmed), then a refund of part of it.
        ...OFFER_KINDS.map((kind) => ({
          path: `/api${STAFF_COLLECTIONS[kind]}/${offerFlow.payable[kind].id}/payments`,
          body: JSON.stringify({
            ...validPayment(kind),
            kind: "deposit",
            amount: offerFlow.payable[kind].deposit,
          }),
        })),
        {
          path: `/api/bookings/${offerFlow.payable.property_booking.id}/payments`,
          body: JSON.stringify({
            ...validPayment("property_booking"),
            kind: "refund",
            amount: 1_000,
          }),
        },
      ],
    },
  ];

  for (const endpoint of endpoints) {
    it(
      `${endpoint.name}: no 5xx, documented refusals`,
      async () => {
        // The collection calls are one operation per kind in the document; check against each.
        const documented =
          endpoint.documented ||
          (endpoint.name.includes("notes")
            ? "/api/booking-requests/{id}/notes"
            : endpoint.name.includes("messages")
              ? "/api/booking-requests/{id}/messages"
              : "/api/booking-requests/{id}");
        logReport(endpoint.name, await fuzzEndpoint(server(), { ...endpoint, documented }));
      },
      FUZZ_TIMEOUT_MS,
    );
  }

  it("leaves only rates the schema takes behind, numbered one after the other", async () => {
    const rows = await database()
      .deps.db.select({
        propertyId: estateRateRevisions.propertyId,
        revision: estateRateRevisions.revision,
        rates: estateRateRevisions.rates,
      })
      .from(estateRateRevisions)
      .orderBy(estateRateRevisions.propertyId, estateRateRevisions.revision);
    for (const row of rows)
      expect(ratesSchema.safeParse(row.rates).success, JSON.stringify(row)).toBe(true);
    const estate15 = rows.filter((row) => row.propertyId === 15).map((row) => row.revision);
    expect(estate15).toEqual(estate15.map((_, index) => index + 1));
  });

  it("leaves only offers that add up, and payments in their offer's currency, behind", async () => {
    const db = database().deps.db;
    const offerRows = await db.select().from(offers);
    const byId = new Map(offerRows.map((offer) => [offer.id, offer]));
    for (const offer of offerRows) {
      expect(offer.deposit + offer.balance, JSON.stringify(offer)).toBe(offer.total);
      expect(offer.total, JSON.stringify(offer)).toBeGreaterThan(0);
      expect(offer.deposit, JSON.stringify(offer)).toBeGreaterThanOrEqual(0);
      expect(offer.balance, JSON.stringify(offer)).toBeGreaterThanOrEqual(0);
      expect(offer.expiresAt.getTime()).toBeGreaterThan(offer.createdAt.getTime());
      expect((offer.note ?? "").length).toBeLessThanOrEqual(MAX_OFFER_NOTE);
    }
    // Some generated offers were sent, beyond the three per kind setup sent.
    expect(offerRows.length).toBeGreaterThan(3 * OFFER_KINDS.length);
    const paymentRows = await db.select().from(payments);
    expect(paymentRows.length, "some generated payments are valid and stored").toBeGreaterThan(0);
    const settled = new Map<string, { received: number; refunded: number }>();
    for (const payment of paymentRows) {
      const offer = byId.get(payment.offerId);
      expect(payment.amount, JSON.stringify(payment)).toBeGreaterThan(0);
      expect(payment.currency, JSON.stringify(payment)).toBe(offer?.currency);
      expect(payment.requestId).toBe(offer?.requestId);
      expect(payment.reference.length).toBeGreaterThan(0);
      expect(payment.reference.length).toBeLessThanOrEqual(200);
      const sum = settled.get(payment.offerId) ?? { received: 0, refunded: 0 };
      if (payment.kind === "refund") sum.refunded += payment.amount;
      else sum.received += payment.amount;
      settled.set(payment.offerId, sum);
    }
    // Never more refunded than received.
    for (const [offerId, sum] of settled)
      expect(sum.refunded, offerId).toBeLessThanOrEqual(sum.received);
    // The examples reached each success path: withdrawn, cancelled, paid.
    const statusOf = async (id: string) =>
      (
        await db
          .select({ status: guestRequests.status })
          .from(guestRequests)
          .where(eq(guestRequests.id, id))
      )[0]?.status;
    for (const kind of OFFER_KINDS) {
      expect(byId.get(offerFlow.offered[kind].offerId)?.status).toBe("withdrawn");
      expect(await statusOf(offerFlow.cancellable[kind].id)).toBe("Cancelled");
      expect(await statusOf(offerFlow.payable[kind].id)).toBe("Confirmed");
    }
  });

  it("leaves only valid statuses, notes and owner emails behind", async () => {
    const db = database().deps.db;
    const requests = await db
      .select({ kind: guestRequests.kind, status: guestRequests.status })
      .from(guestRequests);
    for (const request of requests)
      expect(statusesOf(request.kind as RequestKind)).toContain(request.status);
    const notes = await db.select({ body: guestRequestNotes.body }).from(guestRequestNotes);
    expect(notes.length, "some generated notes are valid and stored").toBeGreaterThan(0);
    for (const note of notes) expect(NoteSchema.safeParse(note).success, note.body).toBe(true);
    // Every message the fuzz got sent to a guest is one the compose box could have sent.
    const messages = await db
      .select({ body: guestRequestMessages.body })
      .from(guestRequestMessages);
    expect(messages.length, "some generated messages are valid and stored").toBeGreaterThan(0);
    for (const message of messages)
      expect(MessageBodySchema.safeParse(message.body).success, message.body).toBe(true);
    const estates = await db.select({ email: properties.ownerEmail }).from(properties);
    for (const estate of estates) expect(isEmailAddress(estate.email), estate.email).toBe(true);
    // Every block the fuzz got stored is one the form could have sent.
    const blocks = await db
      .select()
      .from(calendarEntries)
      .where(eq(calendarEntries.source, "block"));
    for (const block of blocks) {
      const nights = fromDateRange(block.nights);
      expect(nightsBetween(nights.start, nights.end)).toBeLessThanOrEqual(MAX_BLOCK_NIGHTS);
      expect(BLOCK_KINDS).toContain(block.kind);
      expect((block.note ?? "").length).toBeLessThanOrEqual(BLOCK_NOTE_MAX_LENGTH);
    }
  });
});
