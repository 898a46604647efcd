import type { Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { formatMoney, isCurrency } from "../pricing/money.ts";
import { factsMail, longMomentUtc, type RenderedMail } from "../mail/templates.ts";

/**
 * The mail an offer's steps call for, in the reader's language: the guest hears of an offer,
 * of its expiry, of a cancelled booking, of each payment recorded (their receipt) and of a
 * balance coming due; staff hear of answers, expiries and cancellations. Amounts and dates come
 * from the event, recorded when the step happened; nothing the guest typed goes in.
 */

export type OfferMailKind =
  "sent" | "accepted" | "declined" | "expired" | "cancelled" | "payment" | "balanceReminder";

export interface OfferMailFacts {
  reference: string;
  currency: string;
  total?: number;
  deposit?: number;
  balance?: number;
  amount?: number;
  outstanding?: number;
  refundDue?: number;
  expiresAt?: string;
  depositDueAt?: string | null;
  dueOn?: string | null;
  /** Why a booking was cancelled: the deposit unpaid, the guest, or staff. */
  cause?: string;
  paymentKind?: string;
}

export function renderOfferMail(
  language: Language,
  kind: OfferMailKind,
  audience: "guest" | "staff",
  facts: OfferMailFacts,
  url: string,
): RenderedMail {
  const t = (key: string, params: Record<string, unknown> = {}) => translate(language, key, params);
  const money = (amount: number | undefined) =>
    amount === undefined || !isCurrency(facts.currency)
      ? null
      : formatMoney(amount, facts.currency, language);
  const time = (iso: string | null | undefined) => (iso ? longMomentUtc(language, iso) : null);
  const day = (iso: string | null | undefined) =>
    iso
      ? new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" }).format(
          new Date(`${iso}T00:00:00Z`),
        )
      : null;
  const rows: [string, string | null][] = [
    [t("offers.mail.rows.reference"), facts.reference],
    [t("offers.mail.rows.total"), money(facts.total)],
    [t("offers.mail.rows.deposit"), money(facts.deposit)],
    [t("offers.mail.rows.balance"), facts.balance ? money(facts.balance) : null],
    [t("offers.mail.rows.amount"), money(facts.amount)],
    [t("offers.mail.rows.outstanding"), money(facts.outstanding)],
    [t("offers.mail.rows.refundDue"), facts.refundDue ? money(facts.refundDue) : null],
    [t("offers.mail.rows.expiresAt"), time(facts.expiresAt)],
    [t("offers.mail.rows.depositDueAt"), time(facts.depositDueAt)],
    [t("offers.mail.rows.dueOn"), day(facts.dueOn)],
  ];
  const key = `offers.mail.${audience}.${kind}`;
  const cause = facts.cause ? t(`offers.mail.causes.${facts.cause}`) : "";
  const params = {
    reference: facts.reference,
    cause,
    paymentKind: facts.paymentKind ? t(`offers.payment.kinds.${facts.paymentKind}`) : "",
  };
  return factsMail({
    language,
    subject: t(`${key}.subject`, params),
    intro: t(`${key}.intro`, params),
    rows: rows.filter((row): row is [string, string] => row[1] !== null),
    ask: t(`${key}.ask`, params),
    linkLabel: t(audience === "guest" ? "offers.mail.guestLink" : "offers.mail.staffLink"),
    url,
    signature: t("mail.signature"),
  });
}
