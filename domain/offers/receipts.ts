import { and, eq, inArray } from "drizzle-orm";
import { guestRequests, offers, payments, propertyTranslations } from "#db/schema/index.ts";
import { BRAND, isLanguage, type Language } from "#i18n/config.ts";
import type { Deps } from "../deps.ts";
import { ledgerOf } from "./ledger.ts";
import { offerView } from "./offers.ts";
import { hashStatusToken } from "../requests/intake/reference.ts";
import { renderReceiptPdf } from "./receipt-pdf.ts";

/** A payment's receipt as a file: for the status page's link and the payment's mail. */
export interface ReceiptFile {
  filename: string;
  bytes: Uint8Array;
}

/**
 * The receipt of payment `paymentId` of a request, in `language` (else the guest's):
 * the payment, and where the offer it paid stands now. Null when the request has no such
 * payment.
 */
export async function paymentReceipt(
  deps: Pick<Deps, "db">,
  input: {
    /** The request, by its id or by the guest's status token. */
    request: { id: string } | { token: string };
    paymentId: number;
    language?: Language;
  },
): Promise<ReceiptFile | null> {
  if (!Number.isSafeInteger(input.paymentId)) return null;
  const [found] = await deps.db
    .select({
      reference: guestRequests.reference,
      language: guestRequests.language,
      requestId: guestRequests.id,
      payment: payments,
    })
    .from(payments)
    .innerJoin(guestRequests, eq(guestRequests.id, payments.requestId))
    .where(
      and(
        eq(payments.id, input.paymentId),
        "id" in input.request
          ? eq(guestRequests.id, input.request.id)
          : eq(guestRequests.statusTokenHash, hashStatusToken(input.request.token)),
      ),
    );
  if (!found) return null;
  const { payment, ...request } = found;
  const language = input.language ?? (isLanguage(request.language) ? request.language : "en");
  const [[offer], ledger] = await Promise.all([
    deps.db.select().from(offers).where(eq(offers.id, payment.offerId)),
    ledgerOf(deps.db, request.requestId),
  ]);
  if (!offer) return null;
  const view = offerView(offer, ledger);
  const names = await deps.db
    .select({ lang: propertyTranslations.lang, name: propertyTranslations.name })
    .from(propertyTranslations)
    .where(
      and(
        eq(propertyTranslations.propertyId, offer.propertyId),
        inArray(propertyTranslations.lang, [language, "en"]),
      ),
    );
  const estate =
    names.find((row) => row.lang === language)?.name ??
    names.find((row) => row.lang === "en")?.name ??
    null;
  const bytes = await renderReceiptPdf(language, {
    brand: BRAND,
    reference: request.reference,
    estate,
    checkIn: view.checkIn,
    checkOut: view.checkOut,
    payment,
    total: view.total,
    paid: view.paid,
    outstanding: view.outstanding,
  });
  return { filename: `receipt-${request.reference}-${payment.id}.pdf`, bytes };
}
