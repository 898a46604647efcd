import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type RequestKind, type RequestStatus } from "#domain/requests/options.ts";
import { staffChoosableStatuses } from "#domain/requests/process.ts";
import { Button } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";
import { statusLabelKey } from "../status-tones.ts";
import { useHydrated } from "./staff-page.tsx";

/** Keys that change a closed select's value at once in Chromium and Firefox on Linux/Windows. */
const STEP_KEYS = new Set([
  "ArrowUp",
  "ArrowDown",
  "ArrowLeft",
  "ArrowRight",
  "Home",
  "End",
  "PageUp",
  "PageDown",
]);

/**
 * The status dropdown of a request (a native select). A choice made with the pointer, or in the
 * open list, asks for the change at once. Stepping through a closed select with the keyboard
 * changes its value on every key press, so there the choice only becomes pending: Enter or the
 * 'Change' button asks for it, Escape drops it. No dialog opens while a keyboard user is still
 * moving through the options (WCAG 3.2.2).
 */
export function StatusSelect({
  kind,
  status,
  name,
  onPick,
  disabled,
  className,
}: {
  kind: RequestKind;
  status: RequestStatus;
  /** The guest's name, for the select's accessible name. */
  name: string;
  onPick: (status: RequestStatus) => void;
  disabled?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  const [pending, setPending] = useState<RequestStatus | null>(null);
  const stepping = useRef(false);
  const hintId = useId();
  // Before hydration a key press would change the native value with no handler to see it.
  const hydrated = useHydrated();
  const pick = (value: RequestStatus) => {
    setPending(null);
    if (value !== status) onPick(value);
  };
  return (
    <div className={cn("flex items-center gap-2", className)}>
      <select
        aria-label={t("staff.inbox.statusOf", { name })}
        aria-describedby={pending ? hintId : undefined}
        value={pending ?? status}
        disabled={disabled || !hydrated}
        data-testid="status-select"
        className="border-ink/25 bg-paper text-ink focus-visible:outline-gold min-h-9 rounded-sm border px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-offset-1 disabled:opacity-60"
        onKeyDown={(event) => {
          if (event.key === "Enter" && pending) {
            event.preventDefault();
            pick(pending);
            return;
          }
          if (event.key === "Escape" && pending) {
            event.preventDefault();
            setPending(null);
            return;
          }
          stepping.current =
            !event.altKey &&
            !event.metaKey &&
            (STEP_KEYS.has(event.key) || (event.key.length === 1 && event.key !== " "));
        }}
        onKeyUp={() => {
          stepping.current = false;
        }}
        onChange={(event) => {
          const value = event.target.value as RequestStatus;
          if (stepping.current) {
            stepping.current = false;
            setPending(value === status ? null : value);
          } else pick(value);
        }}
      >
        {staffChoosableStatuses(kind, status).map((option) => (
          <option key={option} value={option}>
            {t(statusLabelKey(option))}
          </option>
        ))}
      </select>
      {pending && (
        <>
          <Button type="button" size="sm" variant="outline" onClick={() => pick(pending)}>
            {t("staff.inbox.applyStatus")}
          </Button>
          <span id={hintId} role="status" className="sr-only">
            {t("staff.inbox.applyStatusHint")}
          </span>
        </>
      )}
    </div>
  );
}
