import { Router } from "express";
import { fillPlaceholders, localize, WHITEPAPER } from "#content/site-content.ts";
import { SITE } from "#content/site.ts";
import { tokenomicsFigures } from "#domain/tokenomics/figures.ts";
import {
  renderWhitepaperPdf,
  whitepaperPdfLanguage,
  type WhitepaperPdfLanguage,
  type WhitepaperText,
} from "#domain/whitepaper/render-whitepaper-pdf.ts";

/** The site's whitepaper (content/whitepaper.json) in one language, token figures filled in. */
export function whitepaperText(language: WhitepaperPdfLanguage): WhitepaperText {
  const figures = tokenomicsFigures(language);
  return {
    brand: SITE.brand,
    title: localize(WHITEPAPER.title, language),
    subtitle: localize(WHITEPAPER.subtitle, language),
    sections: WHITEPAPER.sections.map((section) => ({
      heading: localize(section.heading, language),
      paragraphs: section.paragraphs.map((paragraph) =>
        fillPlaceholders(localize(paragraph, language), figures),
      ),
    })),
  };
}

export interface WhitepaperRouteOptions {
  /** WHITEPAPER_URL: when set, the PDF is a redirect there. */
  externalUrl?: string;
  /** Makes one language's PDF; the site's whitepaper by default (tests pass one that fails). */
  render?: (language: WhitepaperPdfLanguage) => Promise<Uint8Array>;
}

/**
 * GET /whitepaper.pdf: the configured external PDF (a redirect), or the one made from the
 * site's content in the request's language, made once per language and kept. A render that
 * fails is not kept: that request fails, the next one renders again.
 */
export function whitepaperRoutes(options: WhitepaperRouteOptions): Router {
  const router = Router();
  const render =
    options.render ??
    ((language: WhitepaperPdfLanguage) => renderWhitepaperPdf(language, whitepaperText(language)));
  const made = new Map<WhitepaperPdfLanguage, Promise<Uint8Array>>();
  router.get("/whitepaper.pdf", async (_req, res) => {
    if (options.externalUrl) return res.redirect(302, options.externalUrl);
    const language = whitepaperPdfLanguage(res.locals.language);
    let pdf = made.get(language);
    if (!pdf) {
      const rendering = render(language);
      made.set(language, rendering);
      // Concurrent requests share the render; once it fails, it leaves the cache.
      rendering.catch(() => {
        if (made.get(language) === rendering) made.delete(language);
      });
      pdf = rendering;
    }
    const bytes = await pdf;
    res.set({
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="castellum-whitepaper-${language}.pdf"`,
      "Cache-Control": "public, max-age=3600",
      "Content-Language": language,
    });
    res.send(Buffer.from(bytes));
  });
  return router;
}
