import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { withTransaction } from "#db/client.ts";
import { generateCalendars } from "#tests/factories/generated-calendars.ts";
import { generateCatalogue } from "#tests/factories/generated-catalogue.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { addDays } from "../calendar/nights.ts";
import { utcToday } from "../requests/dates.ts";
import { CatalogueFilterSchema } from "./catalogue-filter.schema.ts";
import { sequentialScans } from "./query-plans.ts";
import { explainSearchProperties } from "./read-properties.ts";

/** Every combination of the five filters on the estate's facts (32, none included). */
const FACTS = [
  { region: "austria" },
  { guests: "40" },
  { bedrooms: "20" },
  { amenities: "golf,lake" },
  { members: "1" },
];
const COMBINATIONS: Record<string, string>[] = Array.from(
  { length: 1 << FACTS.length },
  (_, mask) =>
    Object.fromEntries(
      FACTS.filter((_, bit) => mask & (1 << bit)).flatMap((fact) => Object.entries(fact)),
    ),
);
/** No text, a common word, a rare place name, Chinese, a typo (the names fallback). */
const TEXTS = [{}, { q: "castle" }, { q: "Ravengate" }, { q: "城堡" }, { q: "Ravngate" }];
/** No dates, a week a month ahead (the calendars below are a year long from today). */
const DATES = [{}, { checkIn: addDays(utcToday(), 30), checkOut: addDays(utcToday(), 37) }];

/**
 * On a few thousand rows the planner rightly reads small tables from end to end, so this test
 * prices out sequential scans and plain index scans (the walk of the primary key in id order,
 * filtering as it goes, which serves any filter and so would hide a missing index) and asserts
 * that no sequential scan is left: every filter, text match and cursor has an index of its own
 * that serves it; with dates, that calendar_entries is probed through its (property_id, nights)
 * index, never read from end to end. Whether the planner picks those indexes by itself on a
 * large catalogue is the bench's check (bench:catalogue: 1,000,000 estates, default settings).
 */
describeEachBackend("catalogue search plans", (database) => {
  beforeAll(async () => {
    await generateCatalogue(database().handle.db, { count: 3000, firstId: 1001 });
    await generateCalendars(database().handle.db, {
      count: 3000,
      firstId: 1001,
      from: utcToday(),
      days: 365,
    });
  }, 120_000);

  it("has an index for every combination of filters, text, dates and cursor", async () => {
    const { deps } = database();
    const failures: string[] = [];
    await withTransaction(deps.db, async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      for (const facts of COMBINATIONS)
        for (const text of TEXTS)
          for (const dates of DATES)
            for (const cursor of [{}, { after: "2500" }]) {
              const input = { ...facts, ...text, ...dates, ...cursor };
              // The unfiltered catalogue is the primary key's walk: that one may stay.
              const isWalk = Object.keys(input).length === 0;
              await tx.execute(
                isWalk
                  ? sql`set local enable_indexscan = on`
                  : sql`set local enable_indexscan = off`,
              );
              const plans = await explainSearchProperties(
                { ...deps, db: tx },
                { language: "fr", filter: CatalogueFilterSchema.parse(input) },
              );
              const scans = plans.flatMap((plan) => sequentialScans(plan));
              if (scans.length)
                failures.push(
                  `${JSON.stringify(input)}: ${scans.map((scan) => scan["Relation Name"]).join(", ")}`,
                );
            }
    });
    expect(failures).toEqual([]);
  }, 120_000);
});
