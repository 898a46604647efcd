import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { CalendarCollision } from "#domain/calendar/calendar.schema.ts";
import { isStayKind } from "#domain/calendar/calendar.schema.ts";
import { addDays, nightsBetween, stayNights } from "#domain/calendar/nights.ts";
import { formatDate } from "#domain/requests/summary.ts";
import type { RequestDetail } from "#domain/staff/inbox.ts";
import { STAY_OPERATIONS } from "#domain/staff/inbox.contract.ts";
import { callApi } from "#app/api-client.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { Button } from "../ui/button.tsx";
import { CONTROL_CLASS, Field } from "../ui/field.tsx";
import { CollisionAlert, ImportedBusyAlert } from "./collision-alert.tsx";
import { useEstateName } from "./estate-names.tsx";

/** The nights of a stay as staff read them: both dates and the count. */
export function useNightsText() {
  const { t, i18n } = useTranslation();
  return (start: string, end: string) =>
    t("staff.stay.nights", {
      start: formatDate(start, i18n.language),
      end: formatDate(end, i18n.language),
      n: nightsBetween(start, end),
    });
}

/**
 * The estate and nights a booking request or property booking would take: whether
 * the estate's calendar holds them, what they collide with (before anyone confirms), a link to
 * the estate's calendar around them, and the form that sets them ("assign an estate").
 */
export function StayPanel({ detail, onChanged }: { detail: RequestDetail; onChanged: () => void }) {
  const { t, i18n } = useTranslation();
  const nightsText = useNightsText();
  const estateName = useEstateName();
  const headingId = useId();
  // Until staff set them, the form starts from the guest's own dates.
  const details = detail.details as Record<string, unknown>;
  const dateOf = (...keys: string[]) =>
    keys.map((key) => details[key]).find((value): value is string => typeof value === "string");
  const guestStart = dateOf("startDate", "checkInDate");
  const guestEnd = dateOf("endDate", "checkOutDate");
  const [estate, setEstate] = useState(detail.propertyId ? String(detail.propertyId) : "");
  const [start, setStart] = useState(detail.stayStart ?? guestStart ?? "");
  const [end, setEnd] = useState(
    detail.stayEnd ??
      (guestStart && guestEnd ? stayNights(guestStart, guestEnd).end : (guestEnd ?? "")),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [collision, setCollision] = useState<CalendarCollision | null>(null);
  const [saving, setSaving] = useState(false);
  if (!isStayKind(detail.kind)) return null;
  const kind = detail.kind;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setCollision(null);
    const answer = await callApi(
      STAY_OPERATIONS[kind],
      {
        params: { id: detail.id },
        body: { propertyId: Number(estate), start, end, version: detail.version },
      },
      { language: i18n.language },
    );
    setSaving(false);
    if (answer.ok) {
      setErrors({});
      toast({ title: t("staff.stay.saved") });
      onChanged();
      return;
    }
    if (answer.status === 409 && answer.data && "collidesWith" in answer.data) {
      setCollision(answer.data);
      return;
    }
    if (answer.status === 400) {
      setErrors(Object.fromEntries(answer.errors.map((issue) => [issue.path, issue.message])));
      return;
    }
    toast({
      variant: "destructive",
      title: t("forms.toast.errorTitle"),
      description: answer.message ?? t("staff.change.failed"),
    });
    if (answer.status === 409) onChanged();
  };

  const hasStay = detail.propertyId !== null && detail.stayStart && detail.stayEnd;
  return (
    <section aria-labelledby={headingId} className="border-gold/30 bg-paper rounded-sm border p-5">
      <h3 id={headingId} className="font-display text-heritage text-xl font-semibold">
        {t("staff.stay.title")}
      </h3>
      {hasStay && detail.stayStart && detail.stayEnd ? (
        <div className="mt-3 grid gap-2 text-sm" data-testid="stay">
          <p className="text-ink">
            <span className="font-medium">{estateName(detail.propertyId!)}</span>
            {" · "}
            {nightsText(detail.stayStart, detail.stayEnd)}
          </p>
          <p className="text-muted">
            {detail.stayHeld ? t("staff.stay.held") : t("staff.stay.tentative")}
          </p>
          <Link
            to={`/admin/estates/${detail.propertyId}/calendar?from=${addDays(detail.stayStart, -7)}`}
            className="text-heritage justify-self-start underline underline-offset-2"
          >
            {t("staff.stay.openCalendar")}
          </Link>
        </div>
      ) : (
        <p className="text-muted mt-3 text-sm">{t("staff.stay.none")}</p>
      )}
      {detail.collisions.length > 0 && (
        <CollisionAlert title={t("calendarCollision.warning")} collisions={detail.collisions} />
      )}
      {!detail.stayHeld && detail.importedBusy.length > 0 && (
        <ImportedBusyAlert
          title={t("calendarCollision.importedWarning")}
          importedBusy={detail.importedBusy}
        />
      )}
      <form method="post" onSubmit={submit} noValidate className="mt-4 grid gap-3 sm:grid-cols-3">
        <Field
          label={t("staff.stay.estate")}
          hint={t("staff.stay.estateHint")}
          error={errors.propertyId}
        >
          {(control) => (
            <input
              {...control}
              inputMode="numeric"
              value={estate}
              onChange={(event) => setEstate(event.target.value.trim())}
              className={CONTROL_CLASS}
            />
          )}
        </Field>
        <Field label={t("staff.stay.start")} error={errors.start}>
          {(control) => (
            <input
              {...control}
              type="date"
              value={start}
              onChange={(event) => setStart(event.target.value)}
              className={CONTROL_CLASS}
            />
          )}
        </Field>
        <Field label={t("staff.stay.end")} error={errors.end}>
          {(control) => (
            <input
              {...control}
              type="date"
              value={end}
              onChange={(event) => setEnd(event.target.value)}
              className={CONTROL_CLASS}
            />
          )}
        </Field>
        {collision && (
          <div className="sm:col-span-3">
            <CollisionAlert
              variant="error"
              title={t("calendarCollision.refused")}
              collisions={collision.collidesWith}
            />
          </div>
        )}
        <Button
          type="submit"
          size="sm"
          variant="outline"
          className="justify-self-start"
          disabled={saving}
        >
          {saving ? t("staff.stay.saving") : t("staff.stay.set")}
        </Button>
      </form>
    </section>
  );
}
