import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { guestRequests, propertyClaims, propertyRevisions } from "#db/schema/index.ts";
import { createSession } from "#domain/auth/sessions.ts";
import { updateEstateField } from "#domain/owners/edits.ts";
import { listEstatesForStaff } from "#domain/owners/revisions.ts";
import { ValidationErrorSchema } from "#domain/api/operation.ts";
import { getCastle } from "#domain/catalogue/catalogue.contract.ts";
import {
  getStaffEstate,
  listStaffEstates,
  revertEstateRevision,
  setEstateResponseHours,
} from "#domain/staff/estates.contract.ts";
import { dataOf } from "#tests/setup/api.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { serveIntake, submitGuestForm, validPropertyBooking } from "#tests/setup/intake.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";
import { anyOf } from "#tests/setup/matchers.ts";

/** Estate 7 of the demo catalogue: Amalfi Coast, "Costiera Amalfitana" in Italian. */
const AMALFI = { id: 7, email: "concierge@villa-sospesa.example" } as const;
/** Estate 3: Padua, "Padova" in Italian. */
const PADUA = { id: 3, email: "ufficio@rocca-sartori.example" } as const;
/** Estate 12: Tabiano, left to the authorisation matrix. */
const TABIANO = { id: 12, email: "castellano@castello-pietranera.example" } as const;

const owner = (email: string) => ({ role: "owner" as const, email });
/** Every estate of the demo catalogue, by id. */
const ALL_IDS = DEMO_CATALOGUE.map((estate) => estate.id);
/** The demo estates a staff search for `q` finds: a name in any language or the owner email. */
const matchingIds = (q: string) =>
  DEMO_CATALOGUE.filter(
    (estate) =>
      estate.ownerEmail.toLowerCase().includes(q) ||
      Object.values(estate.content).some((text) => text.name.toLowerCase().includes(q)),
  ).map((estate) => estate.id);

describeEachBackend("the staff estates API", (database) => {
  const server = serveIntake(() => database().deps);
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    const deps = database().deps;
    await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
    await createTestStaff(deps, "clerk@castellum.test", { isAdmin: false });
    await createTestStaff(deps, "boss@other.test", { isAdmin: true });
    for (const email of ["admin@castellum.test", "clerk@castellum.test", "boss@other.test"])
      cookies[email] = await signIn(server().url, email);
    // A live owner session: the refusals below are for the role, not for a missing cookie.
    const session = await createSession(deps, { role: "owner", ownerEmail: AMALFI.email }, {});
    cookies.owner = `castellum_session=${session.token}`;
  });

  const call = (method: string, path: string, options: Parameters<typeof staffCall>[3] = {}) =>
    staffCall(server().url, method, path, { cookie: cookies["admin@castellum.test"], ...options });
  const ids = (body: { estates: { id: number }[] }) => body.estates.map((estate) => estate.id);
  const italianName = async (id: number) => {
    const answer = await staffCall(server().url, "GET", `/api/castles/${id}?lang=it`);
    expect(answer.status).toBe(200);
    return dataOf(getCastle, answer, 200).name as string;
  };

  it("lists every estate by id with its owner email, claim, stale text and changes", async () => {
    const answer = await call("GET", "/api/admin/estates");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
    expect(ids(dataOf(listStaffEstates, answer, 200))).toEqual(ALL_IDS);
    expect(dataOf(listStaffEstates, answer, 200).nextAfter).toBeNull();
    expect(
      dataOf(listStaffEstates, answer, 200).estates.find(
        (estate: { id: number }) => estate.id === AMALFI.id,
      ),
    ).toEqual({
      id: AMALFI.id,
      name: "Amalfi Coast",
      location: "Ravello, Salerno, Campania, Italy",
      ownerEmail: AMALFI.email,
      claimedAt: null,
      staleCount: 0,
      revisionCount: 0,
      lastChangeAt: null,
    });
    const french = await call("GET", "/api/admin/estates", {
      headers: { "Accept-Language": "fr" },
    });
    expect(
      dataOf(listStaffEstates, french, 200).estates.find(
        (estate: { id: number }) => estate.id === AMALFI.id,
      )?.name,
    ).toBe("Côte amalfitaine");
  });

  it("searches names in any language and owner emails, and pages after an id", async () => {
    const search = async (query: string) =>
      ids(dataOf(listStaffEstates, await call("GET", `/api/admin/estates?${query}`), 200));
    expect(await search("q=amalfi")).toEqual([AMALFI.id]);
    expect(await search("q=Costiera")).toEqual([AMALFI.id]);
    expect(await search(`q=${encodeURIComponent("阿马尔菲")}`)).toEqual([AMALFI.id]);
    expect(await search("q=VILLA-SOSPESA")).toEqual([AMALFI.id]);
    expect(await search("q=%25")).toEqual([]);
    expect(await search("q=nothing-like-this")).toEqual([]);
    expect(await search(`after=${ALL_IDS.at(-3)}`)).toEqual(ALL_IDS.slice(-2));
    const schlosses = matchingIds("schloss");
    expect(schlosses.length).toBeGreaterThan(1);
    expect(await search(`q=schloss&after=${schlosses[0]}`)).toEqual(schlosses.slice(1));

    const bad = await call("GET", "/api/admin/estates?after=abc");
    expect(bad.status).toBe(400);
    expect(ValidationErrorSchema.parse(bad.body).errors).toEqual([
      { path: "after", message: "This page link is no longer valid; start from the first page" },
    ]);
    const long = await call("GET", `/api/admin/estates?q=${"x".repeat(101)}`);
    expect(long.status).toBe(400);
    expect(ValidationErrorSchema.parse(long.body).errors![0]!.path).toBe("q");
  });

  it("gives the next page's cursor when more estates follow (keyset on the id)", async () => {
    const deps = database().deps;
    // Pages of a third of the catalogue (rounded up): three pages, the last one not full.
    const limit = Math.ceil((ALL_IDS.length + 1) / 3);
    const pages = [await listEstatesForStaff(deps, { language: "en", limit })];
    while (pages.at(-1)?.nextAfter) {
      const after = pages.at(-1)?.nextAfter ?? undefined;
      pages.push(await listEstatesForStaff(deps, { language: "en", limit, after }));
    }
    expect(pages.map((page) => page.nextAfter)).toEqual([
      ALL_IDS[limit - 1],
      ALL_IDS[2 * limit - 1],
      null,
    ]);
    expect(pages.flatMap((page) => page.estates.map((e) => e.id))).toEqual(ALL_IDS);
  });

  it("shows an owner's edit in the estate's history and flags the other languages", async () => {
    const before = await italianName(AMALFI.id);
    expect(before).toBe("Costiera Amalfitana");
    await updateEstateField(database().deps, owner(AMALFI.email), {
      propertyId: AMALFI.id,
      field: "name",
      value: "Villa Sospesa di Ravello",
      language: "it",
    });
    const answer = await call("GET", `/api/admin/estates/${AMALFI.id}`);
    expect(answer.status).toBe(200);
    expect(dataOf(getStaffEstate, answer, 200).estate).toMatchObject({
      id: AMALFI.id,
      slug: anyOf(String),
      language: "en",
      name: "Amalfi Coast",
      contactEmail: AMALFI.email,
      actor: { role: "staff", email: "admin@castellum.test" },
    });
    expect(dataOf(getStaffEstate, answer, 200).revisions).toHaveLength(1);
    expect(dataOf(getStaffEstate, answer, 200).revisions[0]).toMatchObject({
      field: "name",
      lang: "it",
      oldText: "Costiera Amalfitana",
      newText: "Villa Sospesa di Ravello",
      actorRole: "owner",
      actor: AMALFI.email,
      revertedAt: null,
      revertedBy: null,
      revertOf: null,
      revertable: true,
    });
    expect(dataOf(getStaffEstate, answer, 200).stale).toEqual(
      ["en", "fr", "zh"].map((lang) => ({
        field: "name",
        lang,
        sourceLang: "it",
        since: anyOf(String),
      })),
    );
    const italian = await call("GET", `/api/admin/estates/${AMALFI.id}`, {
      headers: { "Accept-Language": "it" },
    });
    expect(dataOf(getStaffEstate, italian, 200).estate.name).toBe("Villa Sospesa di Ravello");

    const row = dataOf(listStaffEstates, await call("GET", "/api/admin/estates?q=amalfi"), 200)
      .estates[0]!;
    expect(row).toMatchObject({ staleCount: 3, revisionCount: 1 });
    expect(row.lastChangeAt).toBe(dataOf(getStaffEstate, answer, 200).revisions[0]!.createdAt);
  });

  it("reverts a change: the public page shows the old value, and the revert is in the history", async () => {
    const { revisions } = dataOf(
      getStaffEstate,
      await call("GET", `/api/admin/estates/${AMALFI.id}`),
      200,
    );
    const change = revisions[0]!;
    expect(await italianName(AMALFI.id)).toBe("Villa Sospesa di Ravello");

    const answer = await call(
      "POST",
      `/api/admin/estates/${AMALFI.id}/revisions/${change.id}/revert`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ revisionId: anyOf(Number) });
    expect(await italianName(AMALFI.id)).toBe("Costiera Amalfitana");

    const after = dataOf(
      getStaffEstate,
      await call("GET", `/api/admin/estates/${AMALFI.id}`),
      200,
    ).revisions;
    expect(after.map((r: { id: number }) => r.id)).toEqual([
      dataOf(revertEstateRevision, answer, 200).revisionId,
      change.id,
    ]);
    expect(after[0]).toMatchObject({
      field: "name",
      lang: "it",
      oldText: "Villa Sospesa di Ravello",
      newText: "Costiera Amalfitana",
      actorRole: "staff",
      actor: "admin@castellum.test",
      revertOf: change.id,
    });
    expect(after[1]).toMatchObject({
      revertedBy: "admin@castellum.test",
      revertedAt: anyOf(String),
      revertable: false,
    });

    // Twice: the change is undone already.
    const again = await call(
      "POST",
      `/api/admin/estates/${AMALFI.id}/revisions/${change.id}/revert`,
    );
    expect(again.status).toBe(422);
    expect(again.body).toEqual({
      message: "This change has already been reverted.",
      code: "already_reverted",
    });
    expect(await italianName(AMALFI.id)).toBe("Costiera Amalfitana");
  });

  it("refuses to revert a change that a later change overwrote, and says what the field holds", async () => {
    const deps = database().deps;
    await updateEstateField(deps, owner(AMALFI.email), {
      propertyId: AMALFI.id,
      field: "name",
      value: "Villa Sospesa",
      language: "it",
    });
    await updateEstateField(deps, owner(AMALFI.email), {
      propertyId: AMALFI.id,
      field: "name",
      value: "Villa Sospesa, Ravello",
      language: "it",
    });
    const { revisions } = dataOf(
      getStaffEstate,
      await call("GET", `/api/admin/estates/${AMALFI.id}`),
      200,
    );
    const later = revisions[0]!;
    const earlier = revisions[1]!;
    expect([later.newText, earlier.newText]).toEqual(["Villa Sospesa, Ravello", "Villa Sospesa"]);

    const answer = await call(
      "POST",
      `/api/admin/estates/${AMALFI.id}/revisions/${earlier.id}/revert`,
      { headers: { "Accept-Language": "fr" } },
    );
    expect(answer.status).toBe(409);
    expect(dataOf(revertEstateRevision, answer, 409).current).toBe("Villa Sospesa, Ravello");
    expect(dataOf(revertEstateRevision, answer, 409).message).toBe(
      "Ce champ a été modifié de nouveau depuis. Rien n’a été annulé : annulez d’abord la modification la plus récente, ou modifiez le champ.",
    );
    expect(await italianName(AMALFI.id)).toBe("Villa Sospesa, Ravello");
    const unchanged = dataOf(
      getStaffEstate,
      await call("GET", `/api/admin/estates/${AMALFI.id}`),
      200,
    ).revisions;
    expect(unchanged).toHaveLength(revisions.length);

    // The later one first, then the earlier one: back to the name before both.
    expect(
      (await call("POST", `/api/admin/estates/${AMALFI.id}/revisions/${later.id}/revert`)).status,
    ).toBe(200);
    expect(await italianName(AMALFI.id)).toBe("Villa Sospesa");
    expect(
      (await call("POST", `/api/admin/estates/${AMALFI.id}/revisions/${earlier.id}/revert`)).status,
    ).toBe(200);
    expect(await italianName(AMALFI.id)).toBe("Costiera Amalfitana");
  });

  it("reverts an object field whatever order its keys were typed in", async () => {
    const fields = async () =>
      dataOf(getStaffEstate, await call("GET", `/api/admin/estates/${AMALFI.id}`), 200).estate
        .fields.website_info;
    const before = await fields();
    await updateEstateField(database().deps, owner(AMALFI.email), {
      propertyId: AMALFI.id,
      field: "website_info",
      value:
        "instagram: https://instagram.com/villasospesa\nis_on_airbnb: yes\nfacebook: https://facebook.com/villasospesa",
      language: "en",
    });
    const { revisions } = dataOf(
      getStaffEstate,
      await call("GET", `/api/admin/estates/${AMALFI.id}`),
      200,
    );
    expect(revisions[0]!.field).toBe("website_info");
    const answer = await call(
      "POST",
      `/api/admin/estates/${AMALFI.id}/revisions/${revisions[0]!.id}/revert`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(await fields()).toBe(before);
  });

  it("answers 404 for an estate or a change that does not exist (or is another estate's)", async () => {
    expect((await call("GET", "/api/admin/estates/99999")).status).toBe(404);
    expect((await call("GET", "/api/admin/estates/not-a-number")).status).toBe(404);
    const { revisions } = dataOf(
      getStaffEstate,
      await call("GET", `/api/admin/estates/${AMALFI.id}`),
      200,
    );
    const elsewhere = await call(
      "POST",
      `/api/admin/estates/${PADUA.id}/revisions/${revisions[0]!.id}/revert`,
    );
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toEqual({
      message: "This change does not exist, or it belongs to another estate.",
      code: "revision_not_found",
    });
    expect(
      (await call("POST", `/api/admin/estates/${AMALFI.id}/revisions/99999999/revert`)).status,
    ).toBe(404);
    const missing = await call("PATCH", "/api/admin/estates/99999/owner-email", {
      body: { email: "someone@example.com" },
    });
    expect(missing.status).toBe(404);
  });

  it("changes the owner email: a bad address is refused, a claim with the former one stops counting", async () => {
    const deps = database().deps;
    await deps.db.insert(propertyClaims).values({ propertyId: PADUA.id, email: PADUA.email });
    const listed = async () =>
      dataOf(listStaffEstates, await call("GET", "/api/admin/estates?q=rocca-sartori"), 200)
        .estates as {
        id: number;
        ownerEmail: string;
        claimedAt: string | null;
      }[];
    expect((await listed())[0]!.claimedAt).toEqual(anyOf(String));

    for (const email of ["not-an-email", "", "a@b"]) {
      const bad = await call("PATCH", `/api/admin/estates/${PADUA.id}/owner-email`, {
        body: { email },
      });
      expect(bad.status, email).toBe(400);
      expect(ValidationErrorSchema.parse(bad.body).errors!.map((e) => e.path)).toEqual(["email"]);
    }
    const italian = await call("PATCH", `/api/admin/estates/${PADUA.id}/owner-email`, {
      body: { email: "nope" },
      headers: { "Accept-Language": "it" },
    });
    expect(ValidationErrorSchema.parse(italian.body).errors![0]!.message).toBe(
      "Inserire un indirizzo email come nome@esempio.it",
    );
    expect(
      ValidationErrorSchema.parse(
        (await call("PATCH", `/api/admin/estates/${PADUA.id}/owner-email`, { body: {} })).body,
      ).errors![0]!.message,
    ).toBe("Please enter the owner's email address");

    const changed = await call("PATCH", `/api/admin/estates/${PADUA.id}/owner-email`, {
      body: { email: "  New.Owner@Example.com " },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ email: "new.owner@example.com", changed: true });
    const same = await call("PATCH", `/api/admin/estates/${PADUA.id}/owner-email`, {
      body: { email: "new.owner@example.com" },
    });
    expect(same.body).toEqual({ email: "new.owner@example.com", changed: false });

    expect(await listed()).toEqual([]);
    const row = dataOf(listStaffEstates, await call("GET", "/api/admin/estates?q=new.owner"), 200)
      .estates[0];
    expect(row).toMatchObject({
      id: PADUA.id,
      ownerEmail: "new.owner@example.com",
      claimedAt: null,
    });

    const detail = dataOf(getStaffEstate, await call("GET", `/api/admin/estates/${PADUA.id}`), 200);
    expect(detail.estate.contactEmail).toBe("new.owner@example.com");
    expect(detail.revisions).toHaveLength(1);
    expect(detail.revisions[0]).toMatchObject({
      field: "owner_email",
      lang: "*",
      oldText: PADUA.email,
      newText: "new.owner@example.com",
      actorRole: "staff",
      actor: "admin@castellum.test",
      revertable: true,
    });

    // Reverting gives the estate its former owner's address back, but not the claim: it ended
    // with the change, and the owner claims again with a new code.
    const revert = await call(
      "POST",
      `/api/admin/estates/${PADUA.id}/revisions/${detail.revisions[0]!.id}/revert`,
    );
    expect(revert.status).toBe(200);
    expect((await listed())[0]).toMatchObject({ ownerEmail: PADUA.email, claimedAt: null });
  });

  it("sets an estate's response hours: a new property booking for it is due that many hours after it arrives", async () => {
    const path = `/api/admin/estates/${PADUA.id}/response-hours`;
    const bad = await call("PUT", path, {
      body: { hours: 0 },
      headers: { "Accept-Language": "it" },
    });
    expect(bad.status).toBe(400);
    expect(ValidationErrorSchema.parse(bad.body).errors).toEqual([
      { path: "hours", message: "Inserisca un numero di ore tra 0,01 e 8760." },
    ]);
    expect(
      (await call("PUT", "/api/admin/estates/99999/response-hours", { body: { hours: 5 } })).status,
    ).toBe(404);
    const set = await call("PUT", path, { body: { hours: 6.5 } });
    expect(dataOf(setEstateResponseHours, set, 200)).toEqual({ responseHours: 6.5 });
    expect(
      dataOf(getStaffEstate, await call("GET", `/api/admin/estates/${PADUA.id}`), 200)
        .responseHours,
    ).toBe(6.5);

    const { id } = await submitGuestForm(
      server().url,
      "/bookings",
      validPropertyBooking({ propertyId: PADUA.id, email: "padua-guest@example.com" }),
    );
    const [row] = await database()
      .deps.db.select({ createdAt: guestRequests.createdAt, dueAt: guestRequests.dueAt })
      .from(guestRequests)
      .where(eq(guestRequests.id, id));
    expect(row!.dueAt!.getTime() - row!.createdAt.getTime()).toBe(6.5 * 3_600_000);

    const cleared = await call("PUT", path, { body: { hours: null } });
    expect(dataOf(setEstateResponseHours, cleared, 200)).toEqual({ responseHours: null });
  });

  it("refuses changes sent from another site", async () => {
    const patch = await call("PATCH", `/api/admin/estates/${PADUA.id}/owner-email`, {
      body: { email: "evil@example.com" },
      headers: { Origin: "https://evil.example" },
    });
    expect(patch.status).toBe(403);
    const [revision] = await database()
      .deps.db.select()
      .from(propertyRevisions)
      .where(eq(propertyRevisions.propertyId, AMALFI.id))
      .limit(1);
    const revert = await call(
      "POST",
      `/api/admin/estates/${AMALFI.id}/revisions/${revision!.id}/revert`,
      { headers: { "Sec-Fetch-Site": "cross-site" } },
    );
    expect(revert.status).toBe(403);
    const detail = dataOf(getStaffEstate, await call("GET", `/api/admin/estates/${PADUA.id}`), 200);
    expect(detail.estate.contactEmail).toBe(PADUA.email);
  });

  /** Every endpoint, called by every kind of caller: only the admin passes. */
  describe("authorisation matrix", () => {
    let revisionId = 0;
    beforeAll(async () => {
      await updateEstateField(database().deps, owner(TABIANO.email), {
        propertyId: TABIANO.id,
        field: "guest_capacity",
        value: "12",
        language: "en",
      });
      const [revision] = await database()
        .deps.db.select()
        .from(propertyRevisions)
        .where(eq(propertyRevisions.propertyId, TABIANO.id));
      revisionId = revision!.id;
    });

    const endpoints = () =>
      [
        ["GET", "/api/admin/estates"],
        ["GET", "/api/admin/estates?q=tabiano"],
        ["GET", `/api/admin/estates/${TABIANO.id}`],
        ["PATCH", `/api/admin/estates/${TABIANO.id}/owner-email`, { email: TABIANO.email }],
        ["PUT", `/api/admin/estates/${TABIANO.id}/response-hours`, { hours: null }],
        ["POST", `/api/admin/estates/${TABIANO.id}/revisions/${revisionId}/revert`],
      ] as const;
    const callers = [
      ["anonymous", undefined, 401, "Please sign in to the staff area.", "not_signed_in"],
      ["property owner", "owner", 401, "Please sign in to the staff area.", "not_signed_in"],
      [
        "staff who is not an admin",
        "clerk@castellum.test",
        403,
        "This account may not use the staff area.",
        "not_admin",
      ],
      [
        "admin of another domain",
        "boss@other.test",
        403,
        "Only company-domain email addresses are authorized to access admin features.",
        "access_denied",
      ],
    ] as const;

    for (const [who, key, status, message, code] of callers)
      it(`refuses the ${who} everywhere with ${status} and no data`, async () => {
        for (const [method, path, body] of endpoints()) {
          const answer = await staffCall(server().url, method, path, {
            cookie: key ? cookies[key] : undefined,
            body,
          });
          expect(answer.status, `${method} ${path}`).toBe(status);
          expect(answer.body, `${method} ${path}`).toEqual({ message, code });
        }
        // Nothing was changed by the refused calls.
        const [revision] = await database()
          .deps.db.select()
          .from(propertyRevisions)
          .where(eq(propertyRevisions.id, revisionId));
        expect(revision!.revertedAt).toBeNull();
      });

    it("lets the admin through everywhere", async () => {
      const statuses: number[] = [];
      for (const [method, path, body] of endpoints())
        statuses.push((await call(method, path, { body })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
      const { revisions } = dataOf(
        getStaffEstate,
        await call("GET", `/api/admin/estates/${TABIANO.id}`),
        200,
      );
      expect(revisions[0]).toMatchObject({ revertOf: revisionId, field: "guest_capacity" });
    });
  });
});
