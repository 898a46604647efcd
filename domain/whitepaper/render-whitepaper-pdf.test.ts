import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { WHITEPAPER } from "../../content/site-content.ts";
import { renderWhitepaperPdf, whitepaperPdfLanguage } from "./render-whitepaper-pdf.ts";

describe("whitepaper PDF", () => {
  it.each(["en", "fr", "it"] as const)(
    "renders a title page and one page per section (%s)",
    async (language) => {
      const bytes = await renderWhitepaperPdf(language);
      expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe("%PDF-");
      const pdf = await PDFDocument.load(bytes);
      expect(pdf.getPageCount()).toBeGreaterThanOrEqual(WHITEPAPER.sections.length + 1);
      expect(pdf.getTitle()).toBe(WHITEPAPER.title[language]);
    },
  );

  it("offers the English PDF for Chinese", () => {
    expect(whitepaperPdfLanguage("zh")).toBe("en");
    expect(whitepaperPdfLanguage("fr")).toBe("fr");
  });
});
