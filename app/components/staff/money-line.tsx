import { useTranslation } from "react-i18next";
import { Banknote } from "lucide-react";
import type { RequestMoney } from "#domain/offers/offer.schema.ts";
import { moneyIn } from "../offers/offer-price.tsx";
import { cn } from "../ui/cn.ts";
import { formatDay } from "./format.ts";

/**
 * Where a request's money stands, under its status in the inbox: the offer out, the deposit or
 * balance to collect and by when, a balance overdue (in words, not only colour), paid in full,
 * or a refund owed.
 */
export function MoneyLine({ money, locale }: { money: RequestMoney | null; locale: string }) {
  const { t } = useTranslation();
  if (!money) return null;
  const format = moneyIn(money.currency, locale);
  const amount = format(
    money.state === "offer_sent" || money.state === "paid" ? money.total : money.outstanding,
  );
  const overdue = money.state === "balance_overdue" || money.state === "refund_due";
  return (
    <span
      data-testid="money-line"
      data-state={money.state}
      className={cn(
        "mt-1 flex items-start gap-1 text-xs",
        overdue ? "text-burgundy font-semibold" : "text-muted",
      )}
    >
      <Banknote aria-hidden className="mt-px size-3.5 shrink-0" />
      <span>
        {t(`staff.money.line.${money.state}`, {
          amount,
          date: formatDay(money.dueOn, locale),
        })}
      </span>
    </span>
  );
}
