import { count, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { properties } from "#db/schema/index.ts";
import { CATALOGUE_PAGE_SIZE } from "#domain/catalogue/catalogue-filter.schema.ts";
import { slugify } from "#domain/catalogue/slug.ts";
import { translate } from "#i18n/translate.ts";
import { generateCatalogue } from "#tests/factories/generated-catalogue.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { serveApp } from "#tests/setup/http.ts";
import { ErrorSchema } from "#domain/api/operation.ts";
import { getCastle, listCastles } from "#domain/catalogue/catalogue.contract.ts";
import { expectAnswer, readJson } from "#tests/setup/api.ts";

const slugOf = (item: (typeof DEMO_CATALOGUE)[number]) => slugify(item.content.en.name);
const demo = (slug: string) => {
  const item = DEMO_CATALOGUE.find((candidate) => slugOf(candidate) === slug);
  if (!item) throw new Error(`no ${slug} in the demo catalogue`);
  return item;
};

describeEachBackend("GET /api/castles", (database) => {
  const url = serveApp(() => database().deps);

  it("returns the array of properties with the spec's fields, in the asked language", async () => {
    const response = await fetch(`${url()}/api/castles?lang=it&limit=100`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    const body = await expectAnswer(listCastles, response, 200);
    expect(body.map((p) => p.id)).toEqual(DEMO_CATALOGUE.map((item) => item.id));
    const tuscany = body.find((p) => p.slug === "tuscany");
    const content = demo("tuscany");
    expect(tuscany).toMatchObject({
      id: content.id,
      name: content.content.it.name,
      location: content.content.it.location,
      bedrooms: content.bedrooms,
      summary: content.content.it.summary,
      amenities: content.content.it.amenities,
      activities: content.content.it.activities,
      membersOnly: content.membersOnly,
      region: content.region,
    });
    expect(tuscany?.images).toHaveLength(content.illustration.imageCount);
    expect(tuscany?.images?.[0]).toMatch(/^\/media\/tuscany-1-[0-9a-f]+\/800\.jpg$/);
    expect(tuscany?.preview).toMatch(/^\/media\/tuscany-1-[0-9a-f]+\/1200\.jpg$/);
    expect(tuscany).not.toHaveProperty("ownerEmail");
  });

  it("answers in English without lang, and refuses a language it does not have with 400", async () => {
    const missing = await expectAnswer(
      listCastles,
      await fetch(`${url()}/api/castles?limit=100`),
      200,
    );
    expect(missing.find((p) => p.slug === "tuscany")?.name).toBe("Tuscany");
    // A regional variant is its language.
    for (const [tag, name] of [
      ["fr-CA", "Toscane"],
      ["zh-CN", "托斯卡纳"],
      ["en-GB", "Tuscany"],
    ] as const) {
      const castle = await expectAnswer(
        getCastle,
        await fetch(`${url()}/api/castles/tuscany?lang=${tag}`),
        200,
      );
      expect(castle.name, tag).toBe(name);
    }
    for (const path of ["/api/castles?lang=de", "/api/castles/tuscany?lang=de"]) {
      const unknown = await fetch(`${url()}${path}`);
      expect(unknown.status, path).toBe(400);
      expect(await readJson(unknown), path).toEqual({
        message: "Invalid filter: lang",
        code: "invalid_filter",
      });
    }
  });

  it("returns one property by id or by slug", async () => {
    const bySlug = await expectAnswer(
      getCastle,
      await fetch(`${url()}/api/castles/gordon-castle?lang=zh`),
      200,
    );
    const byId = await expectAnswer(
      getCastle,
      await fetch(`${url()}/api/castles/${bySlug.id}?lang=zh`),
      200,
    );
    expect(byId).toEqual(bySlug);
    expect(bySlug.name).toBe(demo("gordon-castle").content.zh.name);
  });

  it("answers 404 {message} in the caller's language for an unknown property", async () => {
    const english = await fetch(`${url()}/api/castles/no-such-castle`);
    expect(english.status).toBe(404);
    expect(await readJson(english)).toEqual({
      message: "Property not found",
      code: "estate_not_found",
    });
    const french = await fetch(`${url()}/api/castles/424242`, {
      headers: { "Accept-Language": "fr-FR,fr;q=0.9" },
    });
    expect(french.status).toBe(404);
    expect(await readJson(french)).toEqual({
      message: translate("fr", "errors.propertyNotFound"),
      code: "estate_not_found",
    });
  });

  it("sends an ETag and answers 304 to a matching If-None-Match", async () => {
    const first = await fetch(`${url()}/api/castles?lang=fr`);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    const second = await fetch(`${url()}/api/castles?lang=fr`, {
      // As a browser revalidating on reload sends it (fetch would add no-cache otherwise).
      headers: { "If-None-Match": etag ?? "", "Cache-Control": "max-age=0" },
    });
    expect(second.status).toBe(304);
    const other = await fetch(`${url()}/api/castles?lang=en`, {
      // As a browser revalidating on reload sends it (fetch would add no-cache otherwise).
      headers: { "If-None-Match": etag ?? "", "Cache-Control": "max-age=0" },
    });
    expect(other.status).toBe(200);
  });

  it("answers unknown API paths with 404 JSON", async () => {
    const response = await fetch(`${url()}/api/nothing-here`);
    expect(response.status).toBe(404);
    expect(await readJson(response)).toEqual({ message: "Not found", code: "not_found" });
  });

  it("redirects the old castle-network addresses to /castles with 301", async () => {
    for (const path of ["/bookings", "/properties", "/castle-network"]) {
      const response = await fetch(`${url()}${path}?lang=fr`, { redirect: "manual" });
      expect(response.status).toBe(301);
      expect(response.headers.get("location")).toBe("/castles?lang=fr");
    }
  });
});

describeEachBackend("GET /api/castles with filters", (database) => {
  const url = serveApp(() => database().deps);

  it("filters and searches, in any language, with the same array shape", async () => {
    const response = await fetch(`${url()}/api/castles?lang=fr&region=uk&amenities=garden`);
    expect(response.status).toBe(200);
    const body = await expectAnswer(listCastles, response, 200);
    const britishGardens = DEMO_CATALOGUE.filter(
      (item) => item.region === "uk" && item.amenityKeys.includes("garden"),
    );
    expect(body.map((p) => [p.id, p.name])).toEqual(
      britishGardens.map((item) => [item.id, item.content.fr.name]),
    );
    expect(response.headers.get("x-total-count")).toBe(String(britishGardens.length));
    const chinese = await expectAnswer(
      listCastles,
      await fetch(`${url()}/api/castles?q=${encodeURIComponent("城堡")}`),
      200,
    );
    // Every estate whose Chinese text has the word, named in English (the default language).
    expect(chinese.map((p) => [p.id, p.name]).sort()).toEqual(
      DEMO_CATALOGUE.filter(({ content: { zh } }) =>
        [zh.name, zh.location, zh.summary, ...zh.amenities, ...zh.activities]
          .join(" ")
          .includes("城堡"),
      )
        .map((item) => [item.id, item.content.en.name])
        .sort(),
    );
  });

  it("pages with a Link header once the results exceed a page", async () => {
    const first = await fetch(`${url()}/api/castles?bedrooms=1`);
    const body = await expectAnswer(listCastles, first, 200);
    // Every estate has a bedroom: the whole demo catalogue, more than one page of it.
    expect(DEMO_CATALOGUE.length).toBeGreaterThan(CATALOGUE_PAGE_SIZE);
    expect(body).toHaveLength(CATALOGUE_PAGE_SIZE);
    expect(first.headers.get("x-total-count")).toBe(String(DEMO_CATALOGUE.length));
    const next = first.headers.get("link")?.match(/<([^>]+)>; rel="next"/)?.[1];
    expect(next).toMatch(/after=\d+/);
    const second = await expectAnswer(listCastles, await fetch(`${url()}${next}`), 200);
    expect(second.map((p) => p.id)).toEqual(
      DEMO_CATALOGUE.slice(CATALOGUE_PAGE_SIZE, 2 * CATALOGUE_PAGE_SIZE).map((item) => item.id),
    );
    expect(second[0]?.id).toBeGreaterThan(body.at(-1)?.id ?? Number.POSITIVE_INFINITY);
  });

  it("refuses an invalid filter with 400 {message} in the caller's language", async () => {
    const response = await fetch(`${url()}/api/castles?region=atlantis`);
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual({ message: "Unknown region", code: "invalid_filter" });
    const guests = await fetch(`${url()}/api/castles?guests=lots`, {
      headers: { "Accept-Language": "it" },
    });
    expect(guests.status).toBe(400);
    expect(await readJson(guests)).toEqual({
      message: translate("it", "errors.invalidFilter", { field: "guests" }),
      code: "invalid_filter",
    });
  });
});

describeEachBackend("GET /api/castles paging and fields", (database) => {
  const url = serveApp(() => database().deps);

  /** Follows rel="next" from `path`, checking each page; every page's ids, in order. */
  async function walk(path: string, pageSize: number) {
    const pages: (number | undefined)[][] = [];
    let next: string | undefined = path;
    while (next) {
      const response: Response = await fetch(`${url()}${next}`);
      const body = await expectAnswer(listCastles, response, 200);
      expect(body.length).toBeLessThanOrEqual(pageSize);
      expect(response.headers.get("x-total-count")).toBe(String(DEMO_CATALOGUE.length));
      pages.push(body.map((p) => p.id));
      next = response.headers.get("link")?.match(/<([^>]+)>; rel="next"/)?.[1];
      if (pages.length > DEMO_CATALOGUE.length) throw new Error(`no end to the pages at ${next}`);
    }
    return pages;
  }
  const catalogueIds = () => DEMO_CATALOGUE.map((item) => item.id).sort((a, b) => a - b);

  it("pages the whole catalogue by keyset with `limit` and `after`, following the Link header", async () => {
    const pages = await walk("/api/castles?lang=fr&limit=10", 10);
    expect(pages).toHaveLength(Math.ceil(DEMO_CATALOGUE.length / 10));
    expect(pages.flat()).toEqual(catalogueIds());
  });

  it("pages the unfiltered list too: one page, and rel=next reaches every estate once", async () => {
    const pages = await walk("/api/castles?lang=fr", CATALOGUE_PAGE_SIZE);
    // More estates than a page: the plain call no longer answers the whole catalogue.
    expect(DEMO_CATALOGUE.length).toBeGreaterThan(CATALOGUE_PAGE_SIZE);
    expect(pages[0]).toHaveLength(CATALOGUE_PAGE_SIZE);
    expect(pages).toHaveLength(Math.ceil(DEMO_CATALOGUE.length / CATALOGUE_PAGE_SIZE));
    expect(pages.flat()).toEqual(catalogueIds());
    // The light way to read every estate: chosen fields, the largest page.
    const light = await walk("/api/castles?fields=id,slug&limit=100", 100);
    expect(light.flat()).toEqual(catalogueIds());
  });

  it("answers only the fields asked for", async () => {
    const list = await expectAnswer(
      listCastles,
      await fetch(`${url()}/api/castles?fields=id,slug,name&lang=it`),
      200,
    );
    expect(list).toEqual(
      DEMO_CATALOGUE.slice(0, CATALOGUE_PAGE_SIZE).map((item) => ({
        id: item.id,
        slug: slugOf(item),
        name: item.content.it.name,
      })),
    );
    const page = await expectAnswer(
      listCastles,
      await fetch(`${url()}/api/castles?limit=2&fields=slug&fields=preview`),
      200,
    );
    expect(page).toHaveLength(2);
    expect(Object.keys(page[0] ?? {})).toEqual(["slug", "preview"]);
    expect(page[0]?.preview).toMatch(/^\/media\/.+\/1200\.jpg$/);
  });

  it("refuses an unknown field, a bad cursor or a page too large with 400", async () => {
    for (const query of ["fields=id,ownerEmail", "after=abc", "limit=101", "limit=0"]) {
      const response = await fetch(`${url()}/api/castles?${query}`);
      expect(response.status, query).toBe(400);
      expect(ErrorSchema.parse(await readJson(response)).message).toMatch(
        /^Invalid filter: (fields|after|limit)$/,
      );
    }
  });
});

describeEachBackend("GET /api/castles on a catalogue larger than the count's cap", (database) => {
  const url = serveApp(() => database().deps);
  beforeAll(async () => {
    await generateCatalogue(database().handle.db, { count: 1000, firstId: 1001 });
  });

  it("says X-Total-Count: 1000+ rather than counting every match", async () => {
    const response = await fetch(`${url()}/api/castles?limit=3&fields=id`);
    expect(response.headers.get("x-total-count")).toBe("1000+");
    expect(await readJson(response)).toHaveLength(3);
    // Under the cap, the exact count (as a plain count of the table says).
    const [{ british } = { british: -1 }] = await database()
      .deps.db.select({ british: count() })
      .from(properties)
      .where(eq(properties.region, "uk"));
    expect(british).toBeLessThan(1000);
    const filtered = await fetch(`${url()}/api/castles?region=uk&limit=3`);
    expect(filtered.headers.get("x-total-count")).toBe(String(british));
  });
});
