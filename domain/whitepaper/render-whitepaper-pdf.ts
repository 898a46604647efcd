import { PDFDocument, type PDFFont, rgb, StandardFonts } from "pdf-lib";
import type { Language } from "#i18n/config.ts";

/**
 * The languages the PDF is made in. PDF standard fonts cover Latin scripts only, and shipping
 * a CJK font would add megabytes, so the Chinese page offers the English PDF (and says so).
 */
export const WHITEPAPER_PDF_LANGUAGES = ["en", "fr", "it"] as const;
export type WhitepaperPdfLanguage = (typeof WHITEPAPER_PDF_LANGUAGES)[number];

/** The whitepaper's words in one language, token figures filled in: what the PDF prints. */
export interface WhitepaperText {
  /** The publisher, on the title page and in the document's metadata. */
  brand: string;
  title: string;
  subtitle: string;
  sections: { heading: string; paragraphs: string[] }[];
}

export function whitepaperPdfLanguage(language: Language): WhitepaperPdfLanguage {
  return (WHITEPAPER_PDF_LANGUAGES as readonly string[]).includes(language)
    ? (language as WhitepaperPdfLanguage)
    : "en";
}

const GREEN = rgb(0x1f / 255, 0x3d / 255, 0x2b / 255);
const GOLD = rgb(0xa0 / 255, 0x7a / 255, 0x3f / 255);
const INK = rgb(0x1c / 255, 0x19 / 255, 0x17 / 255);
const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 64;

/** Keeps only characters the font can draw; narrow no-break spaces become no-break spaces. */
function drawable(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  return [...text.replace(/\u202f/g, "\u00a0")]
    .map((char) => (supported.has(char.codePointAt(0) ?? 0) ? char : ""))
    .join("");
}

function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) > width && line) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The whitepaper as a PDF of `text` (the site's own content and token figures, so the PDF says
 * what the pages say). Deterministic for a text: dates are fixed to the content.
 */
export async function renderWhitepaperPdf(
  language: WhitepaperPdfLanguage,
  text: WhitepaperText,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(text.title);
  pdf.setAuthor(text.brand);
  pdf.setLanguage(language);
  pdf.setCreationDate(new Date("2026-01-01T00:00:00Z"));
  pdf.setModificationDate(new Date("2026-01-01T00:00:00Z"));
  const serif = await pdf.embedFont(StandardFonts.TimesRoman);
  const serifBold = await pdf.embedFont(StandardFonts.TimesRomanBold);
  const width = A4.width - 2 * MARGIN;

  let page = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const newPage = () => {
    page = pdf.addPage([A4.width, A4.height]);
    y = A4.height - MARGIN;
  };
  const write = (text: string, font: PDFFont, size: number, color = INK, gapAfter = size * 0.6) => {
    for (const line of wrap(font, drawable(font, text), size, width)) {
      if (y - size < MARGIN) newPage();
      page.drawText(line, { x: MARGIN, y: y - size, size, font, color });
      y -= size * 1.35;
    }
    y -= gapAfter;
  };

  // Title page.
  y = A4.height * 0.62;
  page.drawRectangle({ x: MARGIN, y: y + 40, width: 48, height: 2, color: GOLD });
  write(text.title, serifBold, 30, GREEN, 12);
  write(text.subtitle, serif, 14, INK, 24);
  write(text.brand, serifBold, 12, GOLD, 0);

  for (const section of text.sections) {
    newPage();
    write(section.heading, serifBold, 20, GREEN, 10);
    for (const paragraph of section.paragraphs) write(paragraph, serif, 11.5, INK, 8);
  }
  pdf.getPages().forEach((p, index) => {
    if (index === 0) return;
    p.drawText(String(index + 1), {
      x: A4.width / 2 - 4,
      y: MARGIN / 2,
      size: 9,
      font: serif,
      color: GOLD,
    });
  });
  return pdf.save();
}
