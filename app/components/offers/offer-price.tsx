import { useTranslation } from "react-i18next";
import { type Currency, formatMoney, isCurrency } from "#domain/pricing/money.ts";
import type { Language } from "#i18n/config.ts";

export interface PricedLine {
  code: string;
  label: string;
  quantity: number;
  unitAmount: number;
  amount: number;
}

/** Formats minor units of `currency` for `language` (the currency code alone if unknown). */
export function moneyIn(currency: string, language: string) {
  return (amount: number) =>
    isCurrency(currency)
      ? formatMoney(amount, currency as Currency, language)
      : `${(amount / 100).toFixed(2)} ${currency}`;
}

/**
 * An offer's lines, tax and total as the guest and staff read them: the same figures the
 * server priced, formatted for the reader's language.
 */
export function OfferPrice({
  lines,
  tax,
  taxIncluded,
  total,
  currency,
  language,
}: {
  lines: readonly PricedLine[];
  tax: number;
  taxIncluded: boolean;
  total: number;
  currency: string;
  language: Language;
}) {
  const { t } = useTranslation();
  const money = moneyIn(currency, language);
  return (
    <div>
      <dl className="divide-gold/20 divide-y text-sm" data-testid="offer-lines">
        {lines.map((line, index) => (
          <div key={index} className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2">
            <dt className="min-w-0 break-words">
              {line.label}
              {line.quantity > 1 && (
                <span className="text-ink/70 block text-xs">
                  {t("pricing.estimate.quantity", {
                    count: line.quantity,
                    unit: money(line.unitAmount),
                  })}
                </span>
              )}
            </dt>
            <dd className="tabular-nums">{money(line.amount)}</dd>
          </div>
        ))}
        {!taxIncluded && (
          <div className="flex justify-between gap-4 py-2">
            <dt>{t("pricing.estimate.tax")}</dt>
            <dd className="tabular-nums">{money(tax)}</dd>
          </div>
        )}
        <div className="text-ink flex justify-between gap-4 py-2 text-base font-semibold">
          <dt>{t("pricing.estimate.total")}</dt>
          <dd className="tabular-nums" data-testid="offer-total">
            {money(total)}
          </dd>
        </div>
      </dl>
      {taxIncluded && tax > 0 && (
        <p className="text-ink/70 text-xs">
          {t("pricing.estimate.taxIncluded", { amount: money(tax) })}
        </p>
      )}
    </div>
  );
}
