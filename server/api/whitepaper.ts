import { Router } from "express";
import {
  renderWhitepaperPdf,
  whitepaperPdfLanguage,
  type WhitepaperPdfLanguage,
} from "../../domain/whitepaper/render-whitepaper-pdf.ts";

/**
 * GET /whitepaper.pdf: the configured external PDF (a redirect), or the one made from the
 * site's content in the request's language, made once per language and kept.
 */
export function whitepaperRoutes(options: { externalUrl?: string }): Router {
  const router = Router();
  const made = new Map<WhitepaperPdfLanguage, Promise<Uint8Array>>();
  router.get("/whitepaper.pdf", async (_req, res) => {
    if (options.externalUrl) return res.redirect(302, options.externalUrl);
    const language = whitepaperPdfLanguage(res.locals.language);
    let pdf = made.get(language);
    if (!pdf) {
      pdf = renderWhitepaperPdf(language);
      made.set(language, pdf);
    }
    res.set({
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="castellum-whitepaper-${language}.pdf"`,
      "Cache-Control": "public, max-age=3600",
      "Content-Language": language,
    });
    res.send(Buffer.from(await pdf));
  });
  return router;
}
