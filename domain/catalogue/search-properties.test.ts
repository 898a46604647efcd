import { and, count, eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { properties, propertyTranslations } from "#db/schema/index.ts";
import { generateCatalogue } from "#tests/factories/generated-catalogue.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { countQueries } from "#tests/setup/query-counter.ts";
import { CATALOGUE_PAGE_SIZE, CatalogueFilterSchema } from "./catalogue-filter.schema.ts";
import {
  CATALOGUE_TOTAL_CAP,
  explainSearchProperties,
  getProperty,
  listProperties,
  searchProperties,
  forgetSearchStatistics,
  setSearchStatistics,
} from "./read-properties.ts";
import { BEDROOM_STEPS, GUEST_STEPS } from "./search-facts.ts";
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
    // Every estate whose Chinese text has the word, and no other.
    const castles = await slugs({ q: "城堡" });
    expect(castles.sort()).toEqual(
      DEMO_CATALOGUE.filter(({ content: { zh } }) =>
        [zh.name, zh.location, zh.summary, ...zh.amenities, ...zh.activities]
          .join(" ")
          .includes("城堡"),
      )
        .map((p) => slugify(p.content.en.name))
        .sort(),
    );
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
    expect(members.map((p) => p.id)).toEqual(
      DEMO_CATALOGUE.filter((p) => p.membersOnly && p.region === "italy").map((p) => p.id),
    );
  });

  it("answers every party size and bedroom count exactly, on a step of the facts' ladders or between two", async () => {
    const ids = async (input: Record<string, unknown>) =>
      (await search(input)).properties.map((p) => p.id).sort((a, b) => a - b);
    const truth = (keep: (estate: (typeof DEMO_CATALOGUE)[number]) => boolean) =>
      DEMO_CATALOGUE.filter(keep)
        .map((p) => p.id)
        .sort((a, b) => a - b);
    const capacities = DEMO_CATALOGUE.map((p) => p.guestCapacity);
    const bedrooms = DEMO_CATALOGUE.map((p) => p.bedrooms);
    // Each estate's own figure, one either side of it, and the ends of the allowed range.
    const around = (values: number[], max: number) =>
      [...new Set(values.flatMap((v) => [v - 1, v, v + 1]).concat([1, 2, max]))].filter(
        (v) => v >= 1 && v <= max,
      );
    for (const guests of around(capacities, 200))
      expect(await ids({ guests: String(guests) }), `guests=${guests}`).toEqual(
        truth((p) => p.guestCapacity >= guests),
      );
    for (const rooms of around(bedrooms, 80))
      expect(await ids({ bedrooms: String(rooms), region: "italy" }), `bedrooms=${rooms}`).toEqual(
        truth((p) => p.bedrooms >= rooms && p.region === "italy"),
      );
  });

  it("holds the facts' ladders the same in the code and the database", async () => {
    const result = await database().deps.db.execute(
      sql`select search_fact_steps('guests') as guests, search_fact_steps('bedrooms') as bedrooms`,
    );
    const [row] = (result as unknown as { rows: { guests: number[]; bedrooms: number[] }[] }).rows;
    expect(row).toEqual({ guests: GUEST_STEPS, bedrooms: BEDROOM_STEPS });
  });

  it("finds an estate by its new facts as soon as they are edited", async () => {
    const { deps } = database();
    const estate = bySlug("gordon-castle");
    const found = async (input: Record<string, unknown>) =>
      (await search(input)).properties.some((p) => p.id === estate.id);
    expect(await found({ region: "austria" })).toBe(false);
    await deps.db
      .update(properties)
      .set({ region: "austria", guestCapacity: 190, bedrooms: 79, membersOnly: true })
      .where(eq(properties.id, estate.id));
    expect(await found({ region: "austria", guests: "190", bedrooms: "79", members: "1" })).toBe(
      true,
    );
    expect(await found({ region: estate.region })).toBe(false);
    expect(await found({ guests: "191" })).toBe(false);
    // Put back for the tests that follow.
    await deps.db
      .update(properties)
      .set({
        region: estate.region,
        guestCapacity: estate.guestCapacity,
        bedrooms: estate.bedrooms,
        membersOnly: estate.membersOnly,
      })
      .where(eq(properties.id, estate.id));
    expect(await found({ region: estate.region })).toBe(true);
  });

  it("says so when nothing matches", async () => {
    const page = await search({ q: "zxqvbnm" });
    expect(page).toMatchObject({ properties: [], total: 0, nextAfter: null, previousBefore: null });
  });

  it("pages by keyset forwards and backwards", async () => {
    const pageSize = 10;
    const first = await search({}, "en", pageSize);
    expect(first.properties).toHaveLength(pageSize);
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

describeEachBackend("catalogue search: relevance, prefixes, typos, queries", (database) => {
  const search = (input: Record<string, unknown>, pageSize = 100) =>
    searchProperties(database().deps, { language: "en", filter: filter(input), pageSize });

  it("ranks the estate a query names above those that only mention its words", async () => {
    const page = await search({ q: "Gordon Castle" });
    expect(page.order).toBe("relevance");
    expect(page.properties[0]?.slug).toBe("gordon-castle");
  });

  it("finds a name from its first letters or with a typo (trigram similarity)", async () => {
    const prefix = await search({ q: "Gordon Cast" });
    expect(prefix.properties[0]?.slug).toBe("gordon-castle");
    const typo = await search({ q: "Gordn Castle" });
    expect(typo.properties[0]?.slug).toBe("gordon-castle");
    expect(await search({ q: "Gdn" })).toMatchObject({ properties: [], total: 0 });
  });

  it("pages a ranked search by keyset, both ways, without repeating or skipping an estate", async () => {
    const all = await search({ q: "garden" });
    expect(all.order).toBe("relevance");
    // Enough matches for three pages of three, and every one of them on this one page.
    expect(all.total).toBeGreaterThan(2 * 3);
    expect(all.properties).toHaveLength(all.total);
    const seen: number[] = [];
    let page = await search({ q: "garden" }, 3);
    const first = page;
    seen.push(...page.properties.map((p) => p.id));
    while (page.nextAfter !== null) {
      expect(page.nextAfter).toMatch(/^\d+~\d+$/);
      page = await search({ q: "garden", after: page.nextAfter }, 3);
      seen.push(...page.properties.map((p) => p.id));
    }
    expect(seen).toEqual(all.properties.map((p) => p.id));
    const second = await search({ q: "garden", after: first.nextAfter }, 3);
    const back = await search({ q: "garden", before: second.previousBefore }, 3);
    expect(back.properties.map((p) => p.id)).toEqual(first.properties.map((p) => p.id));
  });

  it("finds an estate by its new name as soon as its text is edited", async () => {
    const { deps } = database();
    const padua = bySlug("padua");
    await deps.db
      .update(propertyTranslations)
      .set({ name: "Palazzo Zorglub" })
      .where(
        and(eq(propertyTranslations.propertyId, padua.id), eq(propertyTranslations.lang, "it")),
      );
    expect((await search({ q: "Zorglub" })).properties.map((p) => p.slug)).toEqual(["padua"]);
  });

  it("reads a page, a list and an estate in one statement each", async () => {
    // A word's forms are looked up once per process, and the database's statistics once per
    // database: this search has both ready.
    const counter = countQueries(database().deps);
    await searchProperties(counter.deps, { language: "en", filter: filter({ q: "Gordon" }) });
    counter.reset();
    const page = await searchProperties(counter.deps, {
      language: "fr",
      filter: filter({ region: "italy", amenities: "pool" }),
    });
    // The whole estate in French, images and all, from that one statement.
    const expected = DEMO_CATALOGUE.filter(
      (p) => p.region === "italy" && p.amenityKeys.includes("pool"),
    );
    expect(
      page.properties.map(({ id, name, images }) => ({ id, name, images: images.length })),
    ).toEqual(
      expected.map(({ id, content, illustration }) => ({
        id,
        name: content.fr.name,
        images: illustration.imageCount,
      })),
    );
    expect(counter.statements).toHaveLength(1);
    counter.reset();
    await searchProperties(counter.deps, { language: "en", filter: filter({ q: "Gordon" }) });
    expect(counter.statements).toHaveLength(1);
    counter.reset();
    expect((await listProperties(counter.deps, { language: "zh" })).length).toBe(
      DEMO_CATALOGUE.length,
    );
    expect(counter.statements).toHaveLength(1);
    counter.reset();
    await getProperty(counter.deps, { idOrSlug: "gordon-castle", language: "it" });
    expect(counter.statements).toHaveLength(1);
  });
});

describeEachBackend("catalogue search past the count's cap", (database) => {
  beforeAll(async () => {
    // 1,100 generated estates beside the demo's: more matches than the count's cap.
    await generateCatalogue(database().handle.db, { count: 1100, firstId: 1001 });
  });
  const search = (input: Record<string, unknown>, language: "en" | "zh" = "en") =>
    searchProperties(database().deps, { language, filter: filter(input) });

  it("counts up to 1,000 and says when more match", async () => {
    const everything = await search({});
    expect(everything).toMatchObject({ total: CATALOGUE_TOTAL_CAP, isTotalCapped: true });
    expect(everything.properties).toHaveLength(CATALOGUE_PAGE_SIZE);
    // Under the cap, the exact count (as a plain count of the table says).
    const [{ italian } = { italian: -1 }] = await database()
      .deps.db.select({ italian: count() })
      .from(properties)
      .where(eq(properties.region, "italy"));
    expect(italian).toBeLessThan(CATALOGUE_TOTAL_CAP);
    const italy = await search({ region: "italy" });
    expect(italy).toMatchObject({ total: italian, isTotalCapped: false });
  });

  it("orders a text search with more matches than the cap by catalogue order", async () => {
    // Every Chinese summary has 的: the one character matches as a prefix of its bigrams.
    const common = await search({ q: "的" }, "zh");
    expect(common).toMatchObject({ isTotalCapped: true, order: "catalogue" });
    const ids = common.properties.map((p) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const next = await search({ q: "的", after: common.nextAfter }, "zh");
    expect(next.properties[0]?.id).toBeGreaterThan(ids.at(-1) ?? Infinity);
  });

  it("pages a rare word past the cap from its matches as a walk of the catalogue does", async () => {
    const { deps } = database();
    // A made-up word in every English text: more matches than the cap.
    await deps.db
      .update(propertyTranslations)
      .set({ searchDocument: sql`${propertyTranslations.searchDocument} || ' Zorblat.'` })
      .where(eq(propertyTranslations.lang, "en"));
    const walk = async () => {
      const ids: number[] = [];
      let page = await searchProperties(deps, {
        language: "en",
        filter: filter({ q: "zorblat" }),
        pageSize: 97,
      });
      expect(page).toMatchObject({ isTotalCapped: true, order: "catalogue" });
      ids.push(...page.properties.map((p) => p.id));
      // At most the pages the matches fill, so a cursor that does not move fails, not hangs.
      for (let pages = 1; page.nextAfter && pages <= 1 + CATALOGUE_TOTAL_CAP / 97 + 1; pages++) {
        page = await searchProperties(deps, {
          language: "en",
          filter: filter({ q: "zorblat", after: page.nextAfter }),
          pageSize: 97,
        });
        ids.push(...page.properties.map((p) => p.id));
      }
      const back = await searchProperties(deps, {
        language: "en",
        filter: filter({ q: "zorblat", before: String(ids[200]) }),
        pageSize: 97,
      });
      return { ids, back: back.properties.map((p) => p.id) };
    };
    await deps.db.execute(sql`analyze property_search`);
    forgetSearchStatistics(deps);
    const walked = await walk();
    // As rare by the statistics: its matches are read from the index, sorted, then paged.
    const plans = await explainSearchProperties(deps, {
      language: "en",
      filter: filter({ q: "zorblat", after: String(walked.ids[100]) }),
    });
    setSearchStatistics(deps, { facts: new Map(), words: new Map([["zorblat", 0.001]]) });
    const rare = await walk();
    const rarePlans = await explainSearchProperties(deps, {
      language: "en",
      filter: filter({ q: "zorblat", after: String(walked.ids[100]) }),
    });
    setSearchStatistics(deps, { facts: new Map(), words: new Map() });
    expect(rare).toEqual(walked);
    expect(walked.ids).toEqual([...walked.ids].sort((a, b) => a - b));
    expect(walked.ids.length).toBeGreaterThan(CATALOGUE_TOTAL_CAP);
    expect(walked.back).toEqual(walked.ids.slice(200 - 97, 200));
    // The two ways differ in how the page is found (the rare word's matches, read whole, are
    // the subquery "h"), not in what it holds.
    const readsWhole = (found: unknown) => JSON.stringify(found).includes('"Alias":"h"');
    expect(readsWhole(rarePlans)).toBe(true);
    expect(readsWhole(plans)).toBe(false);
  });
});
