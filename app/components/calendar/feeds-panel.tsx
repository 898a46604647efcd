import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Copy, RefreshCw, Trash2 } from "lucide-react";
import { LANGUAGE_TAGS, type Language } from "#i18n/config.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { formatMoment } from "../staff/format.ts";
import { Alert, AlertTitle } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { CONTROL_CLASS, Field } from "../ui/field.tsx";
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "../ui/table.tsx";
import {
  type CalendarFeedSettings,
  CalendarFeedSettingsSchema,
} from "#domain/calendar/feed-settings.schema.ts";
import type { CalendarFeed, FeedsPanelApi } from "./feeds-api.ts";

export interface FeedsPanelProps {
  /** The estate's secret export address. */
  icalUrl: string;
  /** The feeds the estate imports, as the list call answered them. */
  feeds: CalendarFeed[];
  /** The calls to make: `staffFeedsApi(estateId, …)` or `ownerFeedsApi(propertyId, …)`. */
  api: FeedsPanelApi;
  /** ICAL_SYNC_MINUTES, told in the help text. */
  syncMinutes?: number;
  /** After a change, e.g. to reload the page's calendar (imported nights changed). */
  onChanged?: () => void;
}

/**
 * The iCal part of an estate's calendar, for the staff's estate calendar and the owner's
 * Calendar tab alike: the export address (copy; rotate behind a confirmation, since the old
 * address stops working), the imported calendars with their last read and its problem, and a
 * form to add one. It holds what the calls answer, so a sync shows its outcome at once.
 */
export function FeedsPanel({ icalUrl, feeds, api, syncMinutes = 30, onChanged }: FeedsPanelProps) {
  const { t, i18n } = useTranslation();
  const locale = LANGUAGE_TAGS[i18n.language as Language] ?? i18n.language;
  const [exportUrl, setExportUrl] = useState(icalUrl);
  const [list, setList] = useState(feeds);
  // A reload of the page's data replaces what the panel holds (adjusted during render: no
  // effect, no flash of the old list).
  const [shown, setShown] = useState({ icalUrl, feeds });
  if (shown.icalUrl !== icalUrl || shown.feeds !== feeds) {
    setShown({ icalUrl, feeds });
    setExportUrl(icalUrl);
    setList(feeds);
  }

  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");
  const [rotateOpen, setRotateOpen] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [syncing, setSyncing] = useState<string | null>(null);
  const [saving, setSaving] = useState<string | null>(null);
  const [removing, setRemoving] = useState<CalendarFeed | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const [url, setUrl] = useState("");
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<string | null>(null);
  const exportInput = useRef<HTMLInputElement>(null);
  const urlInput = useRef<HTMLInputElement>(null);

  const failed = (message: string | null) =>
    toast({
      title: t("owner.calendarFeeds.imports.actionFailed"),
      description: message ?? undefined,
      variant: "destructive",
    });

  async function copy() {
    try {
      await navigator.clipboard.writeText(exportUrl);
      setCopyState("copied");
    } catch {
      // No clipboard (an insecure origin, a refused permission): the address is selected instead.
      exportInput.current?.select();
      setCopyState("failed");
    }
  }

  async function rotate() {
    setRotating(true);
    const result = await api.rotate();
    setRotating(false);
    if (!result.ok) return failed(result.message);
    setExportUrl(result.data.icalUrl);
    setCopyState("idle");
    setRotateOpen(false);
    toast({ title: t("owner.calendarFeeds.export.rotated") });
  }

  async function sync(feed: CalendarFeed) {
    setSyncing(feed.id);
    const result = await api.sync(feed.id);
    setSyncing(null);
    if (!result.ok) return failed(result.message);
    setList((current) => current.map((item) => (item.id === feed.id ? result.data : item)));
    toast({
      title: t(
        result.data.lastError
          ? "owner.calendarFeeds.imports.syncFailed"
          : "owner.calendarFeeds.imports.synced",
      ),
      ...(result.data.lastError ? { variant: "destructive" as const } : {}),
    });
    onChanged?.();
  }

  async function choose(feed: CalendarFeed, change: CalendarFeedSettings) {
    // The API checks the same schema; a refusal here would be a fault of the panel itself.
    const settings = CalendarFeedSettingsSchema.safeParse(change);
    if (!settings.success) return failed(null);
    setSaving(feed.id);
    const result = await api.update(feed.id, settings.data);
    setSaving(null);
    if (!result.ok) return failed(result.message);
    setList((current) => current.map((item) => (item.id === feed.id ? result.data : item)));
    toast({
      title: t(
        settings.data.timedEventsClose === undefined
          ? "owner.calendarFeeds.choices.saved"
          : "owner.calendarFeeds.choices.savedReread",
      ),
    });
  }

  async function remove() {
    if (!removing) return;
    setRemoveBusy(true);
    const result = await api.remove(removing.id);
    setRemoveBusy(false);
    if (!result.ok) return failed(result.message);
    setList((current) => current.filter((item) => item.id !== removing.id));
    setRemoving(null);
    toast({ title: t("owner.calendarFeeds.imports.removed") });
    onChanged?.();
  }

  async function add(event: React.FormEvent) {
    event.preventDefault();
    setAdding(true);
    setAddError(null);
    const result = await api.add(url);
    setAdding(false);
    if (!result.ok) {
      setAddError(
        result.errors.find((issue) => issue.path === "url")?.message ??
          result.message ??
          t("owner.calendarFeeds.imports.actionFailed"),
      );
      urlInput.current?.focus();
      return;
    }
    setList((current) => [...current, result.data]);
    setUrl("");
    toast({ title: t("owner.calendarFeeds.add.added") });
  }

  const statusOf = (feed: CalendarFeed) =>
    feed.lastError
      ? t(`owner.calendarFeeds.feedErrors.${feed.lastError.code}`)
      : feed.lastSuccessAt
        ? t("owner.calendarFeeds.imports.ok")
        : t("owner.calendarFeeds.imports.waiting");

  return (
    <section aria-labelledby="calendar-feeds-title" className="grid gap-8" data-slot="feeds-panel">
      <h2 id="calendar-feeds-title" className="font-display text-heritage text-2xl font-semibold">
        {t("owner.calendarFeeds.title")}
      </h2>

      <div className="grid gap-3">
        <h3 className="text-ink text-lg font-semibold">{t("owner.calendarFeeds.export.title")}</h3>
        <p className="text-muted text-sm">{t("owner.calendarFeeds.export.help")}</p>
        <Field label={t("owner.calendarFeeds.export.urlLabel")}>
          {(control) => (
            <input
              {...control}
              ref={exportInput}
              readOnly
              value={exportUrl}
              onFocus={(event) => event.currentTarget.select()}
              className={`${CONTROL_CLASS} font-mono`}
            />
          )}
        </Field>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
            <Copy aria-hidden className="size-4" />
            {t("owner.calendarFeeds.export.copy")}
          </Button>
          <Button
            type="button"
            variant="destructiveGhost"
            size="sm"
            onClick={() => setRotateOpen(true)}
          >
            <RefreshCw aria-hidden className="size-4" />
            {t("owner.calendarFeeds.export.rotate")}
          </Button>
          <p role="status" className="text-muted text-sm">
            {copyState === "copied"
              ? t("owner.calendarFeeds.export.copied")
              : copyState === "failed"
                ? t("owner.calendarFeeds.export.copyFailed")
                : ""}
          </p>
        </div>
      </div>

      <div className="grid gap-3">
        <h3 className="text-ink text-lg font-semibold">{t("owner.calendarFeeds.imports.title")}</h3>
        <p className="text-muted text-sm">
          {t("owner.calendarFeeds.imports.help", { count: syncMinutes })}
        </p>
        {list.length === 0 ? (
          <p className="text-muted text-sm italic">{t("owner.calendarFeeds.imports.empty")}</p>
        ) : (
          <Table layout="stack">
            <TableCaption layout="stack" className="sr-only">
              {t("owner.calendarFeeds.imports.caption")}
            </TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead>{t("owner.calendarFeeds.imports.url")}</TableHead>
                <TableHead>{t("owner.calendarFeeds.imports.lastSuccess")}</TableHead>
                <TableHead>{t("owner.calendarFeeds.imports.status")}</TableHead>
                <TableHead>{t("owner.calendarFeeds.imports.events")}</TableHead>
                <TableHead>{t("owner.calendarFeeds.choices.title")}</TableHead>
                <TableHead>{t("owner.calendarFeeds.imports.actions")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.map((feed) => (
                <TableRow key={feed.id}>
                  <TableCell label={t("owner.calendarFeeds.imports.url")}>
                    <span className="font-mono text-xs break-all">{feed.url}</span>
                  </TableCell>
                  <TableCell label={t("owner.calendarFeeds.imports.lastSuccess")}>
                    {feed.lastSuccessAt
                      ? formatMoment(feed.lastSuccessAt, locale)
                      : feed.lastAttemptAt
                        ? t("owner.calendarFeeds.imports.tried", {
                            time: formatMoment(feed.lastAttemptAt, locale),
                          })
                        : t("owner.calendarFeeds.imports.never")}
                  </TableCell>
                  <TableCell label={t("owner.calendarFeeds.imports.status")}>
                    {feed.lastError ? (
                      <Alert variant="warning" role="note" className="py-1.5">
                        <AlertTitle className="font-medium">{statusOf(feed)}</AlertTitle>
                        {feed.lastAttemptAt && (
                          <p className="text-xs">
                            {t("owner.calendarFeeds.imports.tried", {
                              time: formatMoment(feed.lastAttemptAt, locale),
                            })}
                          </p>
                        )}
                        <p className="font-mono text-xs break-words" lang="en">
                          {feed.lastError.detail}
                        </p>
                      </Alert>
                    ) : (
                      statusOf(feed)
                    )}
                    {feed.skippedCount > 0 && <SkippedEvents feed={feed} />}
                  </TableCell>
                  <TableCell label={t("owner.calendarFeeds.imports.events")}>
                    <p>{feed.eventCount}</p>
                    {feed.lastSuccessAt && (
                      <p className="text-muted text-xs">
                        {t("owner.calendarFeeds.imports.nightsClosed", {
                          count: feed.nightsClosed,
                        })}
                        {feed.timedNightsClosed > 0 &&
                          ` ${t("owner.calendarFeeds.imports.timedNightsClosed", {
                            count: feed.timedNightsClosed,
                          })}`}
                      </p>
                    )}
                  </TableCell>
                  <TableCell label={t("owner.calendarFeeds.choices.title")}>
                    <div className="grid gap-2">
                      <FeedChoice
                        id={`feed-${feed.id}-timed`}
                        checked={feed.timedEventsClose}
                        disabled={saving !== null}
                        onChange={(checked) => void choose(feed, { timedEventsClose: checked })}
                        label={t("owner.calendarFeeds.choices.timedEventsClose")}
                        hint={t("owner.calendarFeeds.choices.timedEventsCloseHint")}
                      />
                      <FeedChoice
                        id={`feed-${feed.id}-pass-on`}
                        checked={feed.passOn}
                        disabled={saving !== null}
                        onChange={(checked) => void choose(feed, { passOn: checked })}
                        label={t("owner.calendarFeeds.choices.passOn")}
                        hint={t("owner.calendarFeeds.choices.passOnHint")}
                      />
                    </div>
                  </TableCell>
                  <TableCell label={t("owner.calendarFeeds.imports.actions")} pinned>
                    <div className="flex flex-wrap gap-2">
                      <Button
                        type="button"
                        variant="outline"
                        size="sm"
                        disabled={syncing !== null}
                        onClick={() => void sync(feed)}
                        aria-label={`${t("owner.calendarFeeds.imports.syncNow")}: ${feed.url}`}
                      >
                        <RefreshCw aria-hidden className="size-4" />
                        {syncing === feed.id
                          ? t("owner.calendarFeeds.imports.syncing")
                          : t("owner.calendarFeeds.imports.syncNow")}
                      </Button>
                      <Button
                        type="button"
                        variant="destructiveGhost"
                        size="sm"
                        onClick={() => setRemoving(feed)}
                        aria-label={`${t("owner.calendarFeeds.imports.remove")}: ${feed.url}`}
                      >
                        <Trash2 aria-hidden className="size-4" />
                        {t("owner.calendarFeeds.imports.remove")}
                      </Button>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}

        <form
          method="post"
          onSubmit={(event) => void add(event)}
          noValidate
          className="grid gap-3 sm:max-w-xl"
        >
          <Field
            label={t("owner.calendarFeeds.add.label")}
            hint={t("owner.calendarFeeds.add.hint")}
            error={addError}
          >
            {(control) => (
              <input
                {...control}
                ref={urlInput}
                type="url"
                inputMode="url"
                autoComplete="off"
                required
                maxLength={2048}
                value={url}
                onChange={(event) => setUrl(event.target.value)}
                className={CONTROL_CLASS}
              />
            )}
          </Field>
          <div>
            <Button type="submit" size="sm" disabled={adding}>
              {adding ? t("owner.calendarFeeds.add.adding") : t("owner.calendarFeeds.add.submit")}
            </Button>
          </div>
        </form>
      </div>

      <ConfirmDialog
        open={rotateOpen}
        onOpenChange={setRotateOpen}
        title={t("owner.calendarFeeds.export.rotateTitle")}
        description={t("owner.calendarFeeds.export.rotateBody")}
        cancelLabel={t("owner.common.cancel")}
        confirmLabel={t("owner.calendarFeeds.export.rotateConfirm")}
        busy={rotating}
        onConfirm={() => void rotate()}
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title={t("owner.calendarFeeds.imports.removeTitle")}
        description={t("owner.calendarFeeds.imports.removeBody")}
        cancelLabel={t("owner.common.cancel")}
        confirmLabel={t("owner.calendarFeeds.imports.removeConfirm")}
        busy={removeBusy}
        onConfirm={() => void remove()}
      >
        {removing && <p className="font-mono text-xs break-all">{removing.url}</p>}
      </ConfirmDialog>
    </section>
  );
}

/** One of a feed's choices: a checkbox saved as soon as it changes. */
function FeedChoice({
  id,
  checked,
  disabled,
  onChange,
  label,
  hint,
}: {
  id: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  hint: string;
}) {
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        className="accent-heritage mt-0.5 size-4 shrink-0"
      />
      <label htmlFor={id} className="text-ink text-sm">
        {label}
        <span className="text-muted block text-xs">{hint}</span>
      </label>
    </div>
  );
}

/**
 * The events a feed's last read left out while it read the others: each named as staff can
 * find it in the other site (line, UID, summary) with why, in the reader's language.
 */
function SkippedEvents({ feed }: { feed: CalendarFeed }) {
  const { t } = useTranslation();
  const unlisted = feed.skippedCount - feed.skippedEvents.length;
  return (
    <Alert variant="warning" role="note" className="mt-2 py-1.5">
      <AlertTitle className="font-medium">
        {t("owner.calendarFeeds.skipped.title", { count: feed.skippedCount })}
      </AlertTitle>
      <ul className="grid gap-1 text-xs">
        {feed.skippedEvents.map((event) => (
          <li key={`${event.line}-${event.uid ?? ""}`}>
            <span>{t("owner.calendarFeeds.skipped.line", { line: event.line })}</span>
            {event.summary && (
              <>
                {" · "}
                <q className="break-words">{event.summary}</q>
              </>
            )}
            {event.uid && (
              <>
                {" · "}
                <span className="font-mono break-all">{event.uid}</span>
              </>
            )}
            {": "}
            {t(`owner.calendarFeeds.skipped.reasons.${event.reason}`)}
          </li>
        ))}
      </ul>
      {unlisted > 0 && (
        <p className="text-xs">{t("owner.calendarFeeds.skipped.more", { count: unlisted })}</p>
      )}
    </Alert>
  );
}
