import { expect, it } from "vitest";
import { DEMO_CATALOGUE, describeEachBackend } from "../../tests/setup/database.ts";
import { CatalogueFilterSchema } from "./catalogue-filter.schema.ts";
import { searchProperties } from "./read-properties.ts";
import { slugify } from "./slug.ts";

const bySlug = (slug: string) => {
  const estate = DEMO_CATALOGUE.find((p) => slugify(p.content.en.name) === slug);
  if (!estate) throw new Error(`no ${slug} in the demo catalogue`);
  return estate;
};
const filter = (input: Record<string, unknown>) => CatalogueFilterSchema.parse(input);

describeEachBackend("catalogue search", (database) => {
  const search = (
    input: Record<string, unknown>,
    language: "en" | "fr" | "it" | "zh" = "en",
    pageSize = 100,
  ) => searchProperties(database().deps, { language, filter: filter(input), pageSize });
  const slugs = async (input: Record<string, unknown>) =>
    (await search(input)).properties.map((p) => p.slug);

  it("finds an estate by words of its text in English, French and Italian", async () => {
    expect(await slugs({ q: "Gordon" })).toContain("gordon-castle");
    expect(await slugs({ q: bySlug("tuscany").content.fr.name })).toContain("tuscany");
    expect(await slugs({ q: bySlug("venetian-countryside").content.it.name })).toContain(
      "venetian-countryside",
    );
  });

  it("finds Chinese text without a Chinese parser: a full name, a two-character word, one character", async () => {
    const gordon = bySlug("gordon-castle").content.zh.name;
    expect(await slugs({ q: gordon })).toContain("gordon-castle");
    const twoChars = [...gordon].slice(0, 2).join("");
    expect(await slugs({ q: twoChars })).toContain("gordon-castle");
    const castles = await slugs({ q: "城堡" });
    expect(castles.length).toBeGreaterThan(3);
    expect(await slugs({ q: [...gordon][0] })).toContain("gordon-castle");
  });

  it("answers the results in the asked language whatever language the query was in", async () => {
    const { properties } = await search({ q: "Gordon" }, "zh");
    expect(properties.find((p) => p.slug === "gordon-castle")?.name).toBe(
      bySlug("gordon-castle").content.zh.name,
    );
  });

  it("filters by region, guests, bedrooms, amenities and members-only on the database", async () => {
    const uk = (await search({ region: "uk" })).properties;
    expect(uk.length).toBe(DEMO_CATALOGUE.filter((p) => p.region === "uk").length);
    const big = (await search({ guests: "30", bedrooms: "15" })).properties;
    expect(big.length).toBe(
      DEMO_CATALOGUE.filter((p) => p.guestCapacity >= 30 && p.bedrooms >= 15).length,
    );
    expect(big.every((p) => p.guestCapacity >= 30 && p.bedrooms >= 15)).toBe(true);
    const lakeSpa = (await search({ amenities: "lake,spa" })).properties;
    const expected = DEMO_CATALOGUE.filter(
      (p) => p.amenityKeys.includes("lake") && p.amenityKeys.includes("spa"),
    );
    expect(lakeSpa.map((p) => p.id).sort()).toEqual(expected.map((p) => p.id).sort());
    const members = (await search({ members: "1", region: "italy" })).properties;
    expect(members.length).toBeGreaterThan(0);
    expect(members.every((p) => p.membersOnly && p.region === "italy")).toBe(true);
  });

  it("says so when nothing matches", async () => {
    const page = await search({ q: "zxqvbnm" });
    expect(page).toMatchObject({ properties: [], total: 0, nextAfter: null, previousBefore: null });
  });

  it("pages by keyset forwards and backwards", async () => {
    const pageSize = 10;
    const first = await search({}, "en", pageSize);
    expect(first.properties).toHaveLength(10);
    expect(first.total).toBe(DEMO_CATALOGUE.length);
    expect(first.previousBefore).toBeNull();
    const second = await search({ after: first.nextAfter }, "en", pageSize);
    expect(second.properties[0]?.id).toBeGreaterThan(first.properties.at(-1)?.id ?? Infinity);
    const back = await search({ before: second.previousBefore }, "en", pageSize);
    expect(back.properties.map((p) => p.id)).toEqual(first.properties.map((p) => p.id));
    expect(back.previousBefore).toBeNull();
    let page = second;
    const seen = [...first.properties, ...second.properties].map((p) => p.id);
    while (page.nextAfter !== null) {
      page = await search({ after: page.nextAfter }, "en", pageSize);
      seen.push(...page.properties.map((p) => p.id));
    }
    expect(seen).toEqual(DEMO_CATALOGUE.map((p) => p.id));
  });

  it("keeps the filters while paging", async () => {
    const first = await search({ region: "italy" }, "en", 5);
    const next = await search({ region: "italy", after: first.nextAfter }, "en", 5);
    expect([...first.properties, ...next.properties].every((p) => p.region === "italy")).toBe(true);
    expect(first.total).toBe(DEMO_CATALOGUE.filter((p) => p.region === "italy").length);
  });
});
