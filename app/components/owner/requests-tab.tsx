import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { nightsBetween } from "#domain/calendar/nights.ts";
import { moneyIn } from "../offers/offer-price.tsx";
import { StatementSection } from "./statement-section.tsx";
import {
  giveOwnerViewOperation,
  listOwnerRequestsOperation,
  type OwnerRequestAnswer,
} from "#domain/owners/owner-requests.contract.ts";
import { OWNER_VIEW_NOTE_MAX_LENGTH } from "#domain/owners/owner-requests.schema.ts";
import { STATUS_KEYS } from "#domain/requests/options.ts";
import { callApi } from "#app/api-client.ts";
import { formatDay, formatMoment } from "../staff/format.ts";
import { STATUS_TONES, TONE_CLASSES } from "../status-tones.ts";
import { Alert, AlertTitle } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";
import { TextAreaField } from "../ui/field.tsx";
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "../ui/table.tsx";

type Loaded =
  | { key: string; ok: true; requests: OwnerRequestAnswer[] }
  | { key: string; ok: false; message: string | null };

const NIGHTS_CLASSES = {
  free: "border-emerald-700/40 bg-emerald-50 text-emerald-900",
  taken: "border-burgundy/40 bg-red-50 text-burgundy",
  held: "border-heritage/40 bg-ivory text-heritage",
} as const;

/**
 * The owner dashboard's Requests tab: the estate's property bookings and
 * the general requests staff assigned to it, with what an owner sees of each guest (decision
 * 0017) and whether the nights are free; on a pending one the owner agrees or declines, with a
 * note for staff. Read when the tab is first opened, like the Calendar tab.
 */
export function RequestsTab({
  propertyId,
  estateName,
  isActive,
}: {
  propertyId: number;
  estateName: string;
  isActive: boolean;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [version, setVersion] = useState(0);
  const [opened, setOpened] = useState(isActive);
  if (isActive && !opened) setOpened(true);
  const key = `${propertyId}|${language}|${version}`;

  useEffect(() => {
    if (!opened) return;
    const controller = new AbortController();
    void callApi(
      listOwnerRequestsOperation,
      { query: { propertyId } },
      { language, signal: controller.signal },
    ).then((answer) => {
      if (controller.signal.aborted) return;
      setLoaded(
        answer.ok
          ? { key, ok: true, requests: answer.data.requests }
          : { key, ok: false, message: answer.message },
      );
    });
    return () => controller.abort();
  }, [opened, key, propertyId, language]);

  const reload = () => setVersion((value) => value + 1);
  const isLoading = opened && loaded?.key !== key;
  const headingId = useId();
  const cell = (label: string) => ({ layout: "stack" as const, label });

  return (
    <section
      aria-labelledby={headingId}
      className="grid grid-cols-[minmax(0,1fr)] gap-6"
      data-testid="owner-requests"
    >
      <div className="max-w-3xl">
        <h2 id={headingId} className="font-display text-heritage text-2xl font-semibold">
          {t("owner.ownerRequests.heading")}
        </h2>
        <p className="text-ink mt-2">{t("owner.ownerRequests.intro", { estate: estateName })}</p>
        <p className="text-muted mt-2 text-sm">{t("owner.ownerRequests.privacy")}</p>
      </div>
      {!isLoading && loaded && !loaded.ok && (
        <Alert>
          <AlertTitle>{t("owner.ownerRequests.loadFailed")}</AlertTitle>
          {loaded.message && <p className="mt-1">{loaded.message}</p>}
          <Button type="button" variant="outline" size="sm" className="mt-3" onClick={reload}>
            {t("owner.ownerRequests.retry")}
          </Button>
        </Alert>
      )}
      {isLoading && !loaded?.ok && (
        <p className="text-muted" role="status">
          {t("owner.ownerRequests.loading")}
        </p>
      )}
      {loaded?.ok &&
        (loaded.requests.length === 0 ? (
          <p className="text-muted" data-testid="owner-requests-empty">
            {t("owner.ownerRequests.empty")}
          </p>
        ) : (
          <Table layout="stack" aria-busy={isLoading || undefined}>
            <TableCaption layout="stack">
              {t("owner.ownerRequests.caption", { estate: estateName })}
            </TableCaption>
            <TableHeader layout="stack">
              <TableRow layout="stack">
                <TableHead>{t("owner.ownerRequests.cols.reference")}</TableHead>
                <TableHead>{t("owner.ownerRequests.cols.dates")}</TableHead>
                <TableHead>{t("owner.ownerRequests.cols.guests")}</TableHead>
                <TableHead>{t("owner.ownerRequests.cols.guest")}</TableHead>
                <TableHead>{t("owner.ownerRequests.cols.status")}</TableHead>
                <TableHead>{t("owner.ownerRequests.cols.nights")}</TableHead>
                <TableHead>{t("owner.ownerRequests.cols.view")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody layout="stack">
              {loaded.requests.map((request) => (
                <TableRow
                  layout="stack"
                  key={request.id}
                  data-testid="owner-request"
                  data-reference={request.reference}
                >
                  <TableCell
                    as="th"
                    scope="row"
                    {...cell(t("owner.ownerRequests.cols.reference"))}
                    pinned
                    className="max-xl:col-span-2"
                  >
                    <span className="font-mono text-xs font-semibold">{request.reference}</span>
                    <span className="text-muted block text-xs font-normal">
                      {t(`owner.ownerRequests.kinds.${request.collection}`)}
                    </span>
                  </TableCell>
                  <TableCell
                    {...cell(t("owner.ownerRequests.cols.dates"))}
                    className="tabular-nums xl:whitespace-nowrap"
                  >
                    {request.stayStart && request.stayEnd ? (
                      <>
                        {formatDay(request.stayStart, language)} –{" "}
                        {formatDay(request.stayEnd, language)}
                        <span className="text-muted block text-xs">
                          {t("owner.ownerRequests.nightsCount", {
                            count: nightsBetween(request.stayStart, request.stayEnd),
                          })}
                        </span>
                      </>
                    ) : (
                      <span className="text-muted">{t("owner.ownerRequests.datesNone")}</span>
                    )}
                  </TableCell>
                  <TableCell
                    {...cell(t("owner.ownerRequests.cols.guests"))}
                    className="tabular-nums"
                  >
                    {request.guests ?? ""}
                  </TableCell>
                  <TableCell {...cell(t("owner.ownerRequests.cols.guest"))}>
                    <span className="font-medium">
                      {[request.firstName, request.lastName].filter(Boolean).join(" ")}
                    </span>
                    {request.country && (
                      <span className="text-muted block text-xs">{request.country}</span>
                    )}
                  </TableCell>
                  <TableCell {...cell(t("owner.ownerRequests.cols.status"))}>
                    <StatusPill status={request.status} />
                    {request.money && (
                      <span className="text-muted block text-xs" data-testid="owner-request-money">
                        {t("owner.ownerRequests.money", {
                          total: moneyIn(request.money.currency, language)(request.money.total),
                          paid: moneyIn(request.money.currency, language)(request.money.paid),
                        })}
                      </span>
                    )}
                  </TableCell>
                  <TableCell {...cell(t("owner.ownerRequests.cols.nights"))}>
                    <NightsPill nights={request.nights} />
                  </TableCell>
                  <TableCell
                    {...cell(t("owner.ownerRequests.cols.view"))}
                    className="max-xl:col-span-2 xl:min-w-72"
                  >
                    <OwnerViewCell request={request} propertyId={propertyId} onSaved={reload} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ))}
      <StatementSection propertyId={propertyId} />
    </section>
  );
}

function StatusPill({ status }: { status: OwnerRequestAnswer["status"] }) {
  const { t } = useTranslation();
  const tone = TONE_CLASSES[STATUS_TONES[status]];
  return (
    <span
      data-status={status}
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap",
        tone.badge,
      )}
    >
      <span aria-hidden className={cn("size-2 rounded-full", tone.dot)} />
      {t(`mail.statuses.${STATUS_KEYS[status]}`)}
    </span>
  );
}

function NightsPill({ nights }: { nights: OwnerRequestAnswer["nights"] }) {
  const { t } = useTranslation();
  if (nights === null) return <span className="text-muted">—</span>;
  return (
    <span
      data-nights={nights}
      title={nights === "taken" ? t("owner.ownerRequests.nightsTakenHint") : undefined}
      className={cn(
        "inline-flex rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap",
        NIGHTS_CLASSES[nights],
      )}
    >
      {t(`owner.ownerRequests.nights.${nights}`)}
    </span>
  );
}

/**
 * The owner's view of one request: the latest one given, and on a pending request the form to
 * give or change it (Agree or Decline, each a submit button of the same form, with the note).
 */
function OwnerViewCell({
  request,
  propertyId,
  onSaved,
}: {
  request: OwnerRequestAnswer;
  propertyId: number;
  onSaved: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const { view } = request;

  const send = async (agree: boolean) => {
    setBusy(true);
    setProblem(null);
    const answer = await callApi(
      giveOwnerViewOperation,
      {
        params: { collection: request.collection, id: request.id },
        query: { propertyId },
        body: { agree, ...(note.trim() ? { note } : {}) },
      },
      { language: i18n.language },
    );
    setBusy(false);
    if (!answer.ok) {
      setProblem(answer.message ?? t("owner.ownerRequests.view.failed"));
      return;
    }
    setSaved(true);
    setEditing(false);
    setNote("");
    onSaved();
  };

  return (
    <div className="grid gap-2" data-testid="owner-view">
      {view && (
        <p className="text-sm" data-testid="owner-view-given" data-agree={String(view.agree)}>
          <span className={cn("font-semibold", view.agree ? "text-emerald-900" : "text-burgundy")}>
            {view.agree
              ? t("owner.ownerRequests.view.agreed")
              : t("owner.ownerRequests.view.declined")}
          </span>{" "}
          <span className="text-muted">
            {t("owner.ownerRequests.view.givenOn", {
              when: formatMoment(view.givenAt, i18n.language),
            })}
          </span>
          {view.givenBy === "staff" && (
            <span className="text-muted block text-xs">
              {t("owner.ownerRequests.view.byStaff", { email: view.givenByEmail })}
            </span>
          )}
          {view.note && (
            <span className="text-ink mt-1 block break-words whitespace-pre-wrap">
              “{view.note}”
            </span>
          )}
        </p>
      )}
      {saved && !editing && (
        <p role="status" className="text-sm text-emerald-900">
          {t("owner.ownerRequests.view.saved")}
        </p>
      )}
      {!request.canGiveView ? (
        !view && <p className="text-muted text-sm">{t("owner.ownerRequests.view.closed")}</p>
      ) : view && !editing ? (
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="justify-self-start"
          onClick={() => {
            setSaved(false);
            setEditing(true);
          }}
        >
          {t("owner.ownerRequests.view.change")}
        </Button>
      ) : (
        <fieldset
          className="grid gap-2"
          aria-describedby={problem ? `${request.id}-problem` : undefined}
        >
          <legend className="sr-only">
            {t("owner.ownerRequests.view.legend", { reference: request.reference })}
          </legend>
          <TextAreaField
            label={t("owner.ownerRequests.view.noteLabel")}
            hint={t("owner.ownerRequests.view.noteHint")}
            value={note}
            onValueChange={setNote}
            rows={2}
            maxLength={OWNER_VIEW_NOTE_MAX_LENGTH}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="button" size="sm" disabled={busy} onClick={() => void send(true)}>
              {t("owner.ownerRequests.view.agree")}
            </Button>
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={busy}
              onClick={() => void send(false)}
            >
              {t("owner.ownerRequests.view.decline")}
            </Button>
          </div>
          {busy && (
            <p role="status" className="text-muted text-xs">
              {t("owner.ownerRequests.view.sending")}
            </p>
          )}
          {problem && (
            <p
              id={`${request.id}-problem`}
              role="alert"
              className="text-sm font-medium text-orange-800"
            >
              {problem}
            </p>
          )}
        </fieldset>
      )}
    </div>
  );
}
