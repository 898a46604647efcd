import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { generateCalendars } from "#tests/factories/generated-calendars.ts";
import { generateCatalogue } from "#tests/factories/generated-catalogue.ts";
import { addDays } from "../calendar/nights.ts";
import { utcToday } from "../requests/dates.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import type { Deps } from "../deps.ts";
import { listenForCatalogueChanges, type CatalogueChangeListener } from "./catalogue-changes.ts";
import { CatalogueFilterSchema, formatCursor } from "./catalogue-filter.schema.ts";
import { FactsIndex, type FactsMatch } from "./facts-index.ts";
import { CATALOGUE_TOTAL_CAP, searchProperties, type CataloguePage } from "./read-properties.ts";

const filter = (input: Record<string, string>) => CatalogueFilterSchema.parse(input);

/** Filters a guest sets: each alone, together, between two steps, rare and common, none. */
const FILTERS: Record<string, string>[] = [
  {},
  { region: "italy" },
  { region: "austria" },
  { region: "portugal", members: "1" },
  { guests: "2" },
  { guests: "41" },
  { guests: "120" },
  { guests: "200" },
  { bedrooms: "6" },
  { bedrooms: "7" },
  { bedrooms: "33" },
  { amenities: "pool" },
  { amenities: "city,beach" },
  { amenities: "tennis,wine,spa", members: "1" },
  { region: "france", amenities: "tennis,wine,spa", members: "1" },
  { region: "uk", guests: "13", bedrooms: "9", amenities: "garden" },
  { region: "spain", guests: "61", bedrooms: "25", amenities: "pool,golf" },
  { members: "1" },
];

/** What a guest sees of a page: the estates in order, the count, and where the pages lead. */
function seen(page: CataloguePage) {
  return {
    ids: page.properties.map((property) => property.id),
    total: page.total,
    isTotalCapped: page.isTotalCapped,
    nextAfter: page.nextAfter,
    previousBefore: page.previousBefore,
  };
}

describeEachBackend("the facts index", (database) => {
  let index: FactsIndex;
  let indexed: Deps;
  let listener: CatalogueChangeListener;

  beforeAll(async () => {
    const { deps, handle } = database();
    await generateCatalogue(handle.db, { count: 3000, firstId: 1001 });
    // Stays and blocks over the next year, so a date search leaves estates out.
    await generateCalendars(handle.db, { count: 3000, firstId: 1001, from: utcToday(), days: 365 });
    index = new FactsIndex(deps);
    indexed = { ...deps, factsIndex: index };
    listener = await listenForCatalogueChanges(deps, {
      onChange: (change) => index.changed(change.propertyIds),
      onListening: () => void index.start(),
      onLost: () => index.stop(),
    });
    await index.settled();
  }, 120_000);

  afterAll(async () => {
    await listener.close();
  });

  /** The same search through the index and through SQL alone. */
  const both = async (input: Record<string, string>, pageSize = 24) => {
    const args = { language: "en" as const, filter: filter(input), pageSize, images: false };
    const answered = vi.spyOn(index, "search");
    const fromIndex = await searchProperties(indexed, args);
    const match: FactsMatch | null | undefined = await (answered.mock.results[0]?.value as
      Promise<FactsMatch | null> | undefined);
    answered.mockRestore();
    const fromSql = await searchProperties(database().deps, args);
    return { fromIndex: seen(fromIndex), fromSql: seen(fromSql), match };
  };

  it("is built from the catalogue the database holds", () => {
    expect(index.state).toBe("ready");
    expect(index.stats.estates).toBeGreaterThanOrEqual(3000);
  });

  it("answers every filter, from the first page and from cursors either way, as SQL does", async () => {
    const { deps } = database();
    const result = await deps.db.execute(
      sql`select min(id) as low, max(id) as high from properties`,
    );
    const { low, high } = (result as unknown as { rows: { low: number; high: number }[] }).rows[0]!;
    // Ids at word edges (32 estates a word) and the catalogue's ends.
    const cursors = [low, low + 31, 1001 + 31, 1001 + 32, 1001 + 33, 2500, high - 1, high];
    let capped = 0;
    let empty = 0;
    for (const facts of FILTERS) {
      const first = await both(facts);
      expect(first.match, JSON.stringify(facts)).not.toBeNull();
      expect(first.fromIndex, JSON.stringify(facts)).toEqual(first.fromSql);
      if (first.fromSql.isTotalCapped) capped++;
      if (first.fromSql.total === 0) empty++;
      for (const id of cursors)
        for (const direction of ["after", "before"] as const) {
          const input = { ...facts, [direction]: formatCursor({ id }) };
          const page = await both(input, 7);
          expect(page.fromIndex, JSON.stringify(input)).toEqual(page.fromSql);
        }
    }
    // The filters reach past the cap and within it, so both ways of counting are compared.
    expect(capped).toBeGreaterThan(0);
    expect(capped).toBeLessThan(FILTERS.length - empty);
  });

  it("answers text and dates with filters as SQL does, probing the few estates the filters leave by id", async () => {
    const checkIn = addDays(utcToday(), 40);
    const checkOut = addDays(utcToday(), 47);
    let probed = 0;
    let dated = 0;
    for (const facts of FILTERS)
      for (const extra of [
        { q: "castle" },
        { q: "garden" },
        { q: "Ravengate" },
        { q: "城堡" },
        { checkIn, checkOut },
        { q: "villa", checkIn, checkOut },
      ] as Record<string, string>[]) {
        const input = { ...facts, ...extra };
        const { fromIndex, fromSql, match } = await both(input);
        expect(fromIndex, JSON.stringify(input)).toEqual(fromSql);
        // And the pages either side, where a date search probes from the cursor.
        for (const cursor of [fromSql.nextAfter, fromSql.previousBefore])
          if (cursor)
            for (const direction of ["after", "before"] as const) {
              const next = { ...input, [direction]: cursor };
              const page = await both(next, 7);
              expect(page.fromIndex, JSON.stringify(next)).toEqual(page.fromSql);
            }
        if ("checkIn" in extra) dated += fromSql.total;
        // Filters alone go to the index, text and dates to SQL with the few ids it found.
        if (match && match.total <= 2000) probed++;
      }
    // Some stays find estates, so the nights are compared too; and the calendars close some.
    expect(dated).toBeGreaterThan(0);
    const { deps } = database();
    const free = await searchProperties(deps, {
      language: "en",
      filter: filter({ checkIn, checkOut, region: "italy" }),
    });
    const italy = await searchProperties(deps, {
      language: "en",
      filter: filter({ region: "italy" }),
    });
    expect(free.total).toBeLessThan(italy.total);
    // Some filters leave few enough estates to probe, some too many.
    expect(probed).toBeGreaterThan(0);
    expect(probed).toBeLessThan((FILTERS.length - 1) * 6);
  });

  it("answers text from the words it holds, from the first page and from cursors either way, as SQL does", async () => {
    const asked = vi.spyOn(index, "searchText");
    const queries = [
      "castle",
      "Castle villa",
      "garden",
      "wine cellar",
      "château",
      "castello",
      "the garden",
      "城堡",
      "Ravengate",
      "Ravengate Castle",
      "Ravengat",
      "zzzz castle",
    ];
    const facts: Record<string, string>[] = [
      {},
      { region: "italy" },
      { amenities: "pool" },
      { guests: "41", members: "1" },
    ];
    let pastCap = 0;
    let withinCap = 0;
    for (const q of queries)
      for (const extra of facts) {
        const input = { ...extra, q };
        const first = await both(input);
        expect(first.fromIndex, JSON.stringify(input)).toEqual(first.fromSql);
        if (first.fromSql.isTotalCapped) pastCap++;
        else if (first.fromSql.total > 0) withinCap++;
        for (const cursor of [first.fromSql.nextAfter, first.fromSql.previousBefore])
          if (cursor)
            for (const direction of ["after", "before"] as const) {
              const next = { ...input, [direction]: cursor };
              const page = await both(next, 7);
              expect(page.fromIndex, JSON.stringify(next)).toEqual(page.fromSql);
            }
      }
    // Memory answered every query, common words and rare ones, past the cap and within it.
    const answers = await Promise.all(
      asked.mock.results.map((result) => result.value as Promise<FactsMatch | null>),
    );
    asked.mockRestore();
    expect(answers.length).toBeGreaterThan(queries.length * facts.length);
    expect(answers.every((answer) => answer !== null)).toBe(true);
    expect(pastCap).toBeGreaterThan(0);
    expect(withinCap).toBeGreaterThan(0);
    expect(index.stats.words).toBeGreaterThan(10);
  });

  it("answers dates from the estates memory finds, probing them for the nights, at any cursor, as SQL does", async () => {
    const checkIn = addDays(utcToday(), 12);
    const checkOut = addDays(utcToday(), 15);
    const probed = vi.spyOn(index, "search");
    const probedText = vi.spyOn(index, "searchText");
    const extras: Record<string, string>[] = [
      { members: "1" },
      { region: "italy" },
      { q: "castle" },
      { q: "garden", guests: "20" },
    ];
    for (const extra of extras)
      for (const id of [undefined, 1001 + 31, 1800, 2500, 3900])
        for (const direction of ["after", "before"] as const) {
          const input: Record<string, string> = { ...extra, checkIn, checkOut };
          if (id !== undefined) input[direction] = formatCursor({ id });
          const args = {
            language: "en" as const,
            filter: filter(input),
            pageSize: 9,
            images: false,
          };
          expect(seen(await searchProperties(indexed, args)), JSON.stringify(input)).toEqual(
            seen(await searchProperties(database().deps, args)),
          );
        }
    // The candidates were asked of memory (a count of none: the nights decide it).
    const asked = [...probed.mock.calls, ...probedText.mock.calls].filter(
      ([search]) => search.cap === 0,
    );
    probed.mockRestore();
    probedText.mockRestore();
    expect(asked.length).toBeGreaterThanOrEqual(40);
  });

  it("walks a filter's pages to the end and back, as SQL does", async () => {
    const facts = { region: "italy", amenities: "garden" };
    const walk = async (deps: Deps) => {
      const ids: number[] = [];
      let after: string | null = null;
      do {
        const page: CataloguePage = await searchProperties(deps, {
          language: "en",
          filter: filter(after ? { ...facts, after } : facts),
          pageSize: 50,
          images: false,
        });
        ids.push(...page.properties.map((property) => property.id));
        after = page.nextAfter;
      } while (after);
      return ids;
    };
    const fromIndex = await walk(indexed);
    expect(fromIndex).toEqual(await walk(database().deps));
    expect(fromIndex.length).toBeGreaterThan(50);
  });

  /** Polls until the index's answer for `input` satisfies `check` (a notification is async). */
  const eventually = (input: Record<string, string>, check: (ids: number[]) => boolean) =>
    vi.waitFor(
      async () => {
        const match = await index.search({
          filter: filter(input),
          isBackward: false,
          limit: 5000,
          cap: CATALOGUE_TOTAL_CAP,
        });
        if (!match || !check(match.ids)) throw new Error("not yet");
        return match.ids;
      },
      { timeout: 10_000, interval: 20 },
    );

  // The estates changed below get figures no other estate has (generated estates have at
  // most about 160 guests), so each search's whole answer is known.
  it("follows what the database changes, whoever writes it: new facts, a new estate, a deleted one", async () => {
    const { deps } = database();
    // No writer's own notification: the database announces changes of facts itself.
    await deps.db.execute(
      sql`update properties set guest_capacity = 199, bedrooms = 79 where id = 1500`,
    );
    expect(
      await eventually({ guests: "199", bedrooms: "79" }, (ids) => ids.includes(1500)),
    ).toEqual([1500]);

    await generateCatalogue(deps.db, { count: 3, firstId: 4101 });
    await deps.db.execute(
      sql`update properties set guest_capacity = 198, bedrooms = 78 where id in (4101, 4102, 4103)`,
    );
    const big = { guests: "198", bedrooms: "78" };
    expect(await eventually(big, (ids) => ids.length === 4)).toEqual([1500, 4101, 4102, 4103]);

    await deps.db.execute(sql`delete from properties where id = 4102`);
    expect(await eventually(big, (ids) => ids.length === 3)).toEqual([1500, 4101, 4103]);
    const page = await both(big);
    expect(page.fromIndex).toEqual(page.fromSql);
  });

  it("follows a change of an estate's words written by plain SQL", async () => {
    const { deps } = database();
    await deps.db.execute(sql`update properties set guest_capacity = 200 where id = 1700`);
    // No other estate takes 200 guests.
    const unique = filter({ guests: "200" });
    const withWord = async (word: string) => {
      const match = await index.searchText({
        filter: unique,
        words: [[word]],
        isBackward: false,
        limit: 10,
        cap: CATALOGUE_TOTAL_CAP,
      });
      return match?.ids;
    };
    // A common word (a bitset) and a rare one (a list, read once it is asked for) that the
    // estate does not have yet, then has, then no longer has.
    const pick = async (estates: SQL) => {
      const result = await deps.db.execute(sql`
        select w from ts_stat('select search_vector from property_search') s(w, ndoc, nentry)
        where ${estates} and w ~ '^[a-z]+$'
          and w not in (select unnest(tsvector_to_array(search_vector)) from property_search where property_id = 1700)
        order by ndoc desc limit 1`);
      return (result as unknown as { rows: { w: string }[] }).rows[0]!.w;
    };
    const common = await pick(sql`ndoc > 100`);
    const rare = await pick(sql`ndoc between 2 and 10`);
    for (const word of [common, rare]) {
      await vi.waitFor(async () => expect(await withWord(word)).toEqual([]), { timeout: 10_000 });
      await deps.db.execute(sql`
        update property_translations set search_document = search_document || ' ' || ${word}
        where property_id = 1700 and lang = 'zh'`);
      await vi.waitFor(async () => expect(await withWord(word)).toEqual([1700]), {
        timeout: 10_000,
        interval: 20,
      });
      await deps.db.execute(sql`
        update property_translations set search_document = 'nothing here'
        where property_id = 1700 and lang = 'zh'`);
      await vi.waitFor(async () => expect(await withWord(word)).toEqual([]), {
        timeout: 10_000,
        interval: 20,
      });
    }
  });

  it("builds afresh for an estate inside the ids it holds, and after a change to everything", async () => {
    const { deps } = database();
    // Below the highest id: the index cannot append it, so it rebuilds (SQL answers meanwhile).
    await generateCatalogue(deps.db, { count: 1, firstId: 900 });
    await deps.db.execute(
      sql`update properties set guest_capacity = 197, bedrooms = 77 where id = 900`,
    );
    const big = { guests: "197", bedrooms: "77" };
    expect(await eventually(big, (ids) => ids.includes(900))).toEqual([900, 1500, 4101, 4103]);

    // More than a notification can name: announced as a change to everything.
    await generateCatalogue(deps.db, { count: 600, firstId: 5001 });
    await deps.db.execute(
      sql`update properties set guest_capacity = 196, bedrooms = 80 where id between 5001 and 5600`,
    );
    const biggest = await eventually({ guests: "196", bedrooms: "80" }, (ids) => ids.length > 0);
    expect(biggest).toHaveLength(600);
    expect(biggest[0]).toBe(5001);
    expect(biggest.at(-1)).toBe(5600);
  });

  it("steps aside when it cannot hear changes: SQL answers while it is off", async () => {
    index.stop();
    expect(
      await index.search({ filter: filter({}), isBackward: false, limit: 1, cap: 1 }),
    ).toBeNull();
    const page = await both({ region: "italy" });
    expect(page.match).toBeNull();
    expect(page.fromIndex).toEqual(page.fromSql);
    await index.start();
    expect(index.state).toBe("ready");
  });
});
