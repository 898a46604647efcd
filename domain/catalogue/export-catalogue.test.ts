import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { propertyImages, propertyTranslations } from "#db/schema/index.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { exportCatalogue } from "./export-catalogue.ts";
import { seedCatalogue } from "./seed-catalogue.ts";

describeEachBackend("exportCatalogue", (database) => {
  it("gives back the demo catalogue it was seeded with, and importing that changes nothing", async () => {
    const { deps } = database();
    const exported = await exportCatalogue(deps);
    expect(exported).toEqual(DEMO_CATALOGUE);
    // Key order too, so an exported file diffs cleanly against content/properties.
    expect(Object.keys(exported[0]!)).toEqual(Object.keys(DEMO_CATALOGUE[0]!));

    const report = await seedCatalogue(deps, exported);
    expect(report).toMatchObject({ created: 0, updated: 42, skipped: [] });
    expect(await exportCatalogue(deps)).toEqual(DEMO_CATALOGUE);
  });

  it("reads the text as it is now, counts only generated images and leaves out uploads", async () => {
    const { deps } = database();
    const estate = DEMO_CATALOGUE[4]!;
    await deps.db
      .update(propertyTranslations)
      .set({ historicalSignificance: null, activities: ["Falconry", "Archery", "Rowing"] })
      .where(
        and(eq(propertyTranslations.propertyId, estate.id), eq(propertyTranslations.lang, "fr")),
      );
    await deps.db.insert(propertyImages).values({
      propertyId: estate.id,
      position: 100,
      key: `upload-${estate.id}`,
      width: 1600,
      height: 1200,
      source: { kind: "upload", sha256: "0".repeat(64), store: "database" },
    });

    const exported = (await exportCatalogue(deps)).find((e) => e.id === estate.id)!;
    expect(exported.illustration).toEqual(estate.illustration);
    const { historicalSignificance: _dropped, ...fr } = estate.content.fr;
    expect(exported.content.fr).toEqual({ ...fr, activities: ["Falconry", "Archery", "Rowing"] });
    expect("historicalSignificance" in exported.content.fr).toBe(false);
  });
});
