import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { isOpenStatus } from "#domain/requests/process.ts";
import type { RequestDetail } from "#domain/staff/inbox.ts";
import { DUE_OPERATIONS } from "#domain/staff/inbox.contract.ts";
import { callApi } from "#app/api-client.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { Button } from "../ui/button.tsx";
import { CONTROL_CLASS, Field } from "../ui/field.tsx";
import { DueLine } from "./due-line.tsx";

/**
 * The due time of a request still waiting for an answer, and the form that moves it.
 * The time is typed in the browser's own time zone and sent as an instant.
 */
export function DuePanel({ detail, onChanged }: { detail: RequestDetail; onChanged: () => void }) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const open = isOpenStatus(detail.kind, detail.status);
  if (!open || !detail.dueAt) return null;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const dueAt = new Date(value);
    if (!value || Number.isNaN(dueAt.getTime())) {
      setError(t("staff.lifecycle.extend.invalid"));
      return;
    }
    setSaving(true);
    const answer = await callApi(
      DUE_OPERATIONS[detail.kind],
      { params: { id: detail.id }, body: { dueAt: dueAt.toISOString(), version: detail.version } },
      { language: i18n.language },
    );
    setSaving(false);
    if (answer.ok) {
      setError(undefined);
      toast({ title: t("staff.lifecycle.extend.done") });
      onChanged();
      return;
    }
    if (answer.status === 400) {
      setError(answer.errors[0]?.message ?? t("staff.lifecycle.extend.invalid"));
      return;
    }
    toast({
      variant: "destructive",
      title: t("forms.toast.errorTitle"),
      description: answer.message ?? t("staff.change.failed"),
    });
    if (answer.status === 409) onChanged();
  };

  return (
    <section aria-labelledby={headingId} className="border-gold/30 bg-paper rounded-sm border p-5">
      <h3 id={headingId} className="font-display text-heritage text-xl font-semibold">
        {t("staff.lifecycle.extend.heading")}
      </h3>
      <DueLine row={detail} locale={i18n.language} />
      <form
        method="post"
        onSubmit={submit}
        noValidate
        className="mt-4 flex flex-wrap items-end gap-3"
      >
        <Field label={t("staff.lifecycle.extend.label")} error={error} className="w-full sm:w-64">
          {(control) => (
            <input
              {...control}
              type="datetime-local"
              value={value}
              onChange={(event) => setValue(event.target.value)}
              className={CONTROL_CLASS}
            />
          )}
        </Field>
        <Button type="submit" variant="outline" disabled={saving}>
          {t("staff.lifecycle.extend.submit")}
        </Button>
      </form>
    </section>
  );
}
