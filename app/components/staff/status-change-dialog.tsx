import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { NOTIFY_GUEST_BY_DEFAULT, type RequestStatus } from "#domain/requests/options.ts";
import { needsReason as refusalNeedsReason } from "#domain/requests/process.ts";
import { REASON_MAX_LENGTH } from "#domain/staff/inbox-limits.ts";
import type { RequestDetail } from "#domain/staff/inbox.ts";
import { COLLECTION_OPERATIONS } from "#domain/staff/inbox.contract.ts";
import { callApi } from "#app/api-client.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { Button } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";
import { CONTROL_CLASS, Field } from "../ui/field.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../ui/dialog.tsx";
import type { StatusTarget } from "./inbox-row.ts";
import type { CalendarCollision, ImportedBusy } from "#domain/calendar/calendar.schema.ts";
import { CollisionAlert, ImportedBusyAlert } from "./collision-alert.tsx";
import { StatusBadge } from "./status-badge.tsx";
import { statusLabelKey } from "../status-tones.ts";
import { statusChangedToast } from "./status-change-text.ts";
import { useReturnFocus } from "../ui/use-return-focus.ts";

export interface StatusChange {
  target: StatusTarget;
  to: RequestStatus;
}

/**
 * The one dialog every status change goes through, from a row or from the details: the reason
 * (required for Rejected and Declined), whether the guest sees it, and whether the guest is
 * mailed. It sends the change against the version the page showed; a conflict (someone else
 * changed the request meanwhile) is reported and the caller shows the current state.
 * Confirming over busy times of imported calendars (known from the details, or from the
 * server's answer) takes a second, explicit step: a box that says staff know the nights are
 * free on the other site.
 */
export function StatusChangeDialog({
  change,
  onClose,
  onSettled,
}: {
  change: StatusChange | null;
  onClose: () => void;
  /** After a change or a conflict: the request as it is now (null if the answer had none). */
  onSettled: (current: RequestDetail | null) => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const returnFocus = useReturnFocus();
  return (
    <Dialog
      open={change !== null}
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
    >
      {change && (
        <DialogContent {...returnFocus} closeLabel={t("staff.change.cancel")} className="max-w-lg">
          <StatusChangeForm
            key={`${change.target.id}:${change.to}`}
            change={change}
            onBusy={setBusy}
            onDone={(current) => {
              onSettled(current);
              onClose();
            }}
          />
        </DialogContent>
      )}
    </Dialog>
  );
}

function StatusChangeForm({
  change,
  onBusy,
  onDone,
}: {
  change: StatusChange;
  onBusy: (busy: boolean) => void;
  onDone: (current: RequestDetail | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const { target, to } = change;
  const needsReason = refusalNeedsReason(target.kind, to);
  const [reason, setReason] = useState("");
  const [shareReason, setShareReason] = useState(false);
  const [notifyGuest, setNotifyGuest] = useState(NOTIFY_GUEST_BY_DEFAULT.includes(to));
  const [error, setError] = useState<string | null>(null);
  const [collision, setCollision] = useState<CalendarCollision | null>(null);
  const [importedBusy, setImportedBusy] = useState<readonly ImportedBusy[]>(
    to === "Confirmed" && target.status !== "Confirmed" ? (target.importedBusy ?? []) : [],
  );
  // Whether the server already answered that imported calendars hold the nights.
  const [importedAnswered, setImportedAnswered] = useState(false);
  const [overImported, setOverImported] = useState(false);
  const [overImportedError, setOverImportedError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const overImportedRef = useRef<HTMLInputElement>(null);
  const ids = {
    share: useId(),
    notify: useId(),
    overImported: useId(),
    overImportedHint: useId(),
    overImportedError: useId(),
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const trimmed = reason.trim();
    if (needsReason && !trimmed) {
      setError(t("staff.validation.reasonRequired"));
      reasonRef.current?.focus();
      return;
    }
    if (importedBusy.length > 0 && !overImported) {
      setOverImportedError(t("calendarCollision.confirmAnywayRequired"));
      overImportedRef.current?.focus();
      return;
    }
    setSaving(true);
    onBusy(true);
    const answer = await callApi(
      COLLECTION_OPERATIONS[target.kind].updateStatus,
      {
        params: { id: target.id },
        body: {
          status: to,
          reason: trimmed || undefined,
          shareReason: Boolean(trimmed) && shareReason,
          notifyGuest,
          version: target.version,
          ...(importedBusy.length > 0 && overImported ? { confirmOverImported: true } : {}),
        },
      },
      { language: i18n.language },
    );
    setSaving(false);
    onBusy(false);
    if (answer.ok) {
      toast(statusChangedToast(target.kind, t));
      onDone(answer.data);
      return;
    }
    const reasonError = answer.errors.find((issue) => issue.path === "reason");
    if (answer.status === 400 && reasonError) {
      setError(reasonError.message);
      reasonRef.current?.focus();
      return;
    }
    // 409 naming what holds the nights: the dialog stays open and says it, nothing changed.
    if (answer.status === 409 && answer.data && "collidesWith" in answer.data) {
      setCollision(answer.data);
      return;
    }
    // 409 naming imported busy times: staff may now confirm anyway, ticking the box.
    if (answer.status === 409 && answer.data && "importedBusy" in answer.data) {
      setImportedBusy(answer.data.importedBusy);
      setImportedAnswered(true);
      setOverImported(false);
      overImportedRef.current?.focus();
      return;
    }
    toast({
      variant: "destructive",
      title: t("forms.toast.errorTitle"),
      description: answer.message ?? t("staff.change.failed"),
    });
    // 409: someone else changed it; 404: it is gone. Either way the page must show what is.
    if (answer.status === 409)
      onDone(answer.data && "current" in answer.data ? answer.data.current : null);
    else if (answer.status === 404) onDone(null);
  };

  return (
    <form method="post" onSubmit={submit} noValidate className="grid gap-5">
      <div className="pr-10">
        <DialogTitle className="font-display text-heritage text-3xl font-semibold">
          {t("staff.change.title")}
        </DialogTitle>
        <DialogDescription className="text-muted mt-2 text-sm">
          {t("staff.change.description", {
            reference: target.reference,
            name: target.name,
            from: t(statusLabelKey(target.status)),
            to: t(statusLabelKey(to)),
          })}
        </DialogDescription>
        <p aria-hidden className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          <StatusBadge status={target.status} />
          <span className="text-muted">→</span>
          <StatusBadge status={to} />
        </p>
      </div>
      {collision ? (
        // The list names what holds the nights; the server's message names it too, so the
        // title says only what happened.
        <CollisionAlert
          title={t("calendarCollision.refused")}
          collisions={collision.collidesWith}
        />
      ) : to === "Confirmed" && target.collisions && target.collisions.length > 0 ? (
        <CollisionAlert title={t("calendarCollision.warning")} collisions={target.collisions} />
      ) : null}
      {!collision && importedBusy.length > 0 && (
        <div className="grid gap-3">
          <ImportedBusyAlert
            title={t(
              importedAnswered
                ? "calendarCollision.importedRefused"
                : "calendarCollision.importedWarning",
            )}
            importedBusy={importedBusy}
          />
          <div className="flex items-start gap-3">
            <input
              id={ids.overImported}
              ref={overImportedRef}
              type="checkbox"
              name="confirmOverImported"
              checked={overImported}
              aria-invalid={overImportedError ? true : undefined}
              aria-describedby={
                overImportedError
                  ? `${ids.overImportedHint} ${ids.overImportedError}`
                  : ids.overImportedHint
              }
              onChange={(event) => {
                setOverImported(event.target.checked);
                if (event.target.checked) setOverImportedError(null);
              }}
              className="accent-heritage mt-0.5 size-5 shrink-0"
            />
            <label htmlFor={ids.overImported} className="text-ink text-sm">
              {t("calendarCollision.confirmAnyway")}
              <span id={ids.overImportedHint} className="text-muted block">
                {t("calendarCollision.confirmAnywayHint")}
              </span>
              {overImportedError && (
                <span id={ids.overImportedError} className="text-burgundy block font-medium">
                  {overImportedError}
                </span>
              )}
            </label>
          </div>
        </div>
      )}
      <Field
        label={needsReason ? t("staff.change.reasonRequired") : t("staff.change.reasonOptional")}
        hint={
          needsReason
            ? t("staff.change.reasonRequiredHint", { status: t(statusLabelKey(to)) })
            : t("staff.change.reasonHint")
        }
        error={error}
      >
        {(control) => (
          <textarea
            {...control}
            ref={reasonRef}
            value={reason}
            maxLength={REASON_MAX_LENGTH}
            rows={4}
            aria-required={needsReason || undefined}
            onChange={(event) => {
              setReason(event.target.value);
              if (error) setError(null);
            }}
            className={cn(CONTROL_CLASS, "resize-y")}
          />
        )}
      </Field>
      <div className="grid gap-3">
        <CheckboxRow
          id={ids.share}
          checked={shareReason}
          onChange={setShareReason}
          label={t("staff.change.shareReason")}
          hint={t("staff.change.shareReasonHint")}
        />
        <CheckboxRow
          id={ids.notify}
          checked={notifyGuest}
          onChange={setNotifyGuest}
          label={t("staff.change.notifyGuest")}
          hint={t("staff.change.notifyGuestHint")}
        />
      </div>
      <div className="flex flex-wrap justify-end gap-3">
        <DialogClose asChild>
          <Button type="button" variant="ghost" disabled={saving}>
            {t("staff.change.cancel")}
          </Button>
        </DialogClose>
        <Button type="submit" disabled={saving} aria-disabled={saving}>
          {saving ? t("staff.change.saving") : t("staff.change.confirm")}
        </Button>
      </div>
    </form>
  );
}

/** A checkbox with its label and a hint under it. */
function CheckboxRow({
  id,
  checked,
  onChange,
  label,
  hint,
}: {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  hint: string;
}) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="accent-heritage mt-0.5 size-5 shrink-0"
      />
      <label htmlFor={id} className="text-ink text-sm">
        {label}
        <span className="text-muted block">{hint}</span>
      </label>
    </div>
  );
}
