import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { WHITEPAPER } from "#content/site-content.ts";
import { renderWhitepaperPdf } from "#domain/whitepaper/render-whitepaper-pdf.ts";
import { whitepaperText } from "./whitepaper.ts";

describe("the site's whitepaper PDF", () => {
  it.each(["en", "fr", "it"] as const)(
    "has the content's title and every section, figures filled in (%s)",
    async (language) => {
      const text = whitepaperText(language);
      expect(text.sections).toHaveLength(WHITEPAPER.sections.length);
      const paragraphs = text.sections.flatMap((section) => section.paragraphs);
      expect(paragraphs.join("\n")).not.toContain("{{");
      const pdf = await PDFDocument.load(await renderWhitepaperPdf(language, text));
      expect(pdf.getTitle()).toBe(WHITEPAPER.title[language]);
      expect(pdf.getPageCount()).toBeGreaterThanOrEqual(WHITEPAPER.sections.length + 1);
    },
  );
});
