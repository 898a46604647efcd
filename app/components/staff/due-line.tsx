import { useTranslation } from "react-i18next";
import { AlarmClock } from "lucide-react";
import { cn } from "../ui/cn.ts";
import { formatMoment } from "./format.ts";
import type { InboxRow } from "./inbox-row.ts";
import { isOpenStatus } from "#domain/requests/process.ts";

/**
 * A request's due time under its arrival in the inbox: shown while it waits for an
 * answer, marked Overdue (in words, not only colour) once past it.
 */
export function DueLine({
  row,
  locale,
}: {
  row: Pick<InboxRow, "dueAt" | "overdue" | "kind" | "status">;
  locale: string;
}) {
  const { t } = useTranslation();
  const open = isOpenStatus(row.kind, row.status);
  if (!row.dueAt || !open) return null;
  return (
    <span
      data-testid="due-line"
      className={cn(
        "mt-1 flex items-start gap-1 text-xs",
        row.overdue ? "text-burgundy font-semibold" : "text-muted",
      )}
    >
      <AlarmClock aria-hidden className="mt-px size-3.5 shrink-0" />
      <span>
        {row.overdue
          ? `${t("staff.lifecycle.overdue")} · ${formatMoment(row.dueAt, locale)}`
          : t("staff.lifecycle.dueAt", { time: formatMoment(row.dueAt, locale) })}
      </span>
    </span>
  );
}
