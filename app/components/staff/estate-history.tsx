import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Undo2 } from "lucide-react";
import { toast } from "../../hooks/use-toast.ts";
import { Button } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../ui/dialog.tsx";
import { useEstateLabels } from "./estate-labels.ts";
import { formatMoment } from "./format.ts";
import { callStaffApi } from "./staff-api.ts";
import { useReturnFocus } from "./use-return-focus.ts";

/** One change as the history shows it (EstateRevision without the raw values). */
export interface HistoryEntry {
  id: number;
  field: string;
  lang: string;
  oldText: string;
  newText: string;
  actorRole: "owner" | "staff";
  actor: string;
  createdAt: string;
  revertedAt: string | null;
  revertedBy: string | null;
  revertOf: number | null;
  revertable: boolean;
}

const TH =
  "border-ink/15 text-ink border-b px-3 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap uppercase";
const TD = "border-ink/10 text-ink border-b px-3 py-3 align-top";
/** Burgundy marks destructive actions (brand.md), as on the mail page. */
const DESTRUCTIVE_BASE =
  "inline-flex items-center justify-center gap-2 rounded-sm font-medium tracking-wide transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold disabled:pointer-events-none disabled:opacity-60";
const DESTRUCTIVE_SOFT = `${DESTRUCTIVE_BASE} min-h-9 px-3 py-1.5 text-sm text-burgundy hover:bg-burgundy/5`;
const DESTRUCTIVE_SOLID = `${DESTRUCTIVE_BASE} min-h-11 px-5 py-2 text-sm bg-burgundy text-ivory hover:bg-burgundy/90`;

/** Values longer than this (characters or lines) start folded. */
const FOLD_CHARACTERS = 240;
const FOLD_LINES = 5;

/**
 * A field's value as text, lines kept. A long value shows its start and a 'Show all'
 * disclosure; an empty one says so.
 */
export function ValueText({ text, className }: { text: string; className?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!text)
    return <span className="text-muted italic">{t("staff.estates.history.emptyValue")}</span>;
  const lines = text.split("\n");
  const isLong = text.length > FOLD_CHARACTERS || lines.length > FOLD_LINES;
  const shown =
    !isLong || open
      ? text
      : `${lines.slice(0, FOLD_LINES).join("\n").slice(0, FOLD_CHARACTERS).trimEnd()}…`;
  return (
    <div className={className}>
      <p id={id} className="break-words whitespace-pre-wrap">
        {shown}
      </p>
      {isLong && (
        <button
          type="button"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen(!open)}
          className="text-heritage mt-1 text-sm font-medium underline underline-offset-4"
        >
          {open ? t("staff.estates.history.showLess") : t("staff.estates.history.showAll")}
        </button>
      )}
    </div>
  );
}

/**
 * The estate's changes by owners and staff, newest first: when, who, which field (and
 * language), the value before and after, whether it was reverted, and 'Revert'.
 */
export function EstateHistory({
  estateId,
  estateName,
  entries,
  onChanged,
}: {
  estateId: number;
  estateName: string;
  entries: HistoryEntry[];
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const labels = useEstateLabels();
  const [reverting, setReverting] = useState<HistoryEntry | null>(null);
  const byId = new Map(entries.map((entry) => [entry.id, entry]));

  if (entries.length === 0)
    return (
      <p className="border-gold/30 bg-paper text-muted rounded-sm border px-6 py-8">
        {t("staff.estates.history.empty")}
      </p>
    );

  return (
    <>
      <div
        role="region"
        aria-labelledby="history-caption"
        tabIndex={0}
        className="border-gold/30 bg-paper focus-visible:outline-gold overflow-x-auto rounded-sm border focus-visible:outline-2"
      >
        <table className="w-full border-collapse text-sm" data-testid="estate-history">
          <caption id="history-caption" className="text-muted px-3 pt-3 pb-1 text-left text-sm">
            {t("staff.estates.history.caption", { name: estateName })}
          </caption>
          <thead>
            <tr>
              <th scope="col" className={TH}>
                {t("staff.estates.history.columns.when")}
              </th>
              <th scope="col" className={TH}>
                {t("staff.estates.history.columns.who")}
              </th>
              <th scope="col" className={TH}>
                {t("staff.estates.history.columns.field")}
              </th>
              <th scope="col" className={TH}>
                {t("staff.estates.history.columns.change")}
              </th>
              <th scope="col" className={TH}>
                {t("staff.estates.history.columns.status")}
              </th>
              <th scope="col" className={TH}>
                {t("staff.estates.history.columns.actions")}
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => {
              const undone = entry.revertOf !== null ? byId.get(entry.revertOf) : undefined;
              return (
                <tr key={entry.id} data-revision-id={entry.id}>
                  <td className={cn(TD, "whitespace-nowrap tabular-nums")}>
                    {formatMoment(entry.createdAt, i18n.language)}
                  </td>
                  <td className={cn(TD, "min-w-40")}>
                    <span
                      className={cn(
                        "inline-block rounded-sm px-1.5 py-0.5 text-xs font-semibold tracking-wide uppercase",
                        entry.actorRole === "owner"
                          ? "bg-gold/15 text-ink"
                          : "bg-heritage/10 text-heritage",
                      )}
                    >
                      {t(`staff.estates.roles.${entry.actorRole}`)}
                    </span>
                    <span className="mt-1 block break-words">{entry.actor}</span>
                  </td>
                  <th scope="row" className={cn(TD, "min-w-32 text-left font-medium")}>
                    {labels.field(entry.field)}
                    <span className="text-muted block text-xs font-normal">
                      {labels.language(entry.lang)}
                    </span>
                  </th>
                  <td className={cn(TD, "min-w-72")}>
                    <div className="grid gap-2">
                      <div>
                        <span className="text-muted text-xs font-semibold tracking-wide uppercase">
                          {t("staff.estates.history.before")}
                        </span>
                        <ValueText text={entry.oldText} className="text-muted" />
                      </div>
                      <div>
                        <span className="text-muted text-xs font-semibold tracking-wide uppercase">
                          <span aria-hidden>→ </span>
                          {t("staff.estates.history.after")}
                        </span>
                        <ValueText text={entry.newText} />
                      </div>
                    </div>
                  </td>
                  <td className={cn(TD, "min-w-40")}>
                    {entry.revertedAt ? (
                      <span className="text-burgundy">
                        {t("staff.estates.history.reverted", {
                          who: entry.revertedBy ?? "",
                          when: formatMoment(entry.revertedAt, i18n.language),
                        })}
                      </span>
                    ) : (
                      <span className="text-heritage">{t("staff.estates.history.active")}</span>
                    )}
                    {entry.revertOf !== null && (
                      <span className="text-muted mt-1 block text-xs">
                        {undone
                          ? t("staff.estates.history.revertOf", {
                              when: formatMoment(undone.createdAt, i18n.language),
                            })
                          : t("staff.estates.history.revertOfEarlier")}
                      </span>
                    )}
                  </td>
                  <td className={TD}>
                    {entry.revertable ? (
                      <button
                        type="button"
                        className={DESTRUCTIVE_SOFT}
                        onClick={() => setReverting(entry)}
                      >
                        <Undo2 aria-hidden className="size-4" />
                        {t("staff.estates.history.revert")}
                        <span className="sr-only">
                          {" "}
                          {labels.field(entry.field)},{" "}
                          {formatMoment(entry.createdAt, i18n.language)}
                        </span>
                      </button>
                    ) : (
                      !entry.revertedAt && (
                        <span className="text-muted text-xs">
                          {t("staff.estates.history.notRevertable")}
                        </span>
                      )
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <RevertDialog
        estateId={estateId}
        entry={reverting}
        onClose={() => setReverting(null)}
        onChanged={onChanged}
      />
    </>
  );
}

/** The confirmation before a revert; a conflict keeps it open with what the field holds now. */
function RevertDialog({
  estateId,
  entry,
  onClose,
  onChanged,
}: {
  estateId: number;
  entry: HistoryEntry | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const returnFocus = useReturnFocus();
  return (
    <Dialog
      open={entry !== null}
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
    >
      {entry && (
        <DialogContent
          {...returnFocus}
          closeLabel={t("staff.estates.history.cancel")}
          className="max-w-xl"
        >
          <RevertForm
            key={entry.id}
            estateId={estateId}
            entry={entry}
            onBusy={setBusy}
            onDone={() => {
              onChanged();
              onClose();
            }}
            onStale={onChanged}
          />
        </DialogContent>
      )}
    </Dialog>
  );
}

function RevertForm({
  estateId,
  entry,
  onBusy,
  onDone,
  onStale,
}: {
  estateId: number;
  entry: HistoryEntry;
  onBusy: (busy: boolean) => void;
  onDone: () => void;
  /** The history changed under the dialog (a conflict): reload it, keep the dialog. */
  onStale: () => void;
}) {
  const { t, i18n } = useTranslation();
  const labels = useEstateLabels();
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<{ message: string; current: string } | null>(null);
  const field = labels.field(entry.field);
  const fieldWithLanguage =
    entry.lang === "*" ? field : `${field} (${labels.language(entry.lang)})`;

  const revert = async () => {
    if (saving) return;
    setSaving(true);
    onBusy(true);
    const answer = await callStaffApi<{ revisionId: number; current?: string }>(
      "POST",
      `/api/admin/estates/${estateId}/revisions/${entry.id}/revert`,
      { language: i18n.language },
    );
    setSaving(false);
    onBusy(false);
    if (answer.ok) {
      toast({
        title: t("staff.estates.history.revertedTitle"),
        description: t("staff.estates.history.revertedText", { field: fieldWithLanguage }),
      });
      onDone();
      return;
    }
    if (answer.status === 409) {
      setConflict({
        message: answer.message ?? t("staff.estates.errors.conflict"),
        current: answer.body?.current ?? "",
      });
      onStale();
      return;
    }
    toast({
      variant: "destructive",
      title: t("staff.estates.history.failed"),
      description: answer.message ?? t("staff.estates.owner.failed"),
    });
    // 404 or 422: the history is not what the page showed; show what is true now.
    onDone();
  };

  return (
    <div className="grid gap-5">
      <div className="pr-10">
        <DialogTitle className="font-display text-heritage text-3xl font-semibold">
          {t("staff.estates.history.revertTitle")}
        </DialogTitle>
        <DialogDescription className="text-ink mt-3">
          {t("staff.estates.history.revertText", {
            field: fieldWithLanguage,
            who: entry.actor,
            when: formatMoment(entry.createdAt, i18n.language),
          })}
        </DialogDescription>
      </div>
      <div className="border-gold/30 bg-paper rounded-sm border p-4 text-sm">
        <p className="text-muted text-xs font-semibold tracking-wide uppercase">
          {t("staff.estates.history.restores")}
        </p>
        <ValueText text={entry.oldText} className="mt-1" />
      </div>
      {conflict && (
        <div
          role="alert"
          className="rounded-sm border border-l-4 border-orange-300 border-l-orange-500 bg-orange-50 px-4 py-3 text-sm text-orange-950"
        >
          <p className="font-semibold">{conflict.message}</p>
          <p className="mt-2 text-xs font-semibold tracking-wide uppercase">
            {t("staff.estates.history.currentValue")}
          </p>
          <ValueText text={conflict.current} className="mt-1" />
        </div>
      )}
      <div className="flex flex-wrap justify-end gap-3">
        <DialogClose asChild>
          <Button type="button" variant="ghost" disabled={saving}>
            {t("staff.estates.history.cancel")}
          </Button>
        </DialogClose>
        {!conflict && (
          <button
            type="button"
            className={DESTRUCTIVE_SOLID}
            disabled={saving}
            onClick={() => void revert()}
          >
            {saving ? t("staff.estates.history.reverting") : t("staff.estates.history.confirm")}
          </button>
        )}
      </div>
    </div>
  );
}
