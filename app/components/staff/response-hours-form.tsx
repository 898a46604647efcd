import { useState } from "react";
import { useTranslation } from "react-i18next";
import { setEstateResponseHours } from "#domain/staff/estates.contract.ts";
import { ResponseHoursChangeSchema } from "#domain/staff/estates.schema.ts";
import { callApi } from "#app/api-client.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { Button } from "../ui/button.tsx";
import { CONTROL_CLASS, Field } from "../ui/field.tsx";
import { useHydrated } from "./staff-page.tsx";

/**
 * The estate's own response time: hours staff have to answer a request for it before
 * the system rejects it. Empty returns to the site's default (REQUEST_RESPONSE_HOURS).
 */
export function ResponseHoursForm({
  estateId,
  current,
  onChanged,
}: {
  estateId: number;
  current: number | null;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const [value, setValue] = useState(current === null ? "" : String(current));
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const text = value.trim().replace(",", ".");
    const parsed = ResponseHoursChangeSchema.safeParse({
      hours: text === "" ? null : Number(text),
    });
    if (!parsed.success) {
      setError(t(parsed.error.issues[0]?.message ?? "staff.lifecycle.responseHours.invalid"));
      return;
    }
    setSaving(true);
    const answer = await callApi(
      setEstateResponseHours,
      { params: { id: estateId }, body: parsed.data },
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
      setError(answer.errors[0]?.message ?? t("staff.lifecycle.responseHours.invalid"));
      return;
    }
    toast({
      variant: "destructive",
      title: t("forms.toast.errorTitle"),
      description: answer.message ?? t("errors.generic"),
    });
  };

  return (
    <form method="post" onSubmit={submit} noValidate className="flex flex-wrap items-end gap-3">
      <Field
        label={t("staff.lifecycle.responseHours.label")}
        hint={t("staff.lifecycle.responseHours.hint")}
        error={error}
        className="min-w-0 flex-1 basis-64"
      >
        {(control) => (
          <input
            {...control}
            inputMode="decimal"
            data-testid="response-hours"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            className={CONTROL_CLASS}
          />
        )}
      </Field>
      <Button type="submit" variant="outline" disabled={!hydrated || saving}>
        {t("staff.estates.owner.save")}
      </Button>
    </form>
  );
}
