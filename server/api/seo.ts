import { Router } from "express";
import { listProperties } from "../../domain/catalogue/read-properties.ts";
import type { Deps } from "../../domain/deps.ts";
import { PUBLIC_PAGES, SITE } from "../../content/site.ts";
import { DEFAULT_LANGUAGE, LANGUAGE_TAGS, LANGUAGES, type Language } from "../../i18n/config.ts";

const escapeXml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** /sitemap.xml (every page in every language, with hreflang alternates) and /robots.txt. */
export function seoRoutes(deps: Deps, publicUrl: string): Router {
  const router = Router();
  const urlOf = (path: string, language: Language) =>
    language === DEFAULT_LANGUAGE ? `${publicUrl}${path}` : `${publicUrl}${path}?lang=${language}`;

  router.get("/sitemap.xml", async (_req, res) => {
    const properties = await listProperties(deps, { language: DEFAULT_LANGUAGE });
    const paths = [...PUBLIC_PAGES, ...properties.map((property) => `/property/${property.slug}`)];
    const entries = paths.flatMap((path) =>
      LANGUAGES.map((language) => {
        const alternates = LANGUAGES.map(
          (other) =>
            `<xhtml:link rel="alternate" hreflang="${LANGUAGE_TAGS[other]}" href="${escapeXml(urlOf(path, other))}"/>`,
        ).join("");
        return `<url><loc>${escapeXml(urlOf(path, language))}</loc>${alternates}<xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(urlOf(path, DEFAULT_LANGUAGE))}"/></url>`;
      }),
    );
    res.type("application/xml").set("Cache-Control", "public, max-age=3600");
    res.send(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${entries.join("\n")}\n</urlset>\n`,
    );
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
