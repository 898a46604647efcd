import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Undo2 } from "lucide-react";
import { toast } from "#app/hooks/use-toast.ts";
import { Alert, AlertTitle } from "../ui/alert.tsx";
import { buttonVariants } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "../ui/table.tsx";
import { cn } from "../ui/cn.ts";
import { useEstateLabels } from "./estate-labels.ts";
import { formatMoment } from "./format.ts";
import { revertEstateRevision } from "#domain/staff/estates.contract.ts";
import { callApi } from "#app/api-client.ts";

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
      <Table frameProps={{ "aria-labelledby": "history-caption" }} data-testid="estate-history">
        <TableCaption id="history-caption">
          {t("staff.estates.history.caption", { name: estateName })}
        </TableCaption>
        <TableHeader>
          <tr>
            <TableHead scope="col">{t("staff.estates.history.columns.when")}</TableHead>
            <TableHead scope="col">{t("staff.estates.history.columns.who")}</TableHead>
            <TableHead scope="col">{t("staff.estates.history.columns.field")}</TableHead>
            <TableHead scope="col">{t("staff.estates.history.columns.change")}</TableHead>
            <TableHead scope="col">{t("staff.estates.history.columns.status")}</TableHead>
            <TableHead scope="col">{t("staff.estates.history.columns.actions")}</TableHead>
          </tr>
        </TableHeader>
        <TableBody>
          {entries.map((entry) => {
            const undone = entry.revertOf !== null ? byId.get(entry.revertOf) : undefined;
            return (
              <TableRow key={entry.id} data-revision-id={entry.id}>
                <TableCell className="whitespace-nowrap tabular-nums">
                  {formatMoment(entry.createdAt, i18n.language)}
                </TableCell>
                <TableCell className="min-w-40">
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
                </TableCell>
                <TableCell as="th" scope="row" className="min-w-32 font-medium">
                  {labels.field(entry.field)}
                  <span className="text-muted block text-xs font-normal">
                    {labels.language(entry.lang)}
                  </span>
                </TableCell>
                <TableCell className="min-w-72">
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
                </TableCell>
                <TableCell className="min-w-40">
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
                </TableCell>
                <TableCell>
                  {entry.revertable ? (
                    <button
                      type="button"
                      className={buttonVariants({ variant: "destructiveGhost", size: "sm" })}
                      onClick={() => setReverting(entry)}
                    >
                      <Undo2 aria-hidden className="size-4" />
                      {t("staff.estates.history.revert")}
                      <span className="sr-only">
                        {" "}
                        {labels.field(entry.field)}, {formatMoment(entry.createdAt, i18n.language)}
                      </span>
                    </button>
                  ) : (
                    !entry.revertedAt && (
                      <span className="text-muted text-xs">
                        {t("staff.estates.history.notRevertable")}
                      </span>
                    )
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
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
  return entry ? (
    <RevertConfirm
      key={entry.id}
      estateId={estateId}
      entry={entry}
      onDone={() => {
        onChanged();
        onClose();
      }}
      onCancel={onClose}
      onStale={onChanged}
    />
  ) : null;
}

function RevertConfirm({
  estateId,
  entry,
  onDone,
  onCancel,
  onStale,
}: {
  estateId: number;
  entry: HistoryEntry;
  onDone: () => void;
  onCancel: () => void;
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
    const answer = await callApi(
      revertEstateRevision,
      { params: { id: estateId, revisionId: entry.id } },
      { language: i18n.language },
    );
    setSaving(false);
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
        current: answer.data?.current ?? "",
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
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onCancel()}
      title={t("staff.estates.history.revertTitle")}
      description={t("staff.estates.history.revertText", {
        field: fieldWithLanguage,
        who: entry.actor,
        when: formatMoment(entry.createdAt, i18n.language),
      })}
      cancelLabel={t("staff.estates.history.cancel")}
      confirmLabel={
        saving ? t("staff.estates.history.reverting") : t("staff.estates.history.confirm")
      }
      onConfirm={() => void revert()}
      busy={saving}
      hideConfirm={conflict !== null}
      className="max-w-xl"
    >
      <div className="border-gold/30 bg-paper rounded-sm border p-4 text-sm">
        <p className="text-muted text-xs font-semibold tracking-wide uppercase">
          {t("staff.estates.history.restores")}
        </p>
        <ValueText text={entry.oldText} className="mt-1" />
      </div>
      {conflict && (
        <Alert variant="warning">
          <AlertTitle>{conflict.message}</AlertTitle>
          <p className="mt-2 text-xs font-semibold tracking-wide uppercase">
            {t("staff.estates.history.currentValue")}
          </p>
          <ValueText text={conflict.current} className="mt-1" />
        </Alert>
      )}
    </ConfirmDialog>
  );
}
