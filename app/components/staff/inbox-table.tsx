import { MessageCircle } from "lucide-react";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import type { RequestKind, RequestStatus } from "#domain/requests/options.ts";
import { Link } from "react-router";
import { buttonVariants } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "../ui/table.tsx";
import { formatDay } from "./format.ts";
import { DueLine } from "./due-line.tsx";
import { MoneyLine } from "./money-line.tsx";
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

/** The inbox's columns, adapted to what each kind of request has. */
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

/** Cells that wrap: a long email or name wraps inside its column instead of widening the table. */
const WRAP = "[overflow-wrap:anywhere]";

/** An email with line-break opportunities after the `@` and before each dot. */
function breakableEmail(email: string): React.ReactNode {
  return email.split(/(?=\.)|(?<=@)/).map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

/**
 * The inbox table. From 1280 px every column is readable side by side (long values wrap); below
 * that each request is a card with its reference, status and 'View Details' first. Every status
 * dropdown is named after its guest.
 */
export function InboxTable({
  kind,
  rows,
  caption,
  busy,
  onPickStatus,
  detailsHref,
}: {
  kind: RequestKind;
  rows: readonly InboxRow[];
  caption: string;
  busy: boolean;
  onPickStatus: (row: InboxRow, status: RequestStatus) => void;
  /** The nested route of the row's details (the inbox's filters kept in its search). */
  detailsHref: (row: InboxRow) => string;
}) {
  const { t, i18n } = useTranslation();
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

  const cellProps = (column: Column) => ({ layout: "stack" as const, label: heading[column] });

  const cell = (row: InboxRow, column: Column) => {
    switch (column) {
      case "id":
        return (
          <TableCell
            as="th"
            key={column}
            scope="row"
            {...cellProps(column)}
            pinned
            className="font-mono text-xs font-semibold whitespace-nowrap max-xl:col-span-2"
          >
            {row.reference}
            {row.unreadMessages > 0 && (
              <span
                className="bg-burgundy mt-1 flex w-fit items-center gap-1 rounded-full px-2 py-0.5 font-sans text-[0.7rem] font-semibold text-white"
                data-testid="unread-messages"
                title={t("staff.conversation.unread", { count: row.unreadMessages })}
              >
                <MessageCircle aria-hidden className="size-3" />
                {row.unreadMessages}
                <span className="sr-only">
                  {" "}
                  {t("staff.conversation.unread", { count: row.unreadMessages })}
                </span>
              </span>
            )}
            {row.ownerAgrees !== null && (
              <span
                data-testid="owner-view-marker"
                data-agree={String(row.ownerAgrees)}
                title={
                  row.ownerAgrees
                    ? t("staff.ownerView.markerLong")
                    : t("staff.ownerView.markerLongDecline")
                }
                className={cn(
                  "mt-1 block w-max rounded-full border px-2 py-0.5 font-sans text-xs font-medium",
                  row.ownerAgrees
                    ? "border-emerald-700/40 bg-emerald-50 text-emerald-900"
                    : "border-burgundy/40 text-burgundy bg-red-50",
                )}
              >
                {row.ownerAgrees ? t("staff.ownerView.agrees") : t("staff.ownerView.declines")}
              </span>
            )}
          </TableCell>
        );
      case "guest":
        return (
          <TableCell key={column} {...cellProps(column)} className="break-words xl:min-w-28">
            {row.erased ? (
              <span className="text-muted italic" data-testid="guest-erased">
                {t("staff.inbox.erased")}
              </span>
            ) : (
              <span className="font-medium">{row.name}</span>
            )}
            {row.country && <span className="text-muted block text-xs">{row.country}</span>}
          </TableCell>
        );
      case "email":
        return (
          <TableCell key={column} {...cellProps(column)} className={cn(WRAP, "max-sm:col-span-2")}>
            {row.email && (
              <a
                href={`mailto:${row.email}`}
                // At most this wide, so one long address cannot squeeze the other columns.
                className="text-heritage block underline-offset-2 hover:underline xl:max-w-60"
              >
                {breakableEmail(row.email)}
              </a>
            )}
            {row.phone && (
              <span className="text-muted block text-xs whitespace-nowrap">{row.phone}</span>
            )}
          </TableCell>
        );
      case "memberStatus":
        return (
          <TableCell key={column} {...cellProps(column)} className="xl:whitespace-nowrap">
            {row.memberStatus ? t(`forms.options.memberStatus.${row.memberStatus}`) : ""}
          </TableCell>
        );
      case "property":
        return (
          <TableCell key={column} {...cellProps(column)} className={cn(WRAP, "xl:min-w-32")}>
            {row.propertyName ?? (row.propertyId ? `#${row.propertyId}` : "")}
          </TableCell>
        );
      case "checkIn":
      case "checkOut": {
        const value = column === "checkIn" ? row.checkIn : row.checkOut;
        return (
          <TableCell key={column} {...cellProps(column)} className="whitespace-nowrap tabular-nums">
            {formatDay(value, locale)}
          </TableCell>
        );
      }
      case "guests":
        return (
          <TableCell key={column} {...cellProps(column)} className="whitespace-nowrap tabular-nums">
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
          </TableCell>
        );
      case "tags": {
        const labels = tagGroup ? row.tags.map((tag) => t(`${tagGroup}.${tag}`)) : [];
        const rest = labels.slice(TAGS_SHOWN);
        return (
          <TableCell key={column} {...cellProps(column)} className="xl:max-w-36 xl:min-w-28">
            <ul className="flex flex-wrap gap-1">
              {labels.slice(0, TAGS_SHOWN).map((label) => (
                <li
                  key={label}
                  title={label}
                  className="border-gold/50 bg-ivory max-w-full rounded-full border px-2 py-0.5 text-xs"
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
          </TableCell>
        );
      }
      case "status": {
        const tone = TONE_CLASSES[STATUS_TONES[row.status]];
        return (
          <TableCell key={column} {...cellProps(column)} pinned>
            <div className="flex items-center gap-2">
              <span aria-hidden className={cn("size-2.5 shrink-0 rounded-full", tone.dot)} />
              <StatusSelect
                kind={row.kind}
                status={row.status}
                name={row.name}
                onPick={(status) => onPickStatus(row, status)}
              />
            </div>
            <MoneyLine money={row.money} locale={locale} />
          </TableCell>
        );
      }
      case "submitted":
        return (
          <TableCell key={column} {...cellProps(column)} className="tabular-nums">
            <span className="whitespace-nowrap">{formatDay(row.createdAt, locale)}</span>
            <DueLine row={row} locale={locale} />
          </TableCell>
        );
      case "actions":
        return (
          <TableCell key={column} {...cellProps(column)} pinned className="max-xl:self-end">
            <Link
              to={detailsHref(row)}
              preventScrollReset
              className={buttonVariants({
                size: "sm",
                variant: "outline",
                className: "whitespace-nowrap",
              })}
              data-testid="view-details"
            >
              {t("staff.inbox.viewDetails")}
              <span className="sr-only"> {row.reference}</span>
            </Link>
          </TableCell>
        );
    }
  };

  return (
    <Table
      layout="stack"
      aria-busy={busy || undefined}
      // No fade back: a half-faded table fails contrast checks (and readers) for 150 ms.
      className={cn(busy && "opacity-60")}
      data-testid="inbox-table"
    >
      <TableCaption layout="stack">{caption}</TableCaption>
      <TableHeader layout="stack">
        <tr>
          {columns.map((column) => (
            <TableHead key={column} scope="col">
              {heading[column]}
            </TableHead>
          ))}
        </tr>
      </TableHeader>
      <TableBody layout="stack">
        {rows.map((row) => (
          <TableRow layout="stack" key={row.id} data-reference={row.reference}>
            {columns.map((column) => cell(row, column))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
