import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { properties, propertyTranslations } from "#db/schema/index.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { updateEstateField } from "../owners/edits.ts";
import { storedValues } from "../owners/estates.ts";
import { EDITABLE_FIELDS, type EditableField } from "../owners/owner-fields.ts";
import { seedCatalogue } from "./seed-catalogue.ts";

/**
 * Owner fields the demo content does not give, and why: services and the accommodation's
 * description are prose in four languages that no demo estate has written yet, and
 * website_info is what a scraper found on the estate's site, not the estate's own record.
 */
const NOT_IN_THE_DEMO: EditableField[] = ["services", "accommodation_description", "website_info"];

/** Every editable field the owner dashboard shows 'Not set' for, per estate, in English. */
async function unsetFields(deps: Parameters<typeof seedCatalogue>[0]) {
  const rows = await deps.db.select().from(properties);
  const texts = await deps.db
    .select()
    .from(propertyTranslations)
    .where(eq(propertyTranslations.lang, "en"));
  return rows.flatMap((row) => {
    const values = storedValues(
      row,
      texts.find((text) => text.propertyId === row.id)!,
    );
    return EDITABLE_FIELDS.filter((field) => !NOT_IN_THE_DEMO.includes(field))
      .filter((field) => {
        const value = values[field];
        return value === null || value === undefined || value === "";
      })
      .map((field) => `${row.slug}: ${field}`);
  });
}

describeEachBackend("the demo catalogue's owner facts", (database) => {
  it("sets every owner field of every seeded estate", async () => {
    const { deps } = database();
    expect(await deps.db.$count(properties)).toBe(DEMO_CATALOGUE.length);
    expect(await unsetFields(deps)).toEqual([]);
  });

  it("shows prices in each estate's currency and coordinates where the estate says it is", async () => {
    const rows = await database().deps.db.select().from(properties);
    for (const row of rows) {
      const currency = { uk: "GBP", switzerland: "CHF" }[row.region] ?? "EUR";
      expect(row.startingPrice?.currency, row.slug).toBe(currency);
      expect(row.priceRange?.min, row.slug).toBeLessThanOrEqual(row.priceRange!.max);
      expect(row.websiteUrl, row.slug).toMatch(/^https:\/\/[a-z0-9.-]+\.example\/$/);
      // Europe, roughly: no estate in the sea off Africa for a swapped lat and lng.
      expect(row.latitude, row.slug).toBeGreaterThan(35);
      expect(row.latitude, row.slug).toBeLessThan(60);
      expect(row.longitude, row.slug).toBeGreaterThan(-10);
      expect(row.longitude, row.slug).toBeLessThan(18);
    }
  });

  it("re-seeds without a change, and keeps the facts an owner set", async () => {
    const { deps } = database();
    const estate = DEMO_CATALOGUE[0]!;
    const owner = { role: "owner", email: estate.ownerEmail } as const;
    await updateEstateField(deps, owner, {
      propertyId: estate.id,
      field: "phone",
      value: "+39 333 123 4567",
      language: "en",
    });
    const before = await deps.db.select().from(properties).orderBy(properties.id);
    const report = await seedCatalogue(deps, DEMO_CATALOGUE);
    const after = await deps.db.select().from(properties).orderBy(properties.id);
    const facts = (rows: typeof before) =>
      rows.map(({ updatedAt: _u, scrapedAt: _s, ...row }) => row);
    expect(facts(after)).toEqual(facts(before));
    expect(after.find((row) => row.id === estate.id)?.phone).toBe("+39 333 123 4567");
    expect(report.skipped).toContainEqual({
      propertyId: estate.id,
      field: "phone",
      lang: "*",
      editedByRole: "owner",
    });
  });
});
