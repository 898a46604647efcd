import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { addDays } from "../calendar/nights.ts";
import { utcToday } from "../requests/dates.ts";
import { CatalogueFilterSchema } from "./catalogue-filter.schema.ts";
import { searchProperties } from "./read-properties.ts";

/** The nights of the calendar below, a month ahead so they stay in the future. */
const D1 = addDays(utcToday(), 30);
const D2 = addDays(D1, 5);

const STAYED = demoEstate("gordon-castle");
const BLOCKED = demoEstate("bellingham-castle");
const IMPORTED = demoEstate("ardvane-tower");
const ALL_IDS = DEMO_CATALOGUE.map((estate) => estate.id).sort((a, b) => a - b);
const without = (...ids: number[]) => ALL_IDS.filter((id) => !ids.includes(id));

describeEachBackend("the catalogue by dates", (database) => {
  /** Every id a search lists, walking its keyset pages of `pageSize` forward. */
  const walk = async (input: Record<string, string>, pageSize = 100) => {
    const ids: number[] = [];
    let after: string | null = null;
    for (let page = 0; page < 100; page++) {
      const result = await searchProperties(database().deps, {
        language: "en",
        filter: CatalogueFilterSchema.parse(after ? { ...input, after } : input),
        pageSize,
      });
      ids.push(...result.properties.map((property) => property.id));
      after = result.nextAfter;
      if (!after) return ids;
    }
    throw new Error("the pages never end");
  };
  const free = (checkIn: string, checkOut: string, input: Record<string, string> = {}) =>
    walk({ ...input, checkIn, checkOut });

  beforeAll(async () => {
    const { db } = database().deps;
    // A confirmed stay [D1, D2): its request, then its claim on the nights.
    const requestId = randomUUID();
    await db.execute(sql`
      insert into guest_requests (id, kind, reference, status, language, email, first_name,
        last_name, property_id, stay_start, stay_end, details, status_token_hash)
      values (${requestId}, 'property_booking', 'CAS-DATES-1', 'Confirmed', 'en',
        'guest@example.com', 'Ada', 'Lovelace', ${STAYED.id}, ${D1}, ${D2}, '{}',
        ${randomUUID()})`);
    await db.execute(sql`
      insert into calendar_entries (id, property_id, nights, source, request_id)
      values (${randomUUID()}, ${STAYED.id}, daterange(${D1}::date, ${D2}::date), 'stay', ${requestId})`);
    // A maintenance block of one night, D1 + 2.
    await db.execute(sql`
      insert into calendar_entries (id, property_id, nights, source, kind, note)
      values (${randomUUID()}, ${BLOCKED.id}, daterange(${addDays(D1, 2)}::date, ${addDays(D1, 3)}::date),
        'block', 'maintenance', 'roof')`);
    // A busy time read from an imported feed, over the days before D1 and D1's night.
    const feedId = randomUUID();
    await db.execute(sql`
      insert into calendar_feeds (id, property_id, url, created_by)
      values (${feedId}, ${IMPORTED.id}, 'https://calendar.example/feed.ics', 'staff:a@castellum.test')`);
    await db.execute(sql`
      insert into calendar_entries (id, property_id, nights, source, feed_id, external_uid)
      values (${randomUUID()}, ${IMPORTED.id}, daterange(${addDays(D1, -3)}::date, ${addDays(D1, 1)}::date),
        'external', ${feedId}, 'busy-1@calendar.example')`);
    // A tentative request closes nothing: only claims do.
    await db.execute(sql`
      insert into guest_requests (id, kind, reference, status, language, email, first_name,
        last_name, property_id, stay_start, stay_end, details, status_token_hash)
      values (${randomUUID()}, 'property_booking', 'CAS-DATES-2', 'New', 'en',
        'guest@example.com', 'Grace', 'Hopper', ${ALL_IDS[0]!}, ${D1}, ${D2}, '{}', ${randomUUID()})`);
  });

  it("leaves out an estate whose stay shares a night with the dates, however they overlap", async () => {
    const windows: [string, string][] = [
      [D1, D2], // the same nights
      [addDays(D1, 3), addDays(D1, 4)], // one night inside
      [addDays(D2, -1), addDays(D2, 3)], // the stay's last night
      [addDays(D1, -10), addDays(D2, 10)], // around it
    ];
    for (const [checkIn, checkOut] of windows) {
      const ids = await free(checkIn, checkOut);
      expect(ids, `${checkIn}..${checkOut}`).not.toContain(STAYED.id);
    }
  });

  it("keeps it for a stay that arrives on its check-out day or leaves on its arrival day", async () => {
    // The external busy time ends on D1 + 1 and the block is on D1 + 2: after D2 all are free.
    expect(await free(D2, addDays(D2, 4))).toEqual(ALL_IDS);
    // Leaving on D1 (the stay's first night is not one of ours); the imported busy time still
    // holds the nights before D1.
    expect(await free(addDays(D1, -1), D1)).toEqual(without(IMPORTED.id));
    expect(await free(addDays(D1, -10), addDays(D1, -3))).toEqual(ALL_IDS);
  });

  it("leaves out estates with a block or an imported busy time on one of the nights", async () => {
    expect(await free(addDays(D1, 2), addDays(D1, 3))).toEqual(without(STAYED.id, BLOCKED.id));
    expect(await free(D1, addDays(D1, 1))).toEqual(without(STAYED.id, IMPORTED.id));
    expect(await free(addDays(D1, -1), addDays(D1, 3))).toEqual(
      without(STAYED.id, BLOCKED.id, IMPORTED.id),
    );
  });

  it("combines the dates with the region, the other filters and the text", async () => {
    const uk = DEMO_CATALOGUE.filter((estate) => estate.region === "uk").map((e) => e.id);
    expect(await free(D1, D2, { region: "uk" })).toEqual(
      uk.filter((id) => ![STAYED.id, BLOCKED.id, IMPORTED.id].includes(id)).sort((a, b) => a - b),
    );
    expect(await free(D2, addDays(D2, 2), { region: "uk" })).toEqual(uk.sort((a, b) => a - b));
    // Members-only: Gordon Castle is one; on its nights it drops out of them too.
    const members = DEMO_CATALOGUE.filter((estate) => estate.membersOnly).map((e) => e.id);
    expect(members).toContain(STAYED.id);
    expect(await free(D1, D2, { members: "1" })).toEqual(
      members
        .filter((id) => ![STAYED.id, BLOCKED.id, IMPORTED.id].includes(id))
        .sort((a, b) => a - b),
    );
    // Its name finds it on free nights and finds nothing on its stay's nights.
    expect(await free(D2, addDays(D2, 1), { q: "Gordon" })).toEqual([STAYED.id]);
    expect(await free(D1, D2, { q: "Gordon" })).toEqual([]);
    // A common word, ranked by relevance: the others that match it, not the stayed one.
    const castles = await free(addDays(D2, 1), addDays(D2, 2), { q: "castle" });
    const freeCastles = await free(D1, D2, { q: "castle" });
    expect(castles).toContain(STAYED.id);
    expect(castles).toContain(BLOCKED.id);
    expect(freeCastles.sort()).toEqual(
      castles.filter((id) => id !== STAYED.id && id !== BLOCKED.id).sort(),
    );
  });

  it("pages by keyset across the left-out estates, forward and back, with pages of two", async () => {
    const expected = without(STAYED.id, BLOCKED.id, IMPORTED.id);
    const input = { checkIn: addDays(D1, -1), checkOut: addDays(D1, 3) };
    expect(await walk(input, 2)).toEqual(expected);

    // Backward from the last page, by `before`, to the first: the same estates, in order.
    const back: number[] = [];
    let before: string | null = String(expected.at(-1)! + 1);
    while (before) {
      const page = await searchProperties(database().deps, {
        language: "en",
        filter: CatalogueFilterSchema.parse({ ...input, before }),
        pageSize: 2,
      });
      back.unshift(...page.properties.map((property) => property.id));
      before = page.previousBefore;
    }
    expect(back).toEqual(expected);

    // Ranked by relevance (score~id cursors), the text's matches are paged the same way.
    const ranked = await walk({ ...input, q: "castle" }, 2);
    expect(new Set(ranked).size).toBe(ranked.length);
    expect(ranked).not.toContain(STAYED.id);
    expect(ranked.sort()).toEqual((await walk({ ...input, q: "castle" }, 100)).sort());
  });

  it("counts only the free estates", async () => {
    const page = await searchProperties(database().deps, {
      language: "en",
      filter: CatalogueFilterSchema.parse({ checkIn: addDays(D1, -1), checkOut: addDays(D1, 3) }),
      pageSize: 5,
    });
    expect(page.total).toBe(ALL_IDS.length - 3);
    expect(page.properties).toHaveLength(5);
  });
});
