import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { AlarmClock, Banknote, Clock, Send } from "lucide-react";
import type { InboxOverview } from "#domain/staff/inbox.ts";
import { cn } from "../ui/cn.ts";
import { WeeklyChart } from "./weekly-chart.tsx";

/**
 * What needs attention across every kind of request: how many have waited more than 48 hours
 * in New, and the arrivals of the last weeks by status.
 */
export function OverviewPanel({
  overview,
  oldestNewHref,
  dueSoonestHref,
}: {
  overview: InboxOverview;
  oldestNewHref: string;
  /** The inbox sorted by due time, soonest first. */
  dueSoonestHref: string;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const waiting = overview.waitingOver48h;
  return (
    <section aria-labelledby={id} className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <h2 id={id} className="font-display text-heritage text-2xl font-semibold">
        {t("staff.overview.title")}
      </h2>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[18rem_minmax(0,1fr)]">
        <div
          data-testid="waiting-over-48h"
          className={cn(
            "flex flex-col justify-between gap-4 rounded-sm border p-5 lg:self-start",
            waiting > 0 ? "border-burgundy/40 bg-red-50" : "border-gold/30 bg-paper",
          )}
        >
          <div>
            <p className="flex items-center gap-2 text-sm font-medium">
              <Clock
                aria-hidden
                className={cn("size-4", waiting > 0 ? "text-burgundy" : "text-muted")}
              />
              {t("staff.overview.waitingLabel")}
            </p>
            <p className="text-ink mt-2 text-4xl font-semibold tabular-nums">
              {new Intl.NumberFormat(i18n.language).format(waiting)}
            </p>
            <p className="text-ink mt-2 text-sm">
              {waiting > 0
                ? t("staff.overview.waiting", { count: waiting })
                : t("staff.overview.waitingNone")}
            </p>
          </div>
          {waiting > 0 && (
            <Link
              to={oldestNewHref}
              className="text-heritage text-sm font-medium underline underline-offset-4"
            >
              {t("staff.overview.showOldest")}
            </Link>
          )}
          <p
            data-testid="overdue-count"
            className={cn(
              "flex items-center gap-2 text-sm",
              overview.overdue > 0 ? "text-burgundy font-semibold" : "text-muted",
            )}
          >
            <AlarmClock aria-hidden className="size-4" />
            <Link to={dueSoonestHref} className="underline underline-offset-4">
              {t("staff.lifecycle.overdueCount", { count: overview.overdue })}
            </Link>
          </p>
          <p data-testid="offers-awaiting" className="text-muted flex items-center gap-2 text-sm">
            <Send aria-hidden className="size-4" />
            {t("staff.offers.overview.awaiting", { count: overview.offersAwaitingAnswer })}
          </p>
          <p
            data-testid="balances-overdue"
            className={cn(
              "flex items-center gap-2 text-sm",
              overview.balancesOverdue > 0 ? "text-burgundy font-semibold" : "text-muted",
            )}
          >
            <Banknote aria-hidden className="size-4" />
            {t("staff.offers.overview.balancesOverdue", { count: overview.balancesOverdue })}
          </p>
        </div>
        <WeeklyChart weeks={overview.weeks} />
      </div>
    </section>
  );
}
