import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_PAGES } from "#content/site.ts";
import { listEstateSlugs } from "#domain/catalogue/list-estate-slugs.ts";
import { slugify } from "#domain/catalogue/slug.ts";
import { LANGUAGE_TAGS, LANGUAGES } from "#i18n/config.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { listenOnFreePort, serveApp } from "#tests/setup/http.ts";
import { publicReadOf } from "../middleware/response-cache.ts";
import { seoRoutes } from "./seo.ts";

const ORIGIN = "https://castellum.example";
const slugs = DEMO_CATALOGUE.toSorted((a, b) => a.id - b.id).map((item) =>
  slugify(item.content.en.name),
);

/**
 * Throws unless `xml` is well-formed as far as these files go: one declaration, every tag
 * closed in order, no stray `<` or `&` in text or attributes. Returns the root's name.
 */
function checkWellFormed(xml: string): string {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  const body = xml.slice(xml.indexOf("\n") + 1);
  const stack: string[] = [];
  let root = "";
  const tag = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/y;
  let at = 0;
  while (at < body.length) {
    const next = body.indexOf("<", at);
    const text = body.slice(at, next === -1 ? body.length : next);
    expect(text.replace(/&(?:amp|lt|gt|quot|apos);/g, "")).not.toMatch(/[&>]/);
    if (next === -1) break;
    tag.lastIndex = next;
    const match = tag.exec(body);
    if (!match) throw new Error(`malformed tag at ${body.slice(next, next + 60)}`);
    const [, closing, name = "", attributes = "", selfClosing] = match;
    expect(attributes.replace(/&(?:amp|lt|gt|quot|apos);/g, "")).not.toMatch(/&/);
    if (!root) root = name;
    else if (stack.length === 0) throw new Error(`a second root element ${name}`);
    if (closing) expect(stack.pop(), `closing ${name}`).toBe(name);
    else if (!selfClosing) stack.push(name);
    at = tag.lastIndex;
  }
  expect(stack).toEqual([]);
  return root;
}

/** The `<loc>`s of an index or a urlset. */
const locsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);

/** Each `<url>` with its loc and its alternates by hreflang. */
function urlsOf(xml: string) {
  return [...xml.matchAll(/<url>(.*?)<\/url>/g)].map(([, inner = ""]) => ({
    loc: inner.match(/<loc>([^<]*)<\/loc>/)?.[1],
    alternates: Object.fromEntries(
      [...inner.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map(
        (m) => [m[1]!, m[2]!],
      ),
    ),
  }));
}

/** The page or estate path of a URL in any language. */
const pathOf = (url: string) => new URL(url.replaceAll("&amp;", "&")).pathname;

describeEachBackend("the sitemap index and its files", (database) => {
  // 5 pages or estates a file (each in four languages): the demo's 42 estates and 11 pages
  // make 11 files, the pages in the first three.
  const URLS_PER_FILE = 5 * LANGUAGES.length + 2;
  const PATHS_PER_FILE = 5;
  let baseUrl = "";
  let close = async () => {};
  beforeAll(async () => {
    const app = express().use(
      seoRoutes(database().deps, ORIGIN, { sitemapUrlsPerFile: URLS_PER_FILE }),
    );
    ({ baseUrl, close } = await listenOnFreePort(app));
  });
  afterAll(() => close());
  const get = (path: string) => fetch(`${baseUrl}${path}`);
  const fileCount = Math.ceil((PUBLIC_PAGES.length + DEMO_CATALOGUE.length) / PATHS_PER_FILE);

  it("indexes one file per five pages or estates, at the site's root", async () => {
    const index = await get("/sitemap.xml");
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toMatch(/^application\/xml/);
    const xml = await index.text();
    expect(checkWellFormed(xml)).toBe("sitemapindex");
    expect(xml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locsOf(xml)).toEqual(
      Array.from({ length: fileCount }, (_, i) => `${ORIGIN}/sitemap-${i + 1}.xml`),
    );
  });

  it("lists every page and estate exactly once, in every language with its alternates", async () => {
    const seen: string[] = [];
    for (let file = 1; file <= fileCount; file += 1) {
      const response = await get(`/sitemap-${file}.xml`);
      expect(response.status, `file ${file}`).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/xml/);
      expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
      const xml = await response.text();
      expect(checkWellFormed(xml)).toBe("urlset");
      const urls = urlsOf(xml);
      expect(urls.length, `file ${file}`).toBeLessThanOrEqual(URLS_PER_FILE);
      for (const url of urls) {
        expect(Object.keys(url.alternates).sort()).toEqual(
          [...LANGUAGES.map((language) => LANGUAGE_TAGS[language]), "x-default"].sort(),
        );
        // The URL is one of its own alternates, and every alternate is the same page.
        expect(Object.values(url.alternates)).toContain(url.loc);
        const path = pathOf(url.loc!);
        for (const href of Object.values(url.alternates)) expect(pathOf(href)).toBe(path);
        seen.push(url.loc!);
      }
    }
    // No URL twice, and each page and estate once per language.
    expect(new Set(seen).size).toBe(seen.length);
    const paths = [...PUBLIC_PAGES, ...slugs.map((slug) => `/property/${slug}`)];
    const expected = paths.flatMap((path) =>
      LANGUAGES.map((language) => (language === "en" ? path : `${path}?lang=${language}`)),
    );
    expect(seen.map((loc) => loc.slice(ORIGIN.length).replaceAll("&amp;", "&"))).toEqual(expected);
  });

  it("answers 404 for a file past the end, or a number that is not one", async () => {
    for (const path of [`/sitemap-${fileCount + 1}.xml`, "/sitemap-0.xml", "/sitemap-01.xml"])
      expect((await get(path)).status, path).toBe(404);
  });

  it("reads a slice of the catalogue in keyset batches, slices never overlapping", async () => {
    const read = async (skip: number, count: number) => {
      const batches: string[][] = [];
      for await (const batch of listEstateSlugs(database().deps, { skip, count, batchSize: 6 }))
        batches.push(batch);
      return batches;
    };
    const middle = await read(10, 20);
    expect(middle.map((batch) => batch.length)).toEqual([6, 6, 6, 2]);
    expect(middle.flat()).toEqual(slugs.slice(10, 30));
    const slices = await Promise.all([read(0, 17), read(17, 17), read(34, 17), read(51, 17)]);
    expect(slices.map((slice) => slice.flat()).flat()).toEqual(slugs);
    expect(slices[3]).toEqual([]);
  });
});

describeEachBackend("the sitemap through the app", (database) => {
  const url = serveApp(() => database().deps);

  it("is one index over one file at the protocol's limit, revalidated by its ETag", async () => {
    const index = await fetch(`${url()}/sitemap.xml`);
    expect(index.headers.get("cache-control")).toBe("public, no-cache");
    expect(locsOf(await index.text())).toEqual(["http://localhost/sitemap-1.xml"]);
    const again = await fetch(`${url()}/sitemap.xml`, {
      headers: { "If-None-Match": index.headers.get("etag") ?? "", "Cache-Control": "max-age=0" },
    });
    expect(again.status).toBe(304);
    const file = await (await fetch(`${url()}/sitemap-1.xml`)).text();
    expect(urlsOf(file)).toHaveLength((PUBLIC_PAGES.length + DEMO_CATALOGUE.length) * 4);
    expect((await fetch(`${url()}/sitemap-2.xml`)).status).toBe(404);
    expect(await (await fetch(`${url()}/robots.txt`)).text()).toContain(
      "Sitemap: http://localhost/sitemap.xml\n",
    );
  });
});

describe("the response cache and the sitemap", () => {
  it("keeps the index but never a streamed file", () => {
    expect(publicReadOf("/sitemap.xml")).toBe("resource");
    expect(publicReadOf("/sitemap-1.xml")).toBeNull();
  });
});
