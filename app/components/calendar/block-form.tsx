import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { BlockInputSchema } from "#domain/calendar/block.schema.ts";
import {
  BLOCK_KINDS,
  type BlockKind,
  type CollidingEntry,
} from "#domain/calendar/calendar.schema.ts";
import { localIsoDate } from "#domain/requests/dates.ts";
import { addDays } from "#domain/calendar/nights.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { formatDate } from "#domain/requests/summary.ts";
import { useHydrated } from "../staff/staff-page.tsx";
import { CollisionAlert } from "../staff/collision-alert.tsx";
import { Button } from "../ui/button.tsx";
import { CONTROL_CLASS, Field } from "../ui/field.tsx";
import { Alert, AlertList, AlertTitle } from "../ui/alert.tsx";
import { addCalendarBlock, type BlockAdded, type CalendarTarget } from "./calendar-api.ts";

type PendingRequests = Extract<BlockAdded, { ok: true }>["pendingRequests"];

type Errors = Partial<Record<"start" | "end" | "kind" | "note", string>>;

/**
 * Blocks nights of the estate: first night, check-out day, reason and an optional note,
 * checked with the schema the server uses. A collision (409) is shown with each stay or block
 * that holds the nights, in the page's language; nothing is written then. A block over pending
 * requests is kept, and the form then names them (reference, dates, and the guest for staff)
 * until the next block is sent: they are not changed, but can no longer be confirmed.
 */
export function BlockForm({
  target,
  defaultStart,
  onAdded,
}: {
  target: CalendarTarget;
  /** The first night offered (the first day shown, or today if later). */
  defaultStart: string;
  onAdded: () => void;
}) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const headingId = useId();
  const [start, setStart] = useState(defaultStart);
  const [end, setEnd] = useState(addDays(defaultStart, 1));
  const [kind, setKind] = useState<BlockKind>("owner_stay");
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [collision, setCollision] = useState<CollidingEntry[] | null>(null);
  const [pending, setPending] = useState<PendingRequests>([]);
  const [saving, setSaving] = useState(false);

  const form = useRef<HTMLFormElement>(null);
  const focusFirstError = (found: Errors) => {
    const first = (["start", "end", "kind", "note"] as const).find((name) => found[name]);
    const control = first ? form.current?.elements.namedItem(first) : null;
    if (control instanceof HTMLElement) control.focus();
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setCollision(null);
    setPending([]);
    const parsed = BlockInputSchema.safeParse({ start, end, kind, note: note || undefined });
    const found: Errors = {};
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const name = String(issue.path[0] ?? "start") as keyof Errors;
        found[name] ??= t(issue.message);
      }
    else if (parsed.data.end <= localIsoDate()) found.end = t("owner.calendar.validation.inPast");
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return focusFirstError(found);

    setSaving(true);
    const result = await addCalendarBlock(target, parsed.data, i18n.language);
    setSaving(false);
    if (result.ok) {
      toast({
        title: t("owner.calendar.add.added", {
          start: formatDate(result.block.start, i18n.language),
          end: formatDate(result.block.end, i18n.language),
        }),
      });
      setNote("");
      setPending(result.pendingRequests);
      onAdded();
      return;
    }
    if (result.collision) {
      setCollision(result.collision.collidesWith);
      return;
    }
    if (result.errors.length > 0) {
      const fromServer: Errors = {};
      for (const issue of result.errors)
        if (["start", "end", "kind", "note"].includes(issue.path))
          fromServer[issue.path as keyof Errors] ??= issue.message;
      if (Object.keys(fromServer).length > 0) {
        setErrors(fromServer);
        return focusFirstError(fromServer);
      }
    }
    toast({
      variant: "destructive",
      title: t("owner.calendar.add.failed"),
      description: result.message ?? t("errors.generic"),
    });
  };

  return (
    <section
      aria-labelledby={headingId}
      className="grid content-start gap-4"
      data-testid="block-form"
    >
      <div>
        <h3 id={headingId} className="text-heritage text-xl font-semibold">
          {t("owner.calendar.add.title")}
        </h3>
        <p className="text-muted mt-1 text-sm">{t("owner.calendar.add.intro")}</p>
      </div>
      <form method="post" ref={form} onSubmit={submit} noValidate className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t("owner.calendar.add.start")} error={errors.start}>
            {(props) => (
              <input
                {...props}
                type="date"
                name="start"
                value={start}
                onChange={(event) => setStart(event.target.value)}
                className={CONTROL_CLASS}
              />
            )}
          </Field>
          <Field
            label={t("owner.calendar.add.end")}
            hint={t("owner.calendar.add.endHint")}
            error={errors.end}
          >
            {(props) => (
              <input
                {...props}
                type="date"
                name="end"
                value={end}
                min={start ? addDays(start, 1) : undefined}
                onChange={(event) => setEnd(event.target.value)}
                className={CONTROL_CLASS}
              />
            )}
          </Field>
        </div>
        <Field label={t("owner.calendar.add.kind")} error={errors.kind}>
          {(props) => (
            <select
              {...props}
              name="kind"
              value={kind}
              onChange={(event) => setKind(event.target.value as BlockKind)}
              className={CONTROL_CLASS}
            >
              {BLOCK_KINDS.map((option) => (
                <option key={option} value={option}>
                  {t(`owner.calendar.kinds.${option}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label={t("owner.calendar.add.note")}
          hint={t("owner.calendar.add.noteHint")}
          error={errors.note}
        >
          {(props) => (
            <textarea
              {...props}
              name="note"
              rows={2}
              maxLength={500}
              value={note}
              onChange={(event) => setNote(event.target.value)}
              className={CONTROL_CLASS}
            />
          )}
        </Field>
        {collision && (
          <div data-testid="block-collision">
            <CollisionAlert title={t("owner.calendar.add.collisionTitle")} collisions={collision} />
          </div>
        )}
        {pending.length > 0 && (
          <Alert variant="warning" data-testid="block-pending">
            <AlertTitle>{t("owner.calendar.add.pendingTitle")}</AlertTitle>
            <AlertList
              items={pending.map((request) => {
                const dates = t("calendarCollision.dates", {
                  start: formatDate(request.start, i18n.language),
                  end: formatDate(request.end, i18n.language),
                });
                return request.guestName
                  ? t("owner.calendar.add.pendingRequestGuest", {
                      reference: request.reference,
                      guest: request.guestName,
                      dates,
                    })
                  : t("owner.calendar.add.pendingRequest", { reference: request.reference, dates });
              })}
            />
            <p className="mt-1">{t("owner.calendar.add.pendingHint")}</p>
          </Alert>
        )}
        <div>
          <Button type="submit" disabled={!hydrated || saving} data-testid="add-block">
            {saving ? t("owner.calendar.add.submitting") : t("owner.calendar.add.submit")}
          </Button>
        </div>
      </form>
    </section>
  );
}
