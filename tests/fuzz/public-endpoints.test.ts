import { count, eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  guestRequestMessages,
  guestRequests,
  offers,
  ownerCodes,
  payments,
} from "#db/schema/index.ts";
import { MessageBodySchema } from "#domain/conversation/messages.schema.ts";
import { answerOffer, type OfferTerms, sendOffer } from "#domain/offers/offers.ts";
import { hashStatusToken } from "#domain/requests/intake/reference.ts";
import { isEmailAddress } from "#domain/owners/owner-fields.ts";
import { bookingRequestSchema } from "#domain/requests/booking-request.schema.ts";
import { membershipSchema } from "#domain/requests/membership.schema.ts";
import type { RequestKind } from "#domain/requests/options.ts";
import { propertyBookingSchema } from "#domain/requests/property-booking.schema.ts";
import { describeEachBackend } from "../setup/database.ts";
import { calendarBase, nightsAt } from "../factories/calendar.ts";
import { demoEstate } from "../factories/demo-estates.ts";
import { insertOfferableRequest } from "../factories/offers.ts";
import { validBookingRequest, validMembership, validPropertyBooking } from "../setup/intake.ts";
import {
  type FuzzEndpoint,
  fuzzApp,
  fuzzEndpoint,
  fuzzQuery,
  logReport,
  passingToken,
} from "./harness.ts";
import {
  FUZZ_TIMEOUT_MS,
  encodePathSegment,
  hostileString,
  hostileStringsIn,
  jsonTree,
  mutatedBody,
  rawText,
  serialize,
} from "./hostile.ts";

const TOKEN = "@@bot-token@@";

const FORMS: { kind: RequestKind; path: string; base: Record<string, unknown> }[] = [
  { kind: "booking_request", path: "/api/booking-requests", base: validBookingRequest() },
  { kind: "property_booking", path: "/api/bookings", base: validPropertyBooking() },
  { kind: "membership", path: "/api/membership/apply", base: validMembership() },
];

/** A form body: hostile strings in a valid form (with a real token), fields replaced, junk. */
function formBodies(base: Record<string, unknown>): fc.Arbitrary<string> {
  const withToken = { ...base, turnstileToken: TOKEN };
  return fc.oneof(
    { weight: 3, arbitrary: hostileStringsIn(withToken) },
    { weight: 3, arbitrary: mutatedBody(withToken) },
    { weight: 1, arbitrary: jsonTree.map(serialize) },
    { weight: 1, arbitrary: rawText },
  );
}

const GORDON = demoEstate("gordon-castle");
const OWNER_BODIES = {
  verifyEmail: { email: GORDON.email },
  verifyCode: { email: GORDON.email, code: "123456" },
  claim: { email: GORDON.email, propertyId: GORDON.id },
};

function ownerBodies(base: Record<string, unknown>): fc.Arbitrary<string> {
  return fc.oneof(hostileStringsIn(base), mutatedBody(base), jsonTree.map(serialize), rawText);
}

const OFFER_TERMS: OfferTerms = { offerHours: 72, depositHours: 72 };
const CASL_TX = `0x${"ab12".repeat(16)}`;

/** A request of the offer flow the guest's calls below drive, with its status token. */
interface GuestFlowRequest {
  id: string;
  token: string;
  offerId: string;
}

describeEachBackend("fuzzing the public endpoints", (database) => {
  const server = fuzzApp(database, { OWNER_CODES_PER_EMAIL: 1_000_000 });

  for (const form of FORMS) {
    it(
      `POST ${form.path}: no 5xx, documented refusals, only valid requests stored`,
      async () => {
        const endpoint: FuzzEndpoint = {
          method: "POST",
          documented: form.path,
          cases: formBodies(form.base).map((body) => ({ path: form.path, body })),
          examples: () => [
            { path: form.path, body: JSON.stringify({ ...form.base, turnstileToken: TOKEN }) },
          ],
          prepare: async (fuzzCase) =>
            typeof fuzzCase.body === "string"
              ? { ...fuzzCase, body: fuzzCase.body.replace(TOKEN, passingToken()) }
              : fuzzCase,
        };
        logReport(`POST ${form.path}`, await fuzzEndpoint(server(), endpoint));

        const schema =
          form.kind === "booking_request"
            ? bookingRequestSchema
            : form.kind === "membership"
              ? membershipSchema
              : propertyBookingSchema(18);
        const rows = await database()
          .deps.db.select()
          .from(guestRequests)
          .where(eq(guestRequests.kind, form.kind));
        expect(rows.length, "some generated requests are valid and stored").toBeGreaterThan(0);
        for (const row of rows) {
          const parsed = schema.safeParse({ ...row.details, turnstileToken: "stored" });
          expect(parsed.success, JSON.stringify(row.details)).toBe(true);
          expect(row.email).toBe((row.details as { email: string }).email);
          expect(JSON.stringify(row)).not.toMatch(/\\u0000/);
        }
      },
      FUZZ_TIMEOUT_MS,
    );
  }

  it(
    "POST /api/requests/{token}/messages: no 5xx, documented refusals, only valid replies stored",
    async () => {
      // One request whose status link the fuzz knows, as the guest's mail would carry it.
      const token = "F".repeat(32);
      await database()
        .deps.db.insert(guestRequests)
        .values({
          id: crypto.randomUUID(),
          kind: "booking_request",
          reference: "BR-FUZZ-0001",
          language: "en",
          email: "fuzz@example.com",
          firstName: "Fuzz",
          lastName: "Guest",
          details: {},
          statusTokenHash: hashStatusToken(token),
        });
      const base = { body: "Thank you, see you in May.", turnstileToken: TOKEN };
      const tokens = fc.oneof(
        { weight: 3, arbitrary: fc.constant(token) },
        {
          weight: 1,
          arbitrary: hostileString.map((text) => encodePathSegment(text.slice(0, 200))),
        },
      );
      const endpoint: FuzzEndpoint = {
        method: "POST",
        documented: "/api/requests/{token}/messages",
        cases: fc
          .tuple(tokens, ownerBodies(base))
          .map(([path, body]) => ({ path: `/api/requests/${path}/messages`, body })),
        examples: () => [{ path: `/api/requests/${token}/messages`, body: JSON.stringify(base) }],
        prepare: async (fuzzCase) =>
          typeof fuzzCase.body === "string"
            ? { ...fuzzCase, body: fuzzCase.body.replace(TOKEN, passingToken()) }
            : fuzzCase,
      };
      logReport("POST /api/requests/{token}/messages", await fuzzEndpoint(server(), endpoint));
      const stored = await database().deps.db.select().from(guestRequestMessages);
      expect(stored.length, "some generated replies are valid and stored").toBeGreaterThan(0);
      for (const message of stored)
        expect(MessageBodySchema.safeParse(message.body).success, message.body).toBe(true);
    },
    FUZZ_TIMEOUT_MS,
  );

  const ownerCalls = [
    { path: "/api/property-owners/verify-email", base: OWNER_BODIES.verifyEmail },
    { path: "/api/property-owners/verify-code", base: OWNER_BODIES.verifyCode },
    { path: "/api/property-owners/claim-property", base: OWNER_BODIES.claim },
  ];
  for (const call of ownerCalls) {
    it(
      `POST ${call.path}: no 5xx, documented refusals`,
      async () => {
        const endpoint: FuzzEndpoint = {
          method: "POST",
          documented: call.path,
          cases: ownerBodies(call.base).map((body) => ({ path: call.path, body })),
        };
        logReport(`POST ${call.path}`, await fuzzEndpoint(server(), endpoint));
        // Codes go to estates' addresses only: every stored code is for a real email.
        const codes = await database()
          .deps.db.select({ email: ownerCodes.email, n: count() })
          .from(ownerCodes)
          .groupBy(ownerCodes.email);
        for (const code of codes) expect(isEmailAddress(code.email), code.email).toBe(true);
      },
      FUZZ_TIMEOUT_MS,
    );
  }

  describe("the offer as the guest answers it", () => {
    /**
     * Requests on Gordon Castle with an offer, one per guest call: two with the offer out (to
     * accept, to decline) and two the guest accepted (to name a $CASL transaction, to cancel).
     * A week each, 200 days and more past calendarBase(), so no other request holds the nights.
     * Made when this block starts, after the form entries above, which read every stored request
     * of their kind through the form's schema (these are written as intake stores them, not
     * through the form).
     */
    const flow = {} as Record<
      "accepting" | "declining" | "paying" | "cancelling",
      GuestFlowRequest
    >;
    beforeAll(async () => {
      const deps = database().deps;
      const actor = {
        kind: "staff" as const,
        id: crypto.randomUUID(),
        email: "admin@castellum.test",
      };
      let week = 0;
      const offered = async (): Promise<GuestFlowRequest> => {
        const made = await insertOfferableRequest(deps, {
          propertyId: GORDON.id,
          nights: nightsAt(calendarBase(), 200 + 8 * week++, 7),
        });
        const sent = await sendOffer(deps, {
          kind: made.kind,
          id: made.id,
          offer: {},
          actor,
          terms: OFFER_TERMS,
        });
        if (sent.outcome !== "sent") throw new Error(`no offer sent: ${JSON.stringify(sent)}`);
        return { id: made.id, token: made.token, offerId: sent.offer.id };
      };
      const accepted = async () => {
        const made = await offered();
        const answer = await answerOffer(deps, {
          token: made.token,
          offerId: made.offerId,
          answer: "accept",
          terms: OFFER_TERMS,
        });
        if (answer.outcome !== "done") throw new Error(`not accepted: ${JSON.stringify(answer)}`);
        return made;
      };
      flow.accepting = await offered();
      flow.declining = await offered();
      flow.paying = await accepted();
      flow.cancelling = await accepted();
    });

    /**
     * A status token in a path: mostly the request's own, else another request's (whose offer
     * the call cannot change for the worse), a well-formed one no request has, or hostile text.
     */
    const tokenOf = (own: () => GuestFlowRequest, others: () => GuestFlowRequest[]) =>
      fc.oneof(
        { weight: 4, arbitrary: fc.constant(null).map(() => own().token) },
        {
          weight: 1,
          arbitrary: fc.nat().map((i) => others()[i % others().length]!.token),
        },
        { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{32}$/) },
        {
          weight: 1,
          arbitrary: hostileString.map((text) => encodePathSegment(text.slice(0, 200))),
        },
      );
    /** An offer id in a path: the request's own offer, another's, another UUID, or hostile text. */
    const offerIdOf = (own: () => GuestFlowRequest, others: () => GuestFlowRequest[]) =>
      fc.oneof(
        { weight: 4, arbitrary: fc.constant(null).map(() => own().offerId) },
        {
          weight: 1,
          arbitrary: fc.nat().map((i) => others()[i % others().length]!.offerId),
        },
        { weight: 1, arbitrary: fc.uuid() },
        {
          weight: 1,
          arbitrary: hostileString.map((text) => encodePathSegment(text.slice(0, 200))),
        },
      );
    const offerOf = async (request: GuestFlowRequest) =>
      (await database().deps.db.select().from(offers).where(eq(offers.id, request.offerId)))[0];
    const statusOf = async (request: GuestFlowRequest) =>
      (
        await database()
          .deps.db.select({ status: guestRequests.status })
          .from(guestRequests)
          .where(eq(guestRequests.id, request.id))
      )[0]?.status;

    // The guest's answers. The other requests in the mix had their offer accepted already: accepting
    // it again answers as the first time, declining it is refused, so each call's own request is
    // the only one it moves.
    for (const answer of ["accept", "decline"] as const)
      it(
        `POST /api/requests/{token}/offers/{offerId}/${answer}: no 5xx, documented refusals`,
        async () => {
          const own = () => (answer === "accept" ? flow.accepting : flow.declining);
          const others = () => [flow.paying, flow.cancelling];
          const endpoint: FuzzEndpoint = {
            method: "POST",
            documented: `/api/requests/{token}/offers/{offerId}/${answer}`,
            cases: fc
              .tuple(tokenOf(own, others), offerIdOf(own, others), fc.option(rawText))
              .map(([token, offerId, body]) => ({
                path: `/api/requests/${token}/offers/${offerId}/${answer}`,
                body: body ?? undefined,
              })),
            examples: () => [
              { path: `/api/requests/${own().token}/offers/${own().offerId}/${answer}` },
            ],
          };
          logReport(
            `POST /api/requests/{token}/offers/{offerId}/${answer}`,
            await fuzzEndpoint(server(), endpoint),
          );
          expect((await offerOf(own()))?.status).toBe(
            answer === "accept" ? "accepted" : "declined",
          );
          expect(await statusOf(own())).toBe(
            answer === "accept" ? "Awaiting deposit" : "In progress",
          );
          for (const other of others()) expect((await offerOf(other))?.status).toBe("accepted");
        },
        FUZZ_TIMEOUT_MS,
      );

    it(
      "POST /api/requests/{token}/offers/{offerId}/casl: no 5xx, documented refusals, only hashes stored",
      async () => {
        const own = () => flow.paying;
        // Declined and accepted offers: naming a transaction is refused or saved on its own offer.
        const others = () => [flow.declining, flow.accepting];
        const bodies = fc.oneof(
          { weight: 3, arbitrary: ownerBodies({ txHash: CASL_TX }) },
          {
            // Near a hash: spaces around it, a digit too few or too many, any case.
            weight: 1,
            arbitrary: fc
              .stringMatching(/^[ \t]?0[xX][0-9a-fA-F]{63,65}[ \t]?$/)
              .map((txHash) => JSON.stringify({ txHash })),
          },
        );
        const endpoint: FuzzEndpoint = {
          method: "POST",
          documented: "/api/requests/{token}/offers/{offerId}/casl",
          cases: fc
            .tuple(tokenOf(own, others), offerIdOf(own, others), bodies)
            .map(([token, offerId, body]) => ({
              path: `/api/requests/${token}/offers/${offerId}/casl`,
              body,
            })),
          examples: () => [
            {
              path: `/api/requests/${own().token}/offers/${own().offerId}/casl`,
              body: JSON.stringify({ txHash: CASL_TX }),
            },
          ],
        };
        logReport(
          "POST /api/requests/{token}/offers/{offerId}/casl",
          await fuzzEndpoint(server(), endpoint),
        );
        const stored = await database().deps.db.select({ tx: offers.guestCaslTx }).from(offers);
        for (const { tx } of stored) if (tx !== null) expect(tx).toMatch(/^0x[0-9a-fA-F]{64}$/);
        expect((await offerOf(own()))?.guestCaslTx).not.toBeNull();
        expect((await offerOf(flow.declining))?.guestCaslTx).toBeNull();
      },
      FUZZ_TIMEOUT_MS,
    );

    it(
      "POST /api/requests/{token}/cancel: no 5xx, documented refusals",
      async () => {
        const own = () => flow.cancelling;
        // A declined offer: nothing to cancel.
        const others = () => [flow.declining];
        const reason = { reason: "Our plans changed, sadly." };
        const endpoint: FuzzEndpoint = {
          method: "POST",
          documented: "/api/requests/{token}/cancel",
          cases: fc
            .tuple(tokenOf(own, others), fc.option(ownerBodies(reason), { freq: 6 }))
            .map(([token, body]) => ({
              path: `/api/requests/${token}/cancel`,
              body: body ?? undefined,
            })),
          examples: () => [
            { path: `/api/requests/${own().token}/cancel`, body: JSON.stringify(reason) },
          ],
        };
        logReport("POST /api/requests/{token}/cancel", await fuzzEndpoint(server(), endpoint));
        expect(await statusOf(own())).toBe("Cancelled");
        expect(await statusOf(flow.declining)).toBe("In progress");
      },
      FUZZ_TIMEOUT_MS,
    );

    it(
      "GET /api/requests/{token}: no 5xx, documented refusals, whatever the token and query",
      async () => {
        // Every state the calls above left: accepted, declined, paid by $CASL, cancelled.
        const tokens = () => Object.values(flow).map((request) => request.token);
        const report = await fuzzQuery(server(), {
          documented: "/api/requests/{token}",
          paths: fc
            .oneof(
              { weight: 4, arbitrary: fc.nat().map((i) => tokens()[i % tokens().length]!) },
              { weight: 1, arbitrary: fc.constant("F".repeat(32)) },
              { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{32}$/) },
              {
                weight: 1,
                arbitrary: hostileString.map((text) => encodePathSegment(text.slice(0, 200))),
              },
            )
            .map((token) => `/api/requests/${token}`),
        });
        logReport("GET /api/requests/{token}", report);
        expect(report.statuses[200], "the real tokens are read").toBeGreaterThan(0);
      },
      FUZZ_TIMEOUT_MS,
    );

    it("leaves only offers that add up, and no payment, behind the guest's calls", async () => {
      const db = database().deps.db;
      const rows = await db.select().from(offers);
      expect(rows.length).toBe(Object.keys(flow).length);
      for (const offer of rows) {
        expect(offer.deposit + offer.balance, JSON.stringify(offer)).toBe(offer.total);
        expect(offer.total).toBeGreaterThan(0);
      }
      // Only staff and Stripe write the ledger.
      expect(await db.select().from(payments)).toEqual([]);
    });
  });
});
