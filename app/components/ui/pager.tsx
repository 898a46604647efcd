import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ArrowLeftToLine, ArrowRight } from "lucide-react";
import { buttonVariants } from "./button.tsx";

/**
 * Keyset paging: back to the first page and on to the next (a keyset page has no numbers and
 * no way back but the start). Renders nothing when there is neither.
 */
export function KeysetPager({
  label,
  summary,
  firstHref,
  nextHref,
}: {
  /** The navigation landmark's name. */
  label: string;
  /** What is shown, e.g. "24 of 130". */
  summary?: React.ReactNode;
  firstHref: string | null;
  nextHref: string | null;
}) {
  const { t } = useTranslation();
  if (!firstHref && !nextHref) return null;
  return (
    <nav
      aria-label={label}
      data-slot="keyset-pager"
      className="flex flex-wrap items-center justify-between gap-4"
    >
      <p className="text-muted text-sm">{summary}</p>
      <div className="flex gap-3">
        {firstHref && (
          <Link
            to={firstHref}
            className={buttonVariants({ variant: "ghost", size: "sm" })}
            preventScrollReset
          >
            <ArrowLeftToLine aria-hidden className="size-4" />
            {t("staff.pager.first")}
          </Link>
        )}
        {nextHref && (
          <Link
            to={nextHref}
            rel="next"
            className={buttonVariants({ variant: "outline", size: "sm" })}
          >
            {t("staff.pager.next")}
            <ArrowRight aria-hidden className="size-4" />
          </Link>
        )}
      </div>
    </nav>
  );
}
