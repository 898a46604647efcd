import { PDFDocument, type PDFFont, rgb, StandardFonts } from "pdf-lib";
import type { Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { formatMoney, isCurrency } from "../pricing/money.ts";
import { whitepaperPdfLanguage } from "../whitepaper/render-whitepaper-pdf.ts";

/**
 * A receipt for one payment as a PDF, with the whitepaper's renderer (pdf-lib and the PDF
 * standard fonts): the reference, what was paid, how and when, and where the booking stands.
 * The standard fonts draw Latin scripts only, so a Chinese guest's receipt is in English, as
 * their whitepaper is. Deterministic for its input: the dates printed are the payment's.
 */

export interface ReceiptInput {
  brand: string;
  reference: string;
  estate: string | null;
  checkIn: string;
  checkOut: string;
  payment: {
    id: number;
    kind: string;
    method: string;
    amount: number;
    currency: string;
    reference: string;
    receivedAt: Date;
  };
  total: number;
  paid: number;
  outstanding: number;
}

const GREEN = rgb(0x1f / 255, 0x3d / 255, 0x2b / 255);
const GOLD = rgb(0xa0 / 255, 0x7a / 255, 0x3f / 255);
const INK = rgb(0x1c / 255, 0x19 / 255, 0x17 / 255);
const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 64;

function drawable(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  return [...text.replace(/[\u202f\u00a0]/g, " ")]
    .map((char) => (supported.has(char.codePointAt(0) ?? 0) ? char : ""))
    .join("");
}

export async function renderReceiptPdf(
  language: Language,
  input: ReceiptInput,
): Promise<Uint8Array> {
  const lang = whitepaperPdfLanguage(language);
  const t = (key: string, params: Record<string, unknown> = {}) => translate(lang, key, params);
  const money = (amount: number) =>
    isCurrency(input.payment.currency)
      ? formatMoney(amount, input.payment.currency, lang)
      : `${(amount / 100).toFixed(2)} ${input.payment.currency}`;
  const day = (iso: string) =>
    new Intl.DateTimeFormat(lang, { dateStyle: "long", timeZone: "UTC" }).format(
      new Date(`${iso.slice(0, 10)}T00:00:00Z`),
    );

  const pdf = await PDFDocument.create();
  const title = t("offers.receipt.title", { reference: input.reference });
  pdf.setTitle(title);
  pdf.setAuthor(input.brand);
  pdf.setLanguage(lang);
  pdf.setCreationDate(input.payment.receivedAt);
  pdf.setModificationDate(input.payment.receivedAt);
  const serif = await pdf.embedFont(StandardFonts.TimesRoman);
  const bold = await pdf.embedFont(StandardFonts.TimesRomanBold);
  const page = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const line = (text: string, font: PDFFont, size: number, color = INK, x = MARGIN) => {
    page.drawText(drawable(font, text), { x, y: y - size, size, font, color });
    y -= size * 1.5;
  };
  const row = (label: string, value: string) => {
    page.drawText(drawable(serif, label), {
      x: MARGIN,
      y: y - 12,
      size: 12,
      font: serif,
      color: INK,
    });
    const text = drawable(bold, value);
    const width = bold.widthOfTextAtSize(text, 12);
    page.drawText(text, {
      x: A4.width - MARGIN - width,
      y: y - 12,
      size: 12,
      font: bold,
      color: INK,
    });
    y -= 22;
  };

  line(input.brand, bold, 14, GOLD);
  page.drawRectangle({ x: MARGIN, y: y - 4, width: 48, height: 2, color: GOLD });
  y -= 18;
  line(title, bold, 24, GREEN);
  y -= 8;
  if (input.estate) row(t("offers.receipt.estate"), input.estate);
  row(t("offers.receipt.stay"), `${day(input.checkIn)} – ${day(input.checkOut)}`);
  row(t("offers.receipt.number"), `${input.reference}-${input.payment.id}`);
  y -= 10;
  row(t(`offers.payment.kinds.${input.payment.kind}`), money(input.payment.amount));
  row(t("offers.receipt.method"), t(`offers.payment.methods.${input.payment.method}`));
  row(t("offers.receipt.receivedOn"), day(input.payment.receivedAt.toISOString()));
  row(t("offers.receipt.paymentReference"), input.payment.reference.slice(0, 60));
  y -= 10;
  row(t("offers.mail.rows.total"), money(input.total));
  row(t("offers.receipt.paidToDate"), money(input.paid));
  row(t("offers.mail.rows.outstanding"), money(input.outstanding));
  y -= 24;
  line(t("offers.receipt.thanks"), serif, 12);
  return pdf.save();
}
