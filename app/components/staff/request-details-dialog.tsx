import { useCallback, useId, useState } from "react";
import { useRevalidator } from "react-router";
import { useTranslation } from "react-i18next";
import type { RequestKind, RequestStatus } from "#domain/requests/options.ts";
import { summarizeRequest, type SummaryRow } from "#domain/requests/summary.ts";
import type { RequestDetail } from "#domain/staff/inbox.ts";
import { LANGUAGE_NAMES, isLanguage } from "#i18n/config.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { Alert, AlertTitle } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";
import { TextAreaField } from "../ui/field.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "../ui/dialog.tsx";
import { formatMoment } from "./format.ts";
import { StatusBadge } from "./status-badge.tsx";
import { type StatusChange, StatusChangeDialog } from "./status-change-dialog.tsx";
import { StatusSelect } from "./status-select.tsx";
import { StayPanel, useNightsText } from "./stay-panel.tsx";
import { DuePanel } from "./due-panel.tsx";
import { OfferPanel } from "./offer-panel.tsx";
import { COLLECTION_OPERATIONS } from "#domain/staff/inbox.contract.ts";
import { callApi } from "#app/api-client.ts";
import { NOTE_MAX_LENGTH } from "#domain/staff/inbox-limits.ts";
import { useReturnFocus } from "../ui/use-return-focus.ts";
import { ConversationPanel } from "./conversation-panel.tsx";
import { EstateNamesContext, useEstateName } from "./estate-names.tsx";

type Section = "personal" | "booking" | "preferences" | "additional";
const SECTIONS: readonly Section[] = ["personal", "booking", "preferences", "additional"];

/**
 * The details' cards, per kind: which summary field goes on which card, by the row's
 * `key` (`summarizeRequest`); any other goes to the last.
 */
const SECTION_FIELDS: Record<RequestKind, Partial<Record<Section, readonly string[]>>> = {
  booking_request: {
    personal: ["name", "email", "phoneNumber", "countryOfResidence", "memberStatus"],
    booking: [
      "bookingType",
      "checkInDate",
      "checkOutDate",
      "flexibleDates",
      "estimatedGuests",
      "adults",
      "children",
      "bedroomsRequired",
    ],
    preferences: [
      "preferredRegion",
      "preferredAmenities",
      "requestedServices",
      "experienceStyle",
      "privacyPriority",
      "fullExclusivityNeeded",
    ],
  },
  property_booking: {
    personal: ["name", "email", "phone"],
    booking: ["property", "startDate", "endDate", "flexibilityDays", "numberOfGuests"],
    preferences: ["castellumStatus", "paymentMethod"],
  },
  membership: {
    personal: ["name", "gender", "email"],
    preferences: ["interests"],
    additional: [
      "otherClubMemberships",
      "linkedinProfile",
      "instagramHandle",
      "xHandle",
      "reasonToJoin",
    ],
  },
};

/**
 * 'View Details': the request's cards, its status dropdown, the history of its
 * status and the staff's internal notes. The request comes from the details route's loader
 * (routes/admin/request-details.tsx); a change here reloads it and the inbox behind.
 */
export function RequestDetailsDialog({
  detail,
  estateNames,
  onClose,
}: {
  detail: RequestDetail;
  /** The estates the request names, in the staff's language (the guest's wording is theirs). */
  estateNames: Record<number, string>;
  /** Closing goes back to the inbox (a navigation). */
  onClose: () => void;
}) {
  return (
    <DetailsFrame onClose={onClose} className="max-w-5xl">
      <EstateNamesContext value={estateNames}>
        <DetailsBody key={detail.id} detail={detail} />
      </EstateNamesContext>
    </DetailsFrame>
  );
}

/** The dialog over the inbox, whatever it shows: closing goes back, focus returns. */
function DetailsFrame({
  onClose,
  className,
  children,
}: {
  onClose: () => void;
  className: string;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const returnFocus = useReturnFocus();
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        {...returnFocus}
        closeLabel={t("staff.details.close")}
        className={className}
        data-testid="request-details"
      >
        {children}
      </DialogContent>
    </Dialog>
  );
}

/** The dialog when the request could not be read: what happened, and the way back. */
export function RequestDetailsFailed({
  message,
  onClose,
}: {
  message: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <DetailsFrame onClose={onClose} className="max-w-lg">
      <DialogTitle className="font-display text-heritage pr-10 text-3xl font-semibold">
        {t("staff.details.heading")}
      </DialogTitle>
      <DialogDescription className="sr-only">{message}</DialogDescription>
      <Alert className="mt-5">
        <AlertTitle>{message}</AlertTitle>
      </Alert>
    </DetailsFrame>
  );
}

function DetailsBody({ detail }: { detail: RequestDetail }) {
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const [change, setChange] = useState<StatusChange | null>(null);
  const locale = i18n.language;
  const name = `${detail.firstName} ${detail.lastName}`.trim();
  const reload = () => void revalidator.revalidate();

  return (
    <div className="grid gap-6">
      <header className="pr-10">
        <DialogTitle className="font-display text-heritage text-3xl font-semibold">
          {t("staff.details.title", { reference: detail.reference })}
        </DialogTitle>
        <DialogDescription className="text-muted mt-1 text-sm">
          {t("staff.details.description", {
            kind: t(`staff.kinds.${detail.kind}`),
            name,
            date: formatMoment(detail.createdAt, locale),
          })}
        </DialogDescription>
      </header>
      <StatusPanel
        detail={detail}
        name={name}
        onPick={(to) =>
          setChange({
            target: {
              kind: detail.kind,
              id: detail.id,
              reference: detail.reference,
              name,
              status: detail.status,
              version: detail.version,
              collisions: detail.collisions,
              importedBusy: detail.importedBusy,
            },
            to,
          })
        }
      />
      <OwnerViewPanel detail={detail} />
      <SummaryCards detail={detail} />
      <StayPanel detail={detail} onChanged={reload} />
      <OfferPanel detail={detail} onChanged={reload} />
      <DuePanel detail={detail} onChanged={reload} />
      <ConversationPanel detail={detail} />
      <div className="grid gap-6 lg:grid-cols-2">
        <History detail={detail} />
        <Notes detail={detail} onAdded={reload} />
      </div>
      <StatusChangeDialog change={change} onClose={() => setChange(null)} onSettled={reload} />
    </div>
  );
}

function StatusPanel({
  detail,
  name,
  onPick,
}: {
  detail: RequestDetail;
  name: string;
  onPick: (status: RequestStatus) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = isLanguage(detail.language) ? LANGUAGE_NAMES[detail.language] : detail.language;
  return (
    <dl className="border-gold/30 bg-paper grid gap-4 rounded-sm border p-5 sm:grid-cols-2 lg:grid-cols-4">
      <div>
        <dt className="text-muted text-xs font-semibold tracking-wide uppercase">
          {t("staff.details.status")}
        </dt>
        <dd className="mt-1.5 grid gap-2">
          <StatusBadge status={detail.status} className="justify-self-start" />
          <StatusSelect kind={detail.kind} status={detail.status} name={name} onPick={onPick} />
        </dd>
      </div>
      <div>
        <dt className="text-muted text-xs font-semibold tracking-wide uppercase">
          {t("staff.details.reference")}
        </dt>
        <dd className="mt-1.5 font-mono text-sm">{detail.reference}</dd>
      </div>
      <div>
        <dt className="text-muted text-xs font-semibold tracking-wide uppercase">
          {t("staff.details.submitted")}
        </dt>
        <dd className="mt-1.5 text-sm">{formatMoment(detail.createdAt, i18n.language)}</dd>
      </div>
      <div>
        <dt className="text-muted text-xs font-semibold tracking-wide uppercase">
          {t("staff.details.language")}
        </dt>
        <dd className="mt-1.5 text-sm">{language}</dd>
      </div>
    </dl>
  );
}

function SummaryCards({ detail }: { detail: RequestDetail }) {
  const estateName = useEstateName();
  const { t, i18n } = useTranslation();
  // The stored form names the estate as the guest read it; staff read it in their language.
  const rows = summarizeRequest(detail.kind, detail.details, i18n.language, (key, params) =>
    t(key, params ?? {}),
  ).map((row) =>
    row.key === "property" && detail.propertyId !== null
      ? { ...row, value: estateName(detail.propertyId) }
      : row,
  );
  const fields = SECTION_FIELDS[detail.kind];
  const sectionOfField = new Map<string, Section>();
  for (const section of SECTIONS)
    for (const field of fields[section] ?? []) sectionOfField.set(field, section);
  const bySection = new Map<Section, SummaryRow[]>();
  for (const row of rows) {
    const section = sectionOfField.get(row.key) ?? "additional";
    bySection.set(section, [...(bySection.get(section) ?? []), row]);
  }
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {SECTIONS.filter((section) => bySection.has(section)).map((section) => (
        <SummaryCard
          key={section}
          title={t(`staff.details.sections.${section}`)}
          rows={bySection.get(section) ?? []}
        />
      ))}
    </div>
  );
}

function SummaryCard({ title, rows }: { title: string; rows: SummaryRow[] }) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="border-gold/30 bg-paper shadow-card rounded-sm border p-5"
    >
      <h3 id={id} className="font-display text-heritage text-xl font-semibold">
        {title}
      </h3>
      <dl className="mt-3 grid gap-x-4 gap-y-2 sm:grid-cols-[minmax(0,11rem)_1fr]">
        {rows.map((row) => (
          <div key={row.key} className="contents" data-field={row.key}>
            <dt className="text-muted text-sm">{row.label}</dt>
            <dd className="text-ink text-sm break-words whitespace-pre-wrap">{row.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function History({ detail }: { detail: RequestDetail }) {
  const { t, i18n } = useTranslation();
  const estateName = useEstateName();
  const nightsText = useNightsText();
  const id = useId();
  return (
    <section aria-labelledby={id} className="border-gold/30 bg-paper rounded-sm border p-5">
      <h3 id={id} className="font-display text-heritage text-xl font-semibold">
        {t("staff.details.history")}
      </h3>
      {detail.history.length === 0 ? (
        <p className="text-muted mt-3 text-sm">{t("staff.details.noHistory")}</p>
      ) : (
        <ol className="mt-3 grid gap-3" data-testid="status-history">
          {timelineOf(detail).map(({ entry, view }, index) =>
            view ? (
              <OwnerViewEntry key={`view-${index}`} view={view} />
            ) : (
              <li key={index} className="border-ink/10 border-l-2 pl-3 text-sm">
                <p className="flex flex-wrap items-center gap-2">
                  {entry.event !== "status" ? null : entry.fromStatus ? (
                    <>
                      <StatusBadge status={entry.fromStatus} />
                      <span aria-hidden className="text-muted">
                        →
                      </span>
                      <span className="sr-only">{t("staff.details.to")}</span>
                    </>
                  ) : (
                    <span className="text-muted">{t("staff.details.received")}</span>
                  )}
                  {entry.event === "status" && <StatusBadge status={entry.toStatus} />}
                </p>
                {entry.event === "due" && entry.dueAt && (
                  <p className="text-ink mt-1">
                    {t("staff.lifecycle.extend.history", {
                      time: formatMoment(entry.dueAt, i18n.language),
                    })}
                  </p>
                )}
                {entry.stay && (
                  <p className="text-ink mt-1">
                    {t("staff.stay.historyEntry", {
                      estate: estateName(entry.stay.propertyId),
                      nights: nightsText(entry.stay.start, entry.stay.end),
                    })}
                  </p>
                )}
                <p className="text-muted mt-1">
                  {t("staff.details.changedBy", {
                    // The first entry is the guest's own submission (domain/requests/intake).
                    // ...and "system" the lifecycle job closing it at its due time.
                    who:
                      entry.changedBy === "guest"
                        ? t("staff.details.theGuest")
                        : entry.changedBy === "system"
                          ? t("staff.lifecycle.systemActor")
                          : entry.changedBy,
                    when: formatMoment(entry.changedAt, i18n.language),
                  })}
                </p>
                {entry.reason && (
                  <p className="text-ink mt-1 break-words whitespace-pre-wrap">
                    <span className="font-medium">{t("staff.details.reason")}: </span>
                    {entry.reason}{" "}
                    <span className="text-muted">
                      (
                      {entry.reasonShared
                        ? t("staff.details.reasonShared")
                        : t("staff.details.reasonInternal")}
                      )
                    </span>
                  </p>
                )}
              </li>
            ),
          )}
        </ol>
      )}
    </section>
  );
}

function Notes({ detail, onAdded }: { detail: RequestDetail; onAdded: () => void }) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = useCallback(
    async (event: React.FormEvent) => {
      event.preventDefault();
      if (saving) return;
      if (!body.trim()) {
        setError(t("staff.validation.noteRequired"));
        return;
      }
      setSaving(true);
      const answer = await callApi(
        COLLECTION_OPERATIONS[detail.kind].addNote,
        { params: { id: detail.id }, body: { body } },
        { language: i18n.language },
      );
      setSaving(false);
      if (answer.ok) {
        setBody("");
        setError(null);
        onAdded();
        toast({ title: t("staff.details.noteAdded") });
        return;
      }
      setError(
        answer.errors.find((issue) => issue.path === "body")?.message ??
          answer.message ??
          t("staff.details.noteFailed"),
      );
    },
    [body, detail.id, detail.kind, i18n.language, onAdded, saving, t],
  );

  return (
    <section aria-labelledby={headingId} className="border-gold/30 bg-paper rounded-sm border p-5">
      <h3 id={headingId} className="font-display text-heritage text-xl font-semibold">
        {t("staff.details.notes")}
      </h3>
      {detail.notes.length === 0 ? (
        <p className="text-muted mt-3 text-sm">{t("staff.details.noNotes")}</p>
      ) : (
        <ul className="mt-3 grid gap-3" data-testid="notes">
          {detail.notes.map((note) => (
            <li key={note.id} className="border-ink/10 border-l-2 pl-3 text-sm">
              <p className="text-ink break-words whitespace-pre-wrap">{note.body}</p>
              <p className="text-muted mt-1">
                {t("staff.details.noteBy", {
                  who: note.authorName,
                  when: formatMoment(note.createdAt, i18n.language),
                })}
              </p>
            </li>
          ))}
        </ul>
      )}
      <form method="post" onSubmit={submit} noValidate className="mt-4 grid gap-3">
        <TextAreaField
          label={t("staff.details.noteLabel")}
          hint={t("staff.details.noteHint")}
          error={error && <span role="alert">{error}</span>}
          value={body}
          onValueChange={(text) => {
            setBody(text);
            if (error) setError(null);
          }}
          rows={3}
          maxLength={NOTE_MAX_LENGTH}
        />
        <Button
          type="submit"
          size="sm"
          variant="outline"
          className="justify-self-start"
          disabled={saving}
        >
          {saving ? t("staff.details.savingNote") : t("staff.details.saveNote")}
        </Button>
      </form>
    </section>
  );
}

type OwnerView = RequestDetail["ownerViews"][number];

/** The history with the owner's views placed among the changes by their time. */
function timelineOf(
  detail: RequestDetail,
): (
  | { entry: RequestDetail["history"][number]; view?: undefined }
  | { entry?: undefined; view: OwnerView }
)[] {
  const items = [
    ...detail.history.map((entry) => ({ at: entry.changedAt, entry })),
    ...detail.ownerViews.map((view) => ({ at: view.givenAt, view })),
  ];
  // Stable: a view given in the same instant as a change stays after it.
  return items
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
    .map(({ at: _at, ...item }) => item);
}

/** Who gave a view, and when: the owner's email, or the admin who recorded it for them. */
function useViewAuthor() {
  const { t, i18n } = useTranslation();
  return (view: OwnerView) =>
    t(view.givenBy === "staff" ? "staff.ownerView.byStaff" : "staff.ownerView.by", {
      who: view.givenByEmail,
      when: formatMoment(view.givenAt, i18n.language),
    });
}

function OwnerViewEntry({ view }: { view: OwnerView }) {
  const { t } = useTranslation();
  const author = useViewAuthor();
  return (
    <li className="border-gold/60 border-l-2 pl-3 text-sm" data-testid="owner-view-entry">
      <p className="font-medium">
        {view.agree ? t("staff.ownerView.historyAgreed") : t("staff.ownerView.historyDeclined")}
      </p>
      <p className="text-muted mt-1">{author(view)}</p>
      {view.note && (
        <p className="text-ink mt-1 break-words whitespace-pre-wrap">
          <span className="font-medium">{t("staff.ownerView.note")}: </span>
          {view.note}
        </p>
      )}
    </li>
  );
}

/**
 * The estate owner's latest view, above the request's cards so staff read it before they
 * decide: only for a request on an estate.
 */
function OwnerViewPanel({ detail }: { detail: RequestDetail }) {
  const { t } = useTranslation();
  const author = useViewAuthor();
  const id = useId();
  if (detail.kind === "membership" || detail.propertyId === null) return null;
  const view = detail.ownerView;
  return (
    <section
      aria-labelledby={id}
      data-testid="owner-view-panel"
      className={cn(
        "rounded-sm border border-l-4 p-4 text-sm",
        !view
          ? "border-gold/30 bg-paper"
          : view.agree
            ? "border-emerald-700/40 border-l-emerald-700 bg-emerald-50"
            : "border-burgundy/40 border-l-burgundy bg-red-50",
      )}
    >
      <h3 id={id} className="text-ink font-semibold">
        {t("staff.ownerView.heading")}
      </h3>
      {view ? (
        <>
          <p className="mt-1 font-medium" data-agree={String(view.agree)}>
            {view.agree ? t("staff.ownerView.agreed") : t("staff.ownerView.declined")}
          </p>
          {view.note && <p className="mt-1 break-words whitespace-pre-wrap">“{view.note}”</p>}
          <p className="text-muted mt-1">{author(view)}</p>
        </>
      ) : (
        <p className="text-muted mt-1">{t("staff.ownerView.none")}</p>
      )}
    </section>
  );
}
