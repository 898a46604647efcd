import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { REQUEST_KINDS, type RequestKind, type RequestStatus } from "#domain/requests/options.ts";
import { cn } from "../ui/cn.ts";
import { STATUS_TONES, statusLabelKey, TONE_CLASSES } from "../status-tones.ts";

/** The three kinds of request as links (`?kind=`): each is its own view of the inbox. */
export function KindNav({
  kind,
  hrefs,
}: {
  kind: RequestKind;
  hrefs: Record<RequestKind, string>;
}) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("staff.inbox.kindsLabel")}>
      <ul className="border-gold/40 flex flex-wrap gap-x-1 border-b">
        {REQUEST_KINDS.map((item) => (
          <li key={item}>
            <Link
              to={hrefs[item]}
              aria-current={item === kind ? "page" : undefined}
              className={cn(
                "-mb-px block border-b-2 px-4 py-3 text-sm font-medium",
                item === kind
                  ? "border-heritage text-heritage"
                  : "text-muted hover:text-heritage border-transparent",
              )}
            >
              {t(`staff.inbox.kinds.${item}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The total and one card per status of the kind, in the spec's colours with
 * the name written out. Each card filters the list by its status; the active one is marked.
 */
export function StatusCards({
  statuses,
  counts,
  active,
  hrefs,
}: {
  statuses: readonly RequestStatus[];
  counts: { total: number; byStatus: Record<string, number> };
  active: RequestStatus | undefined;
  hrefs: { all: string; statuses: Record<string, string> };
}) {
  const { t, i18n } = useTranslation();
  const integer = new Intl.NumberFormat(i18n.language);
  const card =
    "flex h-full flex-col justify-between gap-2 rounded-sm border p-4 xl:p-3 transition-shadow hover:shadow-card aria-[current=true]:ring-2 aria-[current=true]:ring-heritage aria-[current=true]:ring-offset-2";
  return (
    <nav aria-label={t("staff.inbox.countsLabel")}>
      {/* One row from 1280 px, however many states the kind has, so the requests stay in view. */}
      <ul
        className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5 xl:grid-cols-[repeat(var(--cards),minmax(0,1fr))]"
        style={{ "--cards": statuses.length + 1 } as React.CSSProperties}
        data-testid="status-counts"
      >
        <li>
          <Link
            to={hrefs.all}
            aria-current={active === undefined ? "true" : undefined}
            className={cn(card, "border-ink/20 bg-paper text-ink")}
          >
            <span className="text-sm font-medium">{t("staff.inbox.total")}</span>
            <span className="text-3xl font-semibold tabular-nums" data-testid="count-total">
              {integer.format(counts.total)}
            </span>
          </Link>
        </li>
        {statuses.map((status) => {
          const tone = TONE_CLASSES[STATUS_TONES[status]];
          return (
            <li key={status}>
              <Link
                to={hrefs.statuses[status] ?? hrefs.all}
                aria-current={active === status ? "true" : undefined}
                className={cn(card, tone.card)}
                data-status={status}
              >
                <span className="flex items-center gap-2 text-sm font-medium">
                  <span aria-hidden className={cn("size-2.5 rounded-full", tone.dot)} />
                  {t(statusLabelKey(status))}
                </span>
                <span className="text-3xl font-semibold tabular-nums">
                  {integer.format(counts.byStatus[status] ?? 0)}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
