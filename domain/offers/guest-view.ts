import { desc, eq } from "drizzle-orm";
import { guestRequests, guestRequestStatusHistory } from "#db/schema/index.ts";
import type { Language } from "#i18n/config.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { lineLabel } from "../pricing/line-label.ts";
import { hashStatusToken } from "../requests/intake/reference.ts";
import type { RequestKind, RequestStatus } from "../requests/options.ts";
import { ledgerOf, offersOf } from "./ledger.ts";
import {
  amountDue,
  guestCancellation,
  offerView,
  type OfferView,
  type PaymentView,
  paymentView,
} from "./offers.ts";

/**
 * What the guest's status link opens: the request as the guest may see it, the offer in play
 * with its lines in the guest's language, what was paid and what is due, the ways to pay, and
 * whether they may cancel. No note of staff's, no other guest's booking, no staff names.
 */

export interface GuestPaymentOptions {
  bankDetails: string | null;
  caslWallet: string | null;
  card: boolean;
}

export interface GuestRequestDetail {
  id: string;
  kind: RequestKind;
  reference: string;
  status: RequestStatus;
  language: string;
  createdAt: Date;
  updatedAt: Date;
  reason: string | null;
  /** The form as the guest sent it, for the page's summary. */
  details: Record<string, unknown>;
  offer:
    | (Omit<OfferView, "lines"> & { lines: (OfferView["lines"][number] & { label: string })[] })
    | null;
  payments: Omit<PaymentView, "recordedBy">[];
  amountDue: { kind: "deposit" | "balance"; amount: number } | null;
  paymentOptions: {
    bankTransfer: { details: string; reference: string } | null;
    card: boolean;
    casl: { wallet: string } | null;
  };
  cancellation: { allowed: boolean; refundPercent: number };
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32}$/;

export async function readGuestRequest(
  deps: Pick<Deps, "db" | "clock">,
  token: string,
  language: Language,
  options: GuestPaymentOptions,
): Promise<GuestRequestDetail | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [row] = await deps.db
    .select()
    .from(guestRequests)
    .where(eq(guestRequests.statusTokenHash, hashStatusToken(token)));
  if (!row) return null;
  const [[latest], offerRows, ledger] = await Promise.all([
    deps.db
      .select({
        toStatus: guestRequestStatusHistory.toStatus,
        reason: guestRequestStatusHistory.reason,
        reasonShared: guestRequestStatusHistory.reasonShared,
      })
      .from(guestRequestStatusHistory)
      .where(eq(guestRequestStatusHistory.requestId, row.id))
      .orderBy(desc(guestRequestStatusHistory.changedAt), desc(guestRequestStatusHistory.id))
      .limit(1),
    offersOf(deps.db, row.id),
    ledgerOf(deps.db, row.id),
  ]);
  const reason =
    latest && latest.toStatus === row.status && latest.reasonShared ? latest.reason : null;
  // The offer in play, else the latest answered one (declined, expired: the guest saw it).
  const current =
    offerRows.find((offer) => offer.status === "sent" || offer.status === "accepted") ??
    offerRows.find((offer) => offer.status !== "withdrawn") ??
    null;
  const view = current ? offerView(current, ledger) : null;
  const today = nowOf(deps).toISOString().slice(0, 10);
  const accepted = view?.status === "accepted";
  return {
    id: row.id,
    kind: row.kind,
    reference: row.reference,
    status: row.status,
    language: row.language,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    reason,
    details: row.details,
    offer: view
      ? {
          ...view,
          lines: view.lines.map((line) => ({ ...line, label: lineLabel(language, line) })),
        }
      : null,
    payments: ledger
      .filter((payment) => payment.offerId === current?.id)
      .map(paymentView)
      .map(({ recordedBy: _recordedBy, ...payment }) => payment),
    amountDue: view ? amountDue(row.status, view) : null,
    paymentOptions: {
      bankTransfer:
        accepted && options.bankDetails
          ? { details: options.bankDetails, reference: row.reference }
          : null,
      card: accepted && options.card,
      casl: accepted && options.caslWallet ? { wallet: options.caslWallet } : null,
    },
    cancellation: view
      ? guestCancellation(row.status, view, today)
      : { allowed: false, refundPercent: 0 },
  };
}
