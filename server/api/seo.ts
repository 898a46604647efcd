import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Router } from "express";
import { countEstates, listEstateSlugs } from "#domain/catalogue/list-estate-slugs.ts";
import type { Deps } from "#domain/deps.ts";
import { PUBLIC_PAGES, SITE } from "#content/site.ts";
import { DEFAULT_LANGUAGE, LANGUAGE_TAGS, LANGUAGES, type Language } from "#i18n/config.ts";

/** The sitemap protocol's limit of URLs in one file (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

export interface SeoOptions {
  /** URLs per child sitemap, at most SITEMAP_MAX_URLS (the default); tests use a few. */
  sitemapUrlsPerFile?: number;
}

const escapeXml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const URLSET_OPEN =
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n';

/**
 * /sitemap.xml, an index of child sitemaps `/sitemap-{n}.xml` (they must sit at the root: a
 * sitemap may only list URLs under its own directory), /robots.txt and the web manifest.
 *
 * The children cut one list, the public pages then every estate in catalogue order, into files
 * of `sitemapUrlsPerFile` URLs (each page or estate is one URL per language, with its hreflang
 * alternates): file n holds the list's entries [(n-1)k, nk). Each child is streamed as its
 * estates are read in keyset batches, so neither the catalogue nor a whole file is ever in
 * memory; the index costs a count. docs/decisions/0025.
 */
export function seoRoutes(deps: Deps, publicUrl: string, options: SeoOptions = {}): Router {
  const router = Router();
  const urlsPerFile = Math.min(options.sitemapUrlsPerFile ?? SITEMAP_MAX_URLS, SITEMAP_MAX_URLS);
  /** Pages or estates per file: each is one URL in every language. */
  const pathsPerFile = Math.floor(urlsPerFile / LANGUAGES.length);
  if (pathsPerFile < 1)
    throw new Error(`sitemapUrlsPerFile must be at least ${LANGUAGES.length} (one per language)`);

  const urlOf = (path: string, language: Language) =>
    language === DEFAULT_LANGUAGE ? `${publicUrl}${path}` : `${publicUrl}${path}?lang=${language}`;
  /** A page's URL in every language, each naming all of them (and x-default) as alternates. */
  const entriesOf = (path: string) => {
    const alternates =
      LANGUAGES.map(
        (other) =>
          `<xhtml:link rel="alternate" hreflang="${LANGUAGE_TAGS[other]}" href="${escapeXml(urlOf(path, other))}"/>`,
      ).join("") +
      `<xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(urlOf(path, DEFAULT_LANGUAGE))}"/>`;
    return LANGUAGES.map(
      (language) => `<url><loc>${escapeXml(urlOf(path, language))}</loc>${alternates}</url>\n`,
    ).join("");
  };

  router.get("/sitemap.xml", async (_req, res) => {
    const paths = PUBLIC_PAGES.length + (await countEstates(deps));
    const files = Math.ceil(paths / pathsPerFile);
    const entries = Array.from(
      { length: files },
      (_, index) =>
        `<sitemap><loc>${escapeXml(`${publicUrl}/sitemap-${index + 1}.xml`)}</loc></sitemap>\n`,
    );
    // Small, and kept by the response cache until the catalogue changes: revalidated with
    // Express's ETag like the catalogue API.
    res.type("application/xml").set("Cache-Control", "public, no-cache");
    res.send(
      `${XML_DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("")}</sitemapindex>\n`,
    );
  });

  router.get(/^\/sitemap-([1-9]\d{0,8})\.xml$/, async (req, res, next) => {
    const file = Number(req.params[0]);
    const from = (file - 1) * pathsPerFile;
    const to = file * pathsPerFile;
    const pages = PUBLIC_PAGES.slice(from, to);
    const batches = listEstateSlugs(deps, {
      skip: Math.max(0, from - PUBLIC_PAGES.length),
      count: to - Math.max(from, PUBLIC_PAGES.length),
    });
    // The first batch is read before the first byte: a file past the end is a 404, and a
    // database that fails at once is an error page rather than a cut file.
    const first = await batches.next();
    if (pages.length === 0 && first.done) return next();
    async function* body() {
      yield XML_DECLARATION + URLSET_OPEN;
      for (const page of pages) yield entriesOf(page);
      if (!first.done) yield first.value.map((slug) => entriesOf(`/property/${slug}`)).join("");
      for await (const slugs of batches)
        yield slugs.map((slug) => entriesOf(`/property/${slug}`)).join("");
      yield "</urlset>\n";
    }
    // Streamed, so no ETag (it would need the whole body first) and never in the response
    // cache (up to ~30 MB a file): a CDN may keep it an hour; crawlers read it rarely.
    res.type("application/xml").set("Cache-Control", "public, max-age=3600");
    try {
      // Bytes, not objects: an object stream would read 16 batches ahead of the socket.
      await pipeline(Readable.from(body(), { objectMode: false, highWaterMark: 64 * 1024 }), res);
    } catch (error) {
      // Past the first byte the status is sent: the file ends cut short, which a crawler
      // notices (invalid XML) and fetches again. A client that went away is no error.
      if (!res.headersSent) throw error;
      if ((error as NodeJS.ErrnoException).code !== "ERR_STREAM_PREMATURE_CLOSE")
        deps.log.warn({ err: error, path: req.path }, "sitemap cut short");
    }
  });

  router.get("/robots.txt", (_req, res) => {
    res.type("text/plain").set("Cache-Control", "public, max-age=3600");
    res.send(
      `User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /admin/\nDisallow: /requests/\n\nSitemap: ${publicUrl}/sitemap.xml\n`,
    );
  });

  router.get("/manifest.webmanifest", (_req, res) => {
    res.type("application/manifest+json").set("Cache-Control", "public, max-age=3600");
    res.json({
      name: SITE.brand,
      short_name: SITE.brand,
      start_url: "/",
      display: "standalone",
      background_color: "#FAF7F0",
      theme_color: "#1F3D2B",
      icons: [
        { src: "/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
        { src: "/brand/crest.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
      ],
    });
  });
  return router;
}
