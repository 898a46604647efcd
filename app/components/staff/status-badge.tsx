import { useTranslation } from "react-i18next";
import type { RequestStatus } from "#domain/requests/options.ts";
import { cn } from "../ui/cn.ts";
import { STATUS_TONES, statusLabelKey, TONE_CLASSES } from "../status-tones.ts";

/** A status as a coloured pill with its name written out. */
export function StatusBadge({ status, className }: { status: RequestStatus; className?: string }) {
  const { t } = useTranslation();
  const tone = TONE_CLASSES[STATUS_TONES[status]];
  return (
    <span
      data-status={status}
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap",
        tone.badge,
        className,
      )}
    >
      <span aria-hidden className={cn("size-2 rounded-full", tone.dot)} />
      {t(statusLabelKey(status))}
    </span>
  );
}
