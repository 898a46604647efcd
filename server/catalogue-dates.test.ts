import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { withTransaction } from "#db/client.ts";
import { addDays } from "#domain/calendar/nights.ts";
import { notifyCatalogueChanged } from "#domain/catalogue/catalogue-changes.ts";
import { CATALOGUE_MAX_STAY_NIGHTS } from "#domain/catalogue/catalogue-filter.schema.ts";
import { listCastles } from "#domain/catalogue/catalogue.contract.ts";
import type { Deps } from "#domain/deps.ts";
import { utcToday } from "#domain/requests/dates.ts";
import { translate } from "#i18n/translate.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { expectAnswer, readJson } from "#tests/setup/api.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { servePages } from "#tests/setup/pages.ts";
import { rawRequest } from "#tests/setup/raw-http.ts";

const CHECK_IN = addDays(utcToday(), 20);
const CHECK_OUT = addDays(CHECK_IN, 4);
const DATES = `checkIn=${CHECK_IN}&checkOut=${CHECK_OUT}`;
const BLOCKED = demoEstate("hazelford-manor");
const LATER = demoEstate("porthcarrow-house");
const UK = DEMO_CATALOGUE.filter((estate) => estate.region === "uk").map((estate) => estate.id);

/**
 * Blocks one night of the stay on an estate, and announces it as every writer of the calendar
 * must: in the same transaction, naming the estate.
 */
async function blockNight(deps: Deps, propertyId: number, night: string) {
  await withTransaction(deps.db, async (tx) => {
    await tx.execute(sql`
      insert into calendar_entries (id, property_id, nights, source, kind)
      values (${randomUUID()}, ${propertyId}, daterange(${night}::date, ${addDays(night, 1)}::date),
        'block', 'private_event')`);
    await notifyCatalogueChanged({ db: tx }, { propertyIds: [propertyId] });
  });
}

describeEachBackend("the catalogue by dates, over HTTP", (database) => {
  const site = servePages(() => database().deps);
  const get = (path: string, headers: Record<string, string> = {}) =>
    rawRequest(`${site.url()}${path}`, headers);

  it("pages the free estates by the Link header, the dates kept in every link", async () => {
    await blockNight(database().deps, BLOCKED.id, addDays(CHECK_IN, 1));
    const seen: number[] = [];
    let next: string | undefined = `/api/castles?${DATES}&region=uk&limit=2&fields=id`;
    while (next) {
      const response: Response = await fetch(`${site.url()}${next}`);
      const body = await expectAnswer(listCastles, response, 200);
      expect(response.headers.get("x-total-count")).toBe(String(UK.length - 1));
      seen.push(...body.map((castle) => castle.id!));
      next = response.headers.get("link")?.match(/<([^>]+)>; rel="next"/)?.[1];
      if (next) expect(next).toContain(DATES);
    }
    expect(seen).toEqual(UK.filter((id) => id !== BLOCKED.id).sort((a, b) => a - b));
  });

  it("refuses dates that break a rule with 400 and the rule, in the caller's language", async () => {
    const cases: [string, string, string][] = [
      [`checkIn=${CHECK_IN}`, "fr", "catalogueDates.errors.bothDates"],
      [`checkOut=${CHECK_OUT}`, "en", "catalogueDates.errors.bothDates"],
      [`checkIn=${CHECK_IN}&checkOut=${CHECK_IN}`, "it", "catalogueDates.errors.checkOutOrder"],
      [
        `checkIn=${addDays(utcToday(), -2)}&checkOut=${CHECK_OUT}`,
        "zh",
        "catalogueDates.errors.checkInPast",
      ],
      [
        `checkIn=${CHECK_IN}&checkOut=${addDays(CHECK_IN, CATALOGUE_MAX_STAY_NIGHTS + 1)}`,
        "en",
        "catalogueDates.errors.stayTooLong",
      ],
      [`checkIn=2027-02-30&checkOut=${CHECK_OUT}`, "fr", "catalogueDates.errors.invalidDate"],
    ];
    for (const [query, lang, key] of cases) {
      const response = await fetch(`${site.url()}/api/castles?${query}&lang=${lang}`);
      expect(response.status, query).toBe(400);
      expect(await readJson(response), query).toEqual({
        message: translate(lang as "en", key, { max: CATALOGUE_MAX_STAY_NIGHTS }),
        code: "invalid_filter",
      });
    }
    // The longest stay allowed is accepted.
    const longest = await fetch(
      `${site.url()}/api/castles?checkIn=${CHECK_IN}&checkOut=${addDays(CHECK_IN, CATALOGUE_MAX_STAY_NIGHTS)}&limit=1`,
    );
    expect(longest.status).toBe(200);
  });

  it("shows a date's error under its field on the page and keeps the other filters", async () => {
    const page = await get(`/castles?lang=fr&region=uk&checkIn=${CHECK_IN}&checkOut=${CHECK_IN}`);
    expect(page.status).toBe(200);
    const error = translate("fr", "catalogueDates.errors.checkOutOrder");
    // The check-out field is invalid and described by its error; the check-in field is not.
    const checkOut = /<input[^>]*name="checkOut"[^>]*>/.exec(page.text)?.[0] ?? "";
    expect(checkOut).toContain('aria-invalid="true"');
    const describedBy = /aria-describedby="([^"]+)"/.exec(checkOut)?.[1];
    expect(page.text).toContain(`id="${describedBy}" data-slot="field-error"`);
    expect(page.text).toContain(error.replaceAll("'", "&#x27;"));
    expect(/<input[^>]*name="checkIn"[^>]*>/.exec(page.text)?.[0]).not.toContain(
      'aria-invalid="true"',
    );
    // The region still applies: the UK's estates, all of them (the dates were left out).
    expect(page.text).toContain(translate("fr", "filters.results", { count: UK.length }));
  });

  it("drops every cached list with dates when one estate's calendar changes", async () => {
    const paths = [
      `/api/castles?${DATES}`,
      `/api/castles?${DATES}&region=uk&limit=3`,
      `/castles?${DATES}`,
      `/castles?lang=zh&${DATES}&region=uk`,
    ];
    for (const path of paths) {
      expect((await get(path)).headers["x-cache"], path).toBe("MISS");
      const again = await get(path);
      expect(again.headers["x-cache"], path).toBe("HIT");
    }
    const listed = await expectAnswer(
      listCastles,
      await fetch(`${site.url()}/api/castles?${DATES}&fields=id`),
      200,
    );
    expect(listed.map((castle) => castle.id)).toContain(LATER.id);

    await blockNight(database().deps, LATER.id, addDays(CHECK_OUT, -1));
    // The change reaches the cache through the database's NOTIFY: each list is read anew.
    for (const path of paths)
      await expect
        .poll(async () => (await get(path)).headers["x-cache"], { timeout: 2000 })
        .toBe("MISS");
    const api = await get(`/api/castles?${DATES}&region=uk&limit=3`);
    expect(api.headers["x-total-count"]).toBe(String(UK.length - 2));
    const page = await get(`/castles?lang=zh&${DATES}&region=uk`);
    expect(page.text).toContain(translate("zh", "filters.results", { count: UK.length - 2 }));
    expect(page.text).not.toContain(LATER.content.content.zh.name);
  });
});
