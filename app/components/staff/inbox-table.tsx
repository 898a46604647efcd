import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { RequestKind, RequestStatus } from "../../../domain/requests/options.ts";
import { Button } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";
import { formatDay } from "./format.ts";
import { type InboxRow, tagGroupOf } from "./inbox-row.ts";
import { StatusSelect } from "./status-select.tsx";
import { STATUS_TONES, TONE_CLASSES } from "../status-tones.ts";

type Column =
  | "id"
  | "guest"
  | "email"
  | "memberStatus"
  | "property"
  | "checkIn"
  | "checkOut"
  | "guests"
  | "tags"
  | "status"
  | "submitted"
  | "actions";

/** The columns of spec point 2, adapted to what each kind of request has. */
const COLUMNS: Record<RequestKind, readonly Column[]> = {
  booking_request: [
    "id",
    "guest",
    "email",
    "memberStatus",
    "checkIn",
    "checkOut",
    "guests",
    "tags",
    "status",
    "submitted",
    "actions",
  ],
  property_booking: [
    "id",
    "guest",
    "email",
    "property",
    "checkIn",
    "checkOut",
    "guests",
    "status",
    "submitted",
    "actions",
  ],
  membership: ["id", "guest", "email", "tags", "status", "submitted", "actions"],
};

/** How many tags (booking types, interests) a row shows before '+N'. */
const TAGS_SHOWN = 2;

const TH =
  "border-ink/15 text-ink border-b px-2 py-3 text-left align-bottom text-xs font-semibold tracking-wide uppercase";
const TD = "border-ink/10 text-ink border-b px-2 py-3 align-top";
/** The actions stay in view while the rest of a wide table scrolls under them. */
const STICKY = "bg-paper sticky right-0 border-l shadow-[-6px_0_8px_-6px_rgb(28_25_23/0.15)]";

/**
 * The inbox table. It scrolls sideways on narrow screens (a focusable region, so keyboard users
 * can scroll it too); every status dropdown is named after its guest.
 */
export function InboxTable({
  kind,
  rows,
  caption,
  busy,
  onPickStatus,
  onView,
}: {
  kind: RequestKind;
  rows: readonly InboxRow[];
  caption: string;
  busy: boolean;
  onPickStatus: (row: InboxRow, status: RequestStatus) => void;
  onView: (row: InboxRow) => void;
}) {
  const { t, i18n } = useTranslation();
  const captionId = useId();
  const locale = i18n.language;
  const columns = COLUMNS[kind];
  const tagGroup = tagGroupOf(kind);
  const heading: Record<Column, string> = {
    id: t("staff.inbox.columns.id"),
    guest:
      kind === "membership"
        ? t("staff.inbox.columns.applicant")
        : t("staff.inbox.columns.guestName"),
    email: t("staff.inbox.columns.email"),
    memberStatus: t("staff.inbox.columns.memberStatus"),
    property: t("staff.inbox.columns.property"),
    checkIn: t("staff.inbox.columns.checkIn"),
    checkOut: t("staff.inbox.columns.checkOut"),
    guests: t("staff.inbox.columns.guests"),
    tags:
      kind === "membership"
        ? t("staff.inbox.columns.interests")
        : t("staff.inbox.columns.bookingType"),
    status: t("staff.inbox.columns.status"),
    submitted: t("staff.inbox.columns.submitted"),
    actions: t("staff.inbox.columns.actions"),
  };

  const cell = (row: InboxRow, column: Column) => {
    switch (column) {
      case "id":
        return (
          <th
            key={column}
            scope="row"
            className={cn(TD, "text-left font-mono text-xs font-semibold whitespace-nowrap")}
          >
            {row.reference}
          </th>
        );
      case "guest":
        return (
          <td key={column} className={cn(TD, "min-w-32")}>
            <span className="font-medium">{row.name}</span>
            {row.country && <span className="text-muted block text-xs">{row.country}</span>}
          </td>
        );
      case "email":
        return (
          <td key={column} className={TD}>
            <a
              href={`mailto:${row.email}`}
              className="text-heritage whitespace-nowrap underline-offset-2 hover:underline"
            >
              {row.email}
            </a>
            {row.phone && (
              <span className="text-muted block text-xs whitespace-nowrap">{row.phone}</span>
            )}
          </td>
        );
      case "memberStatus":
        return (
          <td key={column} className={cn(TD, "whitespace-nowrap")}>
            {row.memberStatus ? t(`forms.options.memberStatus.${row.memberStatus}`) : ""}
          </td>
        );
      case "property":
        return (
          <td key={column} className={cn(TD, "min-w-36")}>
            {row.propertyName ?? (row.propertyId ? `#${row.propertyId}` : "")}
          </td>
        );
      case "checkIn":
      case "checkOut": {
        const value = column === "checkIn" ? row.checkIn : row.checkOut;
        return (
          <td key={column} className={cn(TD, "whitespace-nowrap tabular-nums")}>
            {formatDay(value, locale)}
          </td>
        );
      }
      case "guests":
        return (
          <td key={column} className={cn(TD, "whitespace-nowrap tabular-nums")}>
            {row.guests && (
              <>
                <span className="font-medium">{row.guests.total}</span>
                {row.guests.adults !== null && (
                  <>
                    <span aria-hidden className="text-muted block text-xs">
                      {t("staff.inbox.guestsSplit", {
                        adults: row.guests.adults,
                        children: row.guests.children ?? 0,
                      })}
                    </span>
                    <span className="sr-only">
                      {t("staff.inbox.guestsSplitLong", {
                        adults: row.guests.adults,
                        children: row.guests.children ?? 0,
                      })}
                    </span>
                  </>
                )}
              </>
            )}
          </td>
        );
      case "tags": {
        const labels = tagGroup ? row.tags.map((tag) => t(`${tagGroup}.${tag}`)) : [];
        const rest = labels.slice(TAGS_SHOWN);
        return (
          <td key={column} className={cn(TD, "max-w-40 min-w-32")}>
            <ul className="flex flex-wrap gap-1">
              {labels.slice(0, TAGS_SHOWN).map((label) => (
                <li
                  key={label}
                  title={label}
                  className="border-gold/50 bg-ivory max-w-full truncate rounded-full border px-2 py-0.5 text-xs whitespace-nowrap"
                >
                  {label}
                </li>
              ))}
              {rest.length > 0 && (
                <li
                  className="bg-ink/5 text-ink rounded-full px-2 py-0.5 text-xs"
                  title={rest.join(", ")}
                >
                  <span aria-hidden>{t("staff.inbox.more", { count: rest.length })}</span>
                  <span className="sr-only">
                    {t("staff.inbox.moreList", { list: rest.join(", ") })}
                  </span>
                </li>
              )}
            </ul>
          </td>
        );
      }
      case "status": {
        const tone = TONE_CLASSES[STATUS_TONES[row.status]];
        return (
          // Wide enough for the longest status name, so the sticky Actions column never covers it.
          <td key={column} className={cn(TD, "min-w-40")}>
            <div className="flex items-center gap-2">
              <span aria-hidden className={cn("size-2.5 shrink-0 rounded-full", tone.dot)} />
              <StatusSelect
                kind={row.kind}
                status={row.status}
                name={row.name}
                onPick={(status) => onPickStatus(row, status)}
              />
            </div>
          </td>
        );
      }
      case "submitted":
        return (
          <td key={column} className={cn(TD, "whitespace-nowrap tabular-nums")}>
            {formatDay(row.createdAt, locale)}
          </td>
        );
      case "actions":
        return (
          <td key={column} className={cn(TD, STICKY)}>
            <Button
              type="button"
              size="sm"
              variant="outline"
              className="whitespace-nowrap"
              onClick={() => onView(row)}
            >
              {t("staff.inbox.viewDetails")}
              <span className="sr-only"> {row.reference}</span>
            </Button>
          </td>
        );
    }
  };

  return (
    <div
      role="region"
      aria-labelledby={captionId}
      tabIndex={0}
      className="border-gold/30 bg-paper focus-visible:outline-gold relative overflow-x-auto rounded-sm border focus-visible:outline-2"
    >
      <table
        aria-busy={busy || undefined}
        className={cn("w-full border-collapse text-sm transition-opacity", busy && "opacity-60")}
        data-testid="inbox-table"
      >
        <caption id={captionId} className="text-muted px-3 pt-3 pb-1 text-left text-sm">
          {caption}
        </caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={cn(TH, column === "actions" && STICKY)}>
                {heading[column]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-reference={row.reference} className="hover:bg-ivory/60">
              {columns.map((column) => cell(row, column))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
