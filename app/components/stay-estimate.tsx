import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Receipt } from "lucide-react";
import type { AnswerOf } from "#domain/api/operation.ts";
import type { getCastleQuote } from "#domain/pricing/pricing.contract.ts";
import { type Currency, formatMoney } from "#domain/pricing/money.ts";
import { isIsoDate } from "#domain/requests/dates.ts";
import { isLanguage } from "#i18n/config.ts";
import { longDate } from "./ui/month-grid-dates.ts";
import { Alert } from "./ui/alert.tsx";
import { cn } from "./ui/cn.ts";

type Quote = AnswerOf<typeof getCastleQuote, 200>;

/** The last answer, and the question it answered. */
interface Answer {
  key: string;
  quote: Quote | null;
  message: string | null;
}

/** How long the guest's typing settles before the price is asked for. */
const SETTLE_MS = 250;

/**
 * The price of the dates and guests a guest has chosen, line by line, from the estate's rates
 * now (`GET /api/castles/{slug}/quote`): asked again as they change, in the page's language.
 * An estimate: staff's offer confirms the price. With `displayCurrency`, the total is also
 * shown approximately in that currency, when the server knows reference rates.
 */
export function StayEstimate({
  slug,
  checkIn,
  checkOut,
  guests,
  displayCurrency,
  className,
}: {
  slug: string;
  checkIn: string;
  checkOut: string;
  guests: number;
  /** The guest's own currency (their payment method's), if it has one. */
  displayCurrency?: Currency;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : "en";
  const [answer, setAnswer] = useState<Answer | null>(null);
  const ready =
    isIsoDate(checkIn) &&
    isIsoDate(checkOut) &&
    checkOut > checkIn &&
    Number.isInteger(guests) &&
    guests >= 1;
  const key = `${slug}|${checkIn}|${checkOut}|${guests}|${language}|${displayCurrency ?? ""}`;

  useEffect(() => {
    if (!ready) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const query = new URLSearchParams({
        checkIn,
        checkOut,
        guests: String(guests),
        lang: language,
        ...(displayCurrency ? { display: displayCurrency } : {}),
      });
      fetch(`/api/castles/${encodeURIComponent(slug)}/quote?${query}`, {
        signal: controller.signal,
      })
        .then(async (response) => {
          const body = (await response.json()) as Quote | { message?: string };
          if (response.ok) setAnswer({ key, quote: body as Quote, message: null });
          else
            setAnswer({
              key,
              quote: null,
              message: (body as { message?: string }).message ?? t("pricing.estimate.failed"),
            });
        })
        .catch(() => {
          if (controller.signal.aborted) return;
          setAnswer({ key, quote: null, message: t("pricing.estimate.failed") });
        });
    }, SETTLE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [ready, key, slug, checkIn, checkOut, guests, language, displayCurrency, t]);

  const current = ready && answer?.key === key ? answer : null;
  const loading = ready && !current;
  // While the next price loads, the last one stays in view, dimmed.
  const shown = !ready ? null : (current?.quote ?? (loading ? (answer?.quote ?? null) : null));
  const money = (amount: number) => (shown ? formatMoney(amount, shown.currency, language) : "");
  const approximate = shown?.approximate ?? null;

  return (
    <section
      aria-labelledby="stay-estimate-title"
      aria-busy={loading}
      data-testid="stay-estimate"
      className={cn("border-gold/30 bg-ivory/60 rounded-sm border p-4 sm:p-6", className)}
    >
      <h2 id="stay-estimate-title" className="text-heritage flex items-center gap-2 text-xl">
        <Receipt aria-hidden className="text-gold size-5" />
        {t("pricing.estimate.title")}
      </h2>
      <div aria-live="polite" className="mt-3">
        {!ready && <p className="text-sm">{t("pricing.estimate.chooseDates")}</p>}
        {current?.message && (
          <Alert variant="warning" className="text-sm">
            {current.message}
          </Alert>
        )}
        {loading && !shown && <p className="text-sm">{t("pricing.estimate.loading")}</p>}
        {shown && (
          <div className={cn(loading && "opacity-60")}>
            <dl className="divide-gold/20 divide-y text-sm">
              {shown.lines.map((line, index) => (
                <div key={index} className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2">
                  <dt className="min-w-0">
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
              {!shown.taxIncluded && (
                <div className="flex justify-between gap-4 py-2">
                  <dt>{t("pricing.estimate.tax")}</dt>
                  <dd className="tabular-nums">{money(shown.tax)}</dd>
                </div>
              )}
              <div className="text-ink flex flex-wrap justify-between gap-x-4 py-2 text-base font-semibold">
                <dt>{t("pricing.estimate.total")}</dt>
                <dd className="tabular-nums">{money(shown.total)}</dd>
                {approximate && (
                  <dd
                    data-testid="stay-estimate-approximate"
                    className="text-ink/70 mt-1 w-full text-right text-xs font-normal"
                  >
                    {t("pricing.estimate.approximate.total", {
                      amount: formatMoney(approximate.total, approximate.currency, language, {
                        wholeWhenRound: true,
                      }),
                      date: longDate(approximate.asOf, language),
                    })}
                  </dd>
                )}
              </div>
            </dl>
            {shown.taxIncluded && shown.tax > 0 && (
              <p className="text-ink/70 text-xs">
                {t("pricing.estimate.taxIncluded", { amount: money(shown.tax) })}
              </p>
            )}
            <p className="mt-3 text-sm">
              {shown.balanceDueOn
                ? t("pricing.estimate.depositAndBalance", {
                    deposit: money(shown.deposit),
                    balance: money(shown.balance),
                    date: longDate(shown.balanceDueOn, language),
                  })
                : t("pricing.estimate.allAtOnce", { total: money(shown.total) })}
            </p>
            {!shown.available && shown.firstUnavailableNight && (
              <Alert variant="warning" className="mt-3 text-sm">
                {t("validation.nightsUnavailable", {
                  date: longDate(shown.firstUnavailableNight, language),
                })}
              </Alert>
            )}
            <p className="text-ink/70 mt-3 text-xs">{t("pricing.estimate.note")}</p>
          </div>
        )}
      </div>
    </section>
  );
}
