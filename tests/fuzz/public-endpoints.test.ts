import { count, eq } from "drizzle-orm";
import fc from "fast-check";
import { expect, it } from "vitest";
import { guestRequestMessages, guestRequests, ownerCodes } from "#db/schema/index.ts";
import { MessageBodySchema } from "#domain/conversation/messages.schema.ts";
import { hashStatusToken } from "#domain/requests/intake/reference.ts";
import { isEmailAddress } from "#domain/owners/owner-fields.ts";
import { bookingRequestSchema } from "#domain/requests/booking-request.schema.ts";
import { membershipSchema } from "#domain/requests/membership.schema.ts";
import type { RequestKind } from "#domain/requests/options.ts";
import { propertyBookingSchema } from "#domain/requests/property-booking.schema.ts";
import { describeEachBackend } from "../setup/database.ts";
import { demoEstate } from "../factories/demo-estates.ts";
import { validBookingRequest, validMembership, validPropertyBooking } from "../setup/intake.ts";
import { type FuzzEndpoint, fuzzApp, fuzzEndpoint, logReport, passingToken } from "./harness.ts";
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
});
