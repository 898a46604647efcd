import { eq } from "drizzle-orm";
import fc from "fast-check";
import sharp from "sharp";
import { beforeAll, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { guestRequests, properties, propertyClaims } from "#db/schema/index.ts";
import { createSession } from "#domain/auth/sessions.ts";
import { BLOCK_KINDS } from "#domain/calendar/calendar.schema.ts";
import { EDITABLE_FIELDS } from "#domain/owners/owner-fields.ts";
import { LANGUAGES } from "#i18n/config.ts";
import { calendarBase, nightsAt } from "../factories/calendar.ts";
import { describeEachBackend } from "../setup/database.ts";
import { type FuzzEndpoint, fuzzApp, fuzzEndpoint, logReport } from "./harness.ts";
import {
  encodePathSegment,
  HOSTILE_TEXTS,
  hostileString,
  jsonTree,
  rawText,
  serialize,
  FUZZ_TIMEOUT_MS,
  hostileBodies,
} from "./hostile.ts";
import { inject } from "./inject.ts";

const ESTATE_ID = 15;

/** A multipart body of generated parts: names, filenames, types and bytes all hostile. */
function multipartBodies(validImage: () => Buffer) {
  const part = fc.record({
    name: fc.oneof(fc.constant("images"), fc.constant("images"), hostileString),
    filename: fc.option(hostileString, { freq: 4 }),
    type: fc.constantFrom("image/png", "image/jpeg", "text/plain", "image/svg+xml", "", "x/y"),
    bytes: fc.oneof(
      {
        weight: 6,
        arbitrary: fc.uint8Array({ maxLength: 2_000 }).map((bytes) => Buffer.from(bytes)),
      },
      { weight: 3, arbitrary: hostileString.map((text) => Buffer.from(text, "utf8")) },
      // Rarely a real picture, which is stored and renders (slow: keep it rare).
      { weight: 1, arbitrary: fc.constant(null).map(() => validImage()) },
    ),
  });
  return fc
    .tuple(
      fc.array(part, { maxLength: 12 }),
      fc.constantFrom("fuzz-boundary", "x", "----", "a".repeat(70)),
      fc.boolean(),
    )
    .map(([parts, boundary, cutShort]) => {
      const chunks: Buffer[] = [];
      for (const item of parts) {
        const filename =
          item.filename === null ? "" : `; filename="${item.filename.replace(/["\r\n]/g, "")}"`;
        chunks.push(
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${item.name.replace(/["\r\n]/g, "")}"${filename}\r\n` +
              (item.type ? `Content-Type: ${item.type}\r\n` : "") +
              "\r\n",
            "utf8",
          ),
          item.bytes,
          Buffer.from("\r\n"),
        );
      }
      if (!cutShort) chunks.push(Buffer.from(`--${boundary}--\r\n`));
      return { body: Buffer.concat(chunks), boundary };
    });
}

describeEachBackend("fuzzing the owner endpoints", (database) => {
  const server = fuzzApp(database, { ADMIN_EMAIL_DOMAIN: "castellum.test" });
  let ownerCookie = "";
  let imageKeys: string[] = [];
  let picture = Buffer.alloc(0);
  /** A pending property booking of the estate, for the owner's views. */
  const requestId = randomUUID();

  beforeAll(async () => {
    const deps = database().deps;
    const [estate] = await deps.db
      .select({ ownerEmail: properties.ownerEmail })
      .from(properties)
      .where(eq(properties.id, ESTATE_ID));
    await deps.db
      .insert(propertyClaims)
      .values({ propertyId: ESTATE_ID, email: estate!.ownerEmail });
    const { token } = await createSession(
      deps,
      { role: "owner", ownerEmail: estate!.ownerEmail },
      {},
    );
    ownerCookie = `castellum_session=${token}`;
    await deps.db.insert(guestRequests).values({
      id: requestId,
      kind: "property_booking",
      reference: `PB-FUZZ-${requestId.slice(0, 8)}`,
      language: "en",
      email: "guest@example.com",
      firstName: "Fuzz",
      lastName: "Guest",
      propertyId: ESTATE_ID,
      stayStart: "2031-05-01",
      stayEnd: "2031-05-04",
      details: { numberOfGuests: 2 },
      statusTokenHash: `fuzz-${requestId}`,
    });
    const details = await inject(server().app, {
      method: "GET",
      url: "/api/property-owners/property-details",
      headers: { cookie: ownerCookie },
    });
    expect(details.status).toBe(200);
    imageKeys = ((details.json as { images: { key: string }[] }).images ?? []).map(
      (image) => image.key,
    );
    picture = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 30, b: 30 } },
    })
      .png()
      .toBuffer();
  });

  const asOwner = () => ({ cookie: ownerCookie });
  /** The estate's picture keys, known once the suite has started. */
  const someKeys = fc
    .constant(null)
    .chain(() => fc.shuffledSubarray(imageKeys.length ? imageKeys : ["none"]));
  const oneKey = someKeys.map((keys) => keys[0] ?? "none");

  const endpoints: (FuzzEndpoint & { name: string })[] = [
    {
      name: "POST /api/property-owners/update-property",
      method: "POST",
      documented: "/api/property-owners/update-property",
      baseHeaders: asOwner,
      cases: fc
        .tuple(
          fc.constantFrom(...EDITABLE_FIELDS),
          fc.constantFrom(...LANGUAGES),
          fc.oneof(
            hostileString,
            fc.array(hostileString, { maxLength: 5 }),
            fc.constantFrom("12", "1500", "EUR 900", "56.9, -3.1", "key: value"),
          ),
        )
        .chain(([field, lang, value]) => hostileBodies({ field, value, lang }))
        .map((body) => ({ path: "/api/property-owners/update-property", body })),
    },
    {
      name: "PUT /api/property-owners/rates",
      method: "PUT",
      documented: "/api/property-owners/rates",
      baseHeaders: asOwner,
      cases: fc
        .tuple(
          fc.oneof(
            fc.constant(""),
            fc.constant(`?propertyId=${ESTATE_ID}`),
            fc.integer().map((id) => `?propertyId=${id}`),
            fc.integer({ min: -2, max: 5 }).map((revision) => `?basedOn=${revision}`),
          ),
          hostileBodies({
            currency: "GBP",
            nightly: 40_000,
            minNights: 2,
            includedGuests: 6,
            extraGuestNightly: 2_500,
            cleaningFee: 15_000,
            taxPercent: 20,
            taxIncluded: true,
            depositPercent: 25,
            balanceDueDays: 14,
            cancellationPolicy: "strict",
            seasons: [],
          }),
        )
        .map(([query, body]) => ({ path: `/api/property-owners/rates${query}`, body })),
    },
    {
      name: "POST /api/property-owners/update-images",
      method: "POST",
      documented: "/api/property-owners/update-images",
      baseHeaders: asOwner,
      cases: fc
        .oneof(
          someKeys.chain((keys) => hostileBodies({ selectedImages: keys })),
          fc
            .array(fc.oneof(hostileString, fc.constantFrom(...HOSTILE_TEXTS)), { maxLength: 30 })
            .map((keys) => JSON.stringify({ selectedImages: keys })),
        )
        .map((body) => ({ path: "/api/property-owners/update-images", body })),
    },
    {
      name: "POST /api/property-owners/upload-image",
      method: "POST",
      documented: "/api/property-owners/upload-image",
      baseHeaders: asOwner,
      cases: fc
        .tuple(
          multipartBodies(() => picture),
          fc.constantFrom(
            (boundary: string) => `multipart/form-data; boundary=${boundary}`,
            (boundary: string) => `multipart/form-data; boundary="${boundary}"`,
            () => "multipart/form-data",
            () => "application/json",
            () => "multipart/mixed; boundary=x",
          ),
        )
        .map(([{ body, boundary }, contentType]) => ({
          path: "/api/property-owners/upload-image",
          body,
          headers: { "content-type": contentType(boundary) },
        })),
    },
    {
      name: "DELETE /api/property-owners/images/{key}",
      method: "DELETE",
      documented: "/api/property-owners/images/{key}",
      baseHeaders: asOwner,
      cases: fc
        .tuple(
          fc.oneof(
            oneKey,
            hostileString.map((text) => encodePathSegment(text.slice(0, 200))),
          ),
          fc.option(hostileBodies({ propertyId: ESTATE_ID })),
        )
        .map(([key, body]) => ({
          path: `/api/property-owners/images/${key}`,
          body: body ?? undefined,
        })),
    },
    {
      name: "POST /api/property-owners/blocks",
      method: "POST",
      documented: "/api/property-owners/blocks",
      baseHeaders: asOwner,
      cases: fc
        .tuple(
          fc.integer({ min: -30, max: 400 }),
          fc.integer({ min: -2, max: 370 }),
          fc.constantFrom(...BLOCK_KINDS, "holiday"),
          fc.constantFrom("", `?propertyId=${ESTATE_ID}`, "?propertyId=1", "?propertyId=x"),
        )
        .chain(([offset, length, kind, query]) =>
          hostileBodies({ ...nightsAt(calendarBase(), offset, length), kind, note: "Family" }).map(
            (body) => ({ path: `/api/property-owners/blocks${query}`, body }),
          ),
        ),
    },
    {
      name: "DELETE /api/property-owners/blocks/{blockId}",
      method: "DELETE",
      documented: "/api/property-owners/blocks/{blockId}",
      baseHeaders: asOwner,
      cases: fc
        .tuple(
          fc.oneof(
            fc.uuid(),
            hostileString.map((text) => encodePathSegment(text.slice(0, 200))),
          ),
          fc.option(rawText),
        )
        .map(([blockId, body]) => ({
          path: `/api/property-owners/blocks/${blockId}`,
          body: body ?? undefined,
        })),
    },
    {
      name: "POST /api/property-owners/requests/{collection}/{id}/view",
      method: "POST",
      documented: "/api/property-owners/requests/{collection}/{id}/view",
      baseHeaders: asOwner,
      cases: fc
        .tuple(
          fc.constantFrom("bookings", "booking-requests", "memberships", "%00"),
          fc.oneof(
            fc.constant(requestId),
            fc.uuid(),
            hostileString.map((text) => encodePathSegment(text.slice(0, 200))),
          ),
          fc.constantFrom("", `?propertyId=${ESTATE_ID}`, "?propertyId=1", "?propertyId=x"),
          fc.boolean(),
          fc.option(hostileString),
        )
        .chain(([collection, id, query, agree, note]) =>
          hostileBodies(note === null ? { agree } : { agree, note }).map((body) => ({
            path: `/api/property-owners/requests/${collection}/${id}/view${query}`,
            body,
          })),
        ),
    },
    {
      name: "POST /api/property-owners/logout",
      method: "POST",
      documented: "/api/property-owners/logout",
      cases: fc
        .oneof(rawText, jsonTree.map(serialize))
        .map((body) => ({ path: "/api/property-owners/logout", body })),
    },
  ];

  for (const endpoint of endpoints) {
    it(
      `${endpoint.name}: no 5xx, documented refusals`,
      async () => {
        logReport(endpoint.name, await fuzzEndpoint(server(), endpoint));
      },
      FUZZ_TIMEOUT_MS,
    );
  }

  it("leaves the estate readable by guests and by its owner, in every language", async () => {
    for (const lang of LANGUAGES) {
      const page = await inject(server().app, {
        method: "GET",
        url: `/api/castles/${ESTATE_ID}?lang=${lang}`,
      });
      expect(page.status, page.text.slice(0, 300)).toBe(200);
      expect(JSON.stringify(page.json)).not.toMatch(/\\u0000/);
      const details = await inject(server().app, {
        method: "GET",
        url: `/api/property-owners/property-details?lang=${lang}`,
        headers: { cookie: ownerCookie },
      });
      expect(details.status, details.text.slice(0, 300)).toBe(200);
    }
  });
});
