import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import {
  calendarEntries,
  estateRateRevisions,
  guestRequestMessages,
  guestRequestNotes,
  guestRequests,
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
import { calendarBase, nightsAt } from "../factories/calendar.ts";
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

describeEachBackend("fuzzing the staff endpoints", (database) => {
  const server = fuzzApp(database, {
    ADMIN_EMAIL_DOMAIN: "castellum.test",
    // Sign-in hashes every well-formed try: a few per address, then 429s, keep the run short.
    LOGIN_MAX_PER_IP: 5,
    LOGIN_MAX_PER_ACCOUNT: 3,
  });
  let adminCookie = "";
  const requestIds = {} as Record<RequestKind, string>;

  beforeAll(async () => {
    const deps = database().deps;
    const admin = await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
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
