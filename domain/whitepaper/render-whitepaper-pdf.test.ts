import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import {
  renderWhitepaperPdf,
  whitepaperPdfLanguage,
  type WhitepaperText,
} from "./render-whitepaper-pdf.ts";

const text: WhitepaperText = {
  brand: "Maison d’Essai",
  title: "Livre blanc d’essai",
  subtitle: "Un sous-titre",
  sections: [
    { heading: "Première partie", paragraphs: ["Un paragraphe court."] },
    // Long enough to run over one A4 page: the renderer must open pages as it goes.
    {
      heading: "Deuxième partie",
      paragraphs: Array<string>(80).fill("Une phrase qui revient. ".repeat(6)),
    },
  ],
};

describe("whitepaper PDF", () => {
  it("renders a title page, then each section from a new page", async () => {
    const bytes = await renderWhitepaperPdf("fr", text);
    expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe("%PDF-");
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getTitle()).toBe(text.title);
    expect(pdf.getAuthor()).toBe(text.brand);
    // Title page, the short section, and the long one over more than one page.
    expect(pdf.getPageCount()).toBeGreaterThan(text.sections.length + 1);
  });

  it("is the same document for the same text", async () => {
    const [a, b] = await Promise.all([
      renderWhitepaperPdf("en", text),
      renderWhitepaperPdf("en", text),
    ]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it("offers the English PDF for Chinese", () => {
    expect(whitepaperPdfLanguage("zh")).toBe("en");
    expect(whitepaperPdfLanguage("fr")).toBe("fr");
  });
});
