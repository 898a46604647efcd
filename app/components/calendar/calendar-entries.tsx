import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type {
  CalendarBlockAnswer,
  EstateCalendarAnswer,
} from "#domain/calendar/calendar.contract.ts";
import { nightsBetween } from "#domain/calendar/nights.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { formatDate } from "#domain/requests/summary.ts";
import { Button } from "../ui/button.tsx";
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
import { describeCollision } from "#domain/calendar/collision-text.ts";
import { type CalendarTarget, removeCalendarBlock } from "./calendar-api.ts";
import type { NightKind } from "./calendar-days.ts";
import { NightMark } from "./night-marks.tsx";

type RequestEntry = EstateCalendarAnswer["stays"][number];
type ExternalEntry = EstateCalendarAnswer["external"][number];

type Row =
  | {
      type: "stay" | "tentative" | "unplaced";
      key: string;
      start: string;
      end: string;
      entry: RequestEntry;
    }
  | { type: "block"; key: string; start: string; end: string; entry: CalendarBlockAnswer }
  | { type: "external"; key: string; start: string; end: string; entry: ExternalEntry };

const MARK_OF: Record<Row["type"], NightKind | null> = {
  stay: "stay",
  tentative: "tentative",
  unplaced: null,
  block: "block",
  external: "external",
};

function rowsOf(calendar: EstateCalendarAnswer): Row[] {
  const rows: Row[] = [
    ...calendar.stays.map((entry) => ({
      type: "stay" as const,
      key: `s-${entry.requestId}`,
      ...pick(entry),
      entry,
    })),
    ...calendar.unplaced.map((entry) => ({
      type: "unplaced" as const,
      key: `u-${entry.requestId}`,
      ...pick(entry),
      entry,
    })),
    ...calendar.tentative.map((entry) => ({
      type: "tentative" as const,
      key: `t-${entry.requestId}`,
      ...pick(entry),
      entry,
    })),
    ...calendar.blocks.map((entry) => ({
      type: "block" as const,
      key: `b-${entry.id}`,
      ...pick(entry),
      entry,
    })),
    ...calendar.external.map((entry) => ({
      type: "external" as const,
      key: `e-${entry.id}`,
      ...pick(entry),
      entry,
    })),
  ];
  return rows.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}

function pick(entry: { start: string; end: string }) {
  return { start: entry.start, end: entry.end };
}

/**
 * Everything on the calendar in the window, earliest first, as a table that becomes cards on a
 * narrow screen (its last column, the status or the action, first on each card). Staff reach a
 * request's details from its reference; a block that the viewer may remove has its button,
 * behind a confirmation.
 */
export function CalendarEntries({
  calendar,
  target,
  requestHref,
  onChanged,
}: {
  calendar: EstateCalendarAnswer;
  target: CalendarTarget;
  /** Where a request's details are (staff only). */
  requestHref?: (entry: RequestEntry) => string;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const translate = (key: string, params?: Record<string, unknown>) => t(key, params);
  const language = i18n.language;
  const [removing, setRemoving] = useState<CalendarBlockAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const rows = rowsOf(calendar);
  const dates = (entry: { start: string; end: string }) =>
    t("owner.calendar.entries.dates", {
      start: formatDate(entry.start, language),
      end: formatDate(entry.end, language),
    });
  const collisionsOf = (id: string) =>
    calendar.collisions.filter((collision) => collision.external.id === id);
  const columns = {
    type: t("owner.calendar.entries.columns.type"),
    dates: t("owner.calendar.entries.columns.dates"),
    details: t("owner.calendar.entries.columns.details"),
    status: t("owner.calendar.entries.columns.status"),
  };

  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    const result = await removeCalendarBlock(target, removing.id, language);
    setBusy(false);
    setRemoving(null);
    if (result.ok) toast({ title: t("owner.calendar.remove.removed") });
    else
      toast({
        variant: "destructive",
        title: t("owner.calendar.remove.failed"),
        description: result.message ?? t("errors.generic"),
      });
    onChanged();
  };

  if (rows.length === 0)
    return (
      <p
        className="border-gold/30 bg-paper text-muted rounded-sm border px-6 py-8"
        data-testid="calendar-empty"
      >
        {t("owner.calendar.entries.none")}
      </p>
    );

  return (
    <>
      <Table layout="stack" data-testid="calendar-entries">
        <TableCaption layout="stack">
          {t("owner.calendar.entries.caption", {
            from: formatDate(calendar.from, language),
            to: formatDate(calendar.to, language),
          })}
        </TableCaption>
        <TableHeader layout="stack">
          <TableRow layout="stack">
            <TableHead scope="col">{columns.type}</TableHead>
            <TableHead scope="col">{columns.dates}</TableHead>
            <TableHead scope="col">{columns.details}</TableHead>
            <TableHead scope="col">{columns.status}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody layout="stack">
          {rows.map((row) => {
            const mark = MARK_OF[row.type];
            const collisions = row.type === "external" ? collisionsOf(row.entry.id) : [];
            return (
              <TableRow
                key={row.key}
                layout="stack"
                data-testid="calendar-entry"
                data-type={row.type}
              >
                <TableCell
                  as="th"
                  scope="row"
                  layout="stack"
                  label={columns.type}
                  className="font-medium"
                >
                  <span className="flex items-center gap-2">
                    {mark && (
                      <span
                        aria-hidden
                        className="text-heritage flex size-3 items-center justify-center"
                      >
                        <NightMark kind={mark} />
                      </span>
                    )}
                    {t(`owner.calendar.entries.types.${row.type}`)}
                  </span>
                </TableCell>
                <TableCell layout="stack" label={columns.dates}>
                  <span className="block">{dates(row)}</span>
                  <span className="text-muted text-xs">
                    {t("owner.calendar.entries.nights", {
                      count: nightsBetween(row.start, row.end),
                    })}
                  </span>
                </TableCell>
                <TableCell layout="stack" label={columns.details} className="max-xl:col-span-2">
                  {row.type === "block" ? (
                    <span className="grid gap-0.5">
                      <span>{t(`owner.calendar.kinds.${row.entry.kind}`)}</span>
                      {row.entry.note && (
                        <span className="break-words whitespace-pre-line">{row.entry.note}</span>
                      )}
                      <span className="text-muted text-xs">
                        {t(`owner.calendar.entries.madeBy.${row.entry.createdBy}`)}
                      </span>
                    </span>
                  ) : row.type === "external" ? (
                    <span className="grid gap-0.5">
                      <span className="break-words">
                        {row.entry.summary || t("owner.calendar.entries.noSummary")}
                      </span>
                      {collisions.map((collision) => (
                        <span
                          key={collision.collidesWith.id}
                          className="text-burgundy text-xs font-medium"
                        >
                          {t("owner.calendar.entries.collidesWith", {
                            what: describeCollision(translate, language, collision.collidesWith),
                          })}
                        </span>
                      ))}
                    </span>
                  ) : (
                    <span className="grid gap-0.5">
                      {requestHref ? (
                        <Link
                          to={requestHref(row.entry)}
                          className="text-heritage font-medium underline underline-offset-4"
                          aria-label={t("staff.estateCalendar.openRequest", {
                            reference: row.entry.reference,
                          })}
                        >
                          {row.entry.reference}
                        </Link>
                      ) : (
                        <span className="font-medium">{row.entry.reference}</span>
                      )}
                      {row.entry.guestName && <span>{row.entry.guestName}</span>}
                      {row.entry.guests !== null && (
                        <span className="text-muted text-xs">
                          {t("owner.calendar.entries.guests", { count: row.entry.guests })}
                        </span>
                      )}
                      {row.type === "unplaced" && (
                        <span className="text-burgundy text-xs">
                          {t("owner.calendar.entries.unplacedHelp")}
                        </span>
                      )}
                    </span>
                  )}
                </TableCell>
                <TableCell layout="stack" label={columns.status} pinned>
                  {row.type === "block" ? (
                    row.entry.removable ? (
                      <Button
                        type="button"
                        variant="destructiveGhost"
                        size="sm"
                        className="-ml-3"
                        aria-label={t("owner.calendar.remove.label", {
                          start: formatDate(row.start, language),
                          end: formatDate(row.end, language),
                        })}
                        onClick={() => setRemoving(row.entry)}
                        data-testid="remove-block"
                      >
                        {t("owner.calendar.remove.button")}
                      </Button>
                    ) : (
                      <span className="text-muted text-xs">
                        {t("owner.calendar.entries.staffOnly")}
                      </span>
                    )
                  ) : row.type === "external" ? (
                    collisions.length > 0 ? (
                      <span className="text-burgundy flex items-center gap-2 font-medium">
                        <span aria-hidden className="flex size-3 items-center justify-center">
                          <NightMark kind="collision" />
                        </span>
                        {t("owner.calendar.legend.collision")}
                      </span>
                    ) : (
                      <span className="text-muted">{t("owner.calendar.legend.external")}</span>
                    )
                  ) : (
                    <span className="whitespace-nowrap">
                      {t(`owner.calendar.entries.statuses.${row.entry.status}`, {
                        defaultValue: row.entry.status,
                      })}
                    </span>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t("owner.calendar.remove.confirmTitle")}
        description={
          removing
            ? t("owner.calendar.remove.confirmText", {
                start: formatDate(removing.start, language),
                end: formatDate(removing.end, language),
              })
            : ""
        }
        cancelLabel={t("owner.calendar.remove.cancel")}
        confirmLabel={t("owner.calendar.remove.confirm")}
        onConfirm={() => void remove()}
        busy={busy}
      />
    </>
  );
}
