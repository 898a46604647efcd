import { randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import { beforeAll, expect, it } from "vitest";
import { guestRequests } from "#db/schema/index.ts";
import {
  hashStatusToken,
  makeReference,
  makeStatusToken,
} from "#domain/requests/intake/reference.ts";
import { nameEstates } from "#domain/staff/estate-names.ts";
import { translate } from "#i18n/translate.ts";
import type { RequestKind } from "#domain/requests/options.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { servePages } from "#tests/setup/pages.ts";
import { createTestStaff, signIn } from "#tests/setup/staff.ts";

// An estate whose French and Chinese names differ, so a name in the wrong language shows.
const [BOOKED] = DEMO_CATALOGUE.filter(
  (estate) => estate.content.fr.name !== estate.content.zh.name,
);

/**
 * Staff read an estate's name in the language of the page they view: the inbox's rows and the
 * CSV export here (a request's details are a dialog, drawn in the browser: the narrow-screens
 * journey reads them). A guest's request stores the name the guest read, in the guest's language.
 */
describeEachBackend("estates named in the staff's language", (database) => {
  const site = servePages(() => database().deps);
  const EMAIL = "names-admin@castellum.test";
  let cookie = "";

  async function insert(kind: RequestKind, values: Partial<typeof guestRequests.$inferInsert>) {
    const id = randomUUID();
    const email = `guest-${id.slice(0, 8)}@example.com`;
    await database()
      .deps.db.insert(guestRequests)
      .values({
        id,
        kind,
        reference: makeReference(kind),
        language: "zh",
        email,
        firstName: "Li",
        lastName: "Wei",
        details: { firstName: "Li", lastName: "Wei", email },
        statusTokenHash: hashStatusToken(makeStatusToken()),
        ...values,
      });
  }

  beforeAll(async () => {
    await createTestStaff(database().deps, EMAIL, { isAdmin: true, language: "en" });
    cookie = await signIn(site.url(), EMAIL);
    await insert("property_booking", {
      propertyId: BOOKED!.id,
      details: {
        firstName: "Li",
        lastName: "Wei",
        email: "li@example.com",
        propertyId: BOOKED!.id,
        propertyName: BOOKED!.content.zh.name,
        startDate: "2027-05-01",
        endDate: "2027-05-04",
        numberOfGuests: 2,
      },
    });
  });

  const page = async (path: string) => {
    const answer = await fetch(`${site.url()}${path}`, { headers: { Cookie: cookie } });
    expect(answer.status).toBe(200);
    // What the page shows: the hydration data also carries the guest's stored form.
    return (await answer.text()).replace(/<script[\s\S]*?<\/script>/g, "");
  };

  it("names the estate in the inbox's rows in the page's language", async () => {
    const french = await page("/admin/booking-requests?kind=property_booking&lang=fr");
    expect(french).toContain(BOOKED!.content.fr.name);
    expect(french).not.toContain(BOOKED!.content.zh.name);
    const chinese = await page("/admin/booking-requests?kind=property_booking&lang=zh");
    expect(chinese).toContain(BOOKED!.content.zh.name);
  });

  it("names the estate in the CSV export in the caller's language", async () => {
    const answer = await fetch(`${site.url()}/api/bookings/export.csv`, {
      headers: { Cookie: `${cookie}; lang=fr` },
    });
    expect(answer.status).toBe(200);
    const [header, row] = parse((await answer.text()).replace(/^\uFEFF/, "")) as string[][];
    expect(row![header!.indexOf(translate("fr", "staff.columns.property"))]).toBe(
      BOOKED!.content.fr.name,
    );
  });

  it("leaves out ids the catalogue does not have", async () => {
    const names = await nameEstates(database().deps, {
      language: "zh",
      ids: [BOOKED!.id, null, 999_999, BOOKED!.id],
    });
    expect(names).toEqual({ [BOOKED!.id]: BOOKED!.content.zh.name });
    expect(await nameEstates(database().deps, { language: "fr", ids: [] })).toEqual({});
  });
});
