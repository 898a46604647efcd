import { count } from "drizzle-orm";
import { expect, it } from "vitest";
import { properties, propertyImages, propertyTranslations } from "#db/schema/index.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import { getProperty, listProperties, listPropertiesBySlug } from "./read-properties.ts";
import { seedCatalogue } from "./seed-catalogue.ts";
import { updateEstateImages } from "../owners/edits.ts";

describeEachBackend("catalogue", (database) => {
  it("lists every estate of the demo catalogue with its text in the asked language", async () => {
    const { deps } = database();
    const english = await listProperties(deps, { language: "en" });
    const chinese = await listProperties(deps, { language: "zh" });
    expect(english.map((p) => [p.id, p.name])).toEqual(
      DEMO_CATALOGUE.map((item) => [item.id, item.content.en.name]),
    );
    expect(chinese.map((p) => [p.id, p.name])).toEqual(
      DEMO_CATALOGUE.map((item) => [item.id, item.content.zh.name]),
    );
    const gordonEn = english.find((p) => p.slug === "gordon-castle");
    const gordonZh = chinese.find((p) => p.slug === "gordon-castle");
    expect(gordonEn?.name).toBe("Gordon Castle");
    expect(gordonZh?.language).toBe("zh");
    expect(gordonZh?.summary).not.toBe(gordonEn?.summary);
    expect(gordonZh?.summary).toMatch(/\p{Script=Han}/u);
  });

  it("gives each estate the images its content asks for, in order", async () => {
    const list = await listProperties(database().deps, { language: "en" });
    for (const property of list) {
      const content = DEMO_CATALOGUE.find((item) => item.id === property.id);
      expect(property.images, property.slug).toHaveLength(content?.illustration.imageCount ?? -1);
      expect(
        property.images.map((image) => image.key.match(/-(\d+)-[0-9a-f]+$/)?.[1]),
        property.slug,
      ).toEqual(property.images.map((_, index) => String(index + 1)));
      expect(property.images[0]?.key).toMatch(new RegExp(`^${property.slug}-1-`));
    }
  });

  it("finds one estate by id, by slug and by the spec's raw name form", async () => {
    const { deps } = database();
    const bySlug = await getProperty(deps, { idOrSlug: "gordon-castle", language: "fr" });
    const byId = await getProperty(deps, { idOrSlug: String(bySlug.id), language: "fr" });
    const byRaw = await getProperty(deps, { idOrSlug: "Gordon%20Castle", language: "fr" });
    expect(byId).toEqual(bySlug);
    expect(byRaw.id).toBe(bySlug.id);
    expect(bySlug.language).toBe("fr");
  });

  it("lists chosen estates by slug in the order asked, skipping unknown ones", async () => {
    const found = await listPropertiesBySlug(database().deps, {
      slugs: ["gordon-castle", "no-such-castle", "padua"],
      language: "it",
    });
    expect(found.map((p) => p.slug)).toEqual(["gordon-castle", "padua"]);
    expect(found[1]?.name).toBe("Padova");
  });

  it("throws NotFoundError for an unknown id or slug", async () => {
    const { deps } = database();
    await expect(getProperty(deps, { idOrSlug: "99999", language: "en" })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(
      getProperty(deps, { idOrSlug: "no-such-castle", language: "en" }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it("re-seeds idempotently and keeps an owner's image selection", async () => {
    const { deps } = database();
    const gordon = await getProperty(deps, { idOrSlug: "gordon-castle", language: "en" });
    const keys = gordon.images.map((image) => image.key);
    const chosen = [keys[2]!, keys[0]!];
    await updateEstateImages(deps, OWNER, { propertyId: gordon.id, selectedImages: chosen });
    const before = await counts(deps);
    const report = await seedCatalogue(deps, DEMO_CATALOGUE);
    expect(await counts(deps)).toEqual(before);
    expect(report.skipped).toContainEqual({
      propertyId: gordon.id,
      field: "images",
      lang: "*",
      editedByRole: "owner",
    });
    const after = await getProperty(deps, { idOrSlug: "gordon-castle", language: "en" });
    expect(after.images.map((image) => image.key)).toEqual(chosen);
  });

  it("re-seeds an estate nobody edited back to the content", async () => {
    const { deps } = database();
    const report = await seedCatalogue(deps, DEMO_CATALOGUE);
    const padua = await getProperty(deps, { idOrSlug: "padua", language: "en" });
    expect(report.skipped.filter((kept) => kept.propertyId === padua.id)).toEqual([]);
    expect(padua.images.length).toBe(
      DEMO_CATALOGUE.find((item) => item.id === padua.id)?.illustration.imageCount,
    );
  });
});

const OWNER = { role: "owner", email: demoEstate("gordon-castle").email } as const;

async function counts(deps: Deps) {
  const [p] = await deps.db.select({ n: count() }).from(properties);
  const [t] = await deps.db.select({ n: count() }).from(propertyTranslations);
  const [i] = await deps.db.select({ n: count() }).from(propertyImages);
  return { properties: p?.n, translations: t?.n, images: i?.n };
}
