import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { setEstateCommission, setEstateResponseHours } from "#domain/staff/estates.contract.ts";
import { CommissionChangeSchema, ResponseHoursChangeSchema } from "#domain/staff/estates.schema.ts";
import { callApi } from "#app/api-client.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { Button } from "../ui/button.tsx";
import { CONTROL_CLASS, Field } from "../ui/field.tsx";
import { useHydrated } from "./staff-page.tsx";

/** What saving a setting answered, as the form reads it. */
type Saved =
  | { ok: true }
  | { ok: false; status: number; message: string | null; errors: { message: string }[] };

/**
 * One number staff set for an estate, empty for the site's default: checked in the browser by
 * the schema the server checks again, saved, and refused in the staff member's language.
 */
function EstateNumberForm({
  label,
  hint,
  invalid,
  testId,
  current,
  parse,
  save,
  onChanged,
}: {
  label: string;
  hint: string;
  /** The message key of a value the schema refuses without naming one. */
  invalid: string;
  testId: string;
  current: number | null;
  parse: (value: number | null) => z.ZodSafeParseResult<unknown>;
  save: (value: number | null, language: string) => Promise<Saved>;
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
    const number = text === "" ? null : Number(text);
    const parsed = parse(number);
    if (!parsed.success) {
      setError(t(parsed.error.issues[0]?.message ?? invalid));
      return;
    }
    setSaving(true);
    const answer = await save(number, i18n.language);
    setSaving(false);
    if (answer.ok) {
      setError(undefined);
      toast({ title: t("staff.lifecycle.extend.done") });
      onChanged();
      return;
    }
    if (answer.status === 400) {
      setError(answer.errors[0]?.message ?? t(invalid));
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
      <Field label={label} hint={hint} error={error} className="min-w-0 flex-1 basis-64">
        {(control) => (
          <input
            {...control}
            inputMode="decimal"
            data-testid={testId}
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
  const { t } = useTranslation();
  return (
    <EstateNumberForm
      label={t("staff.lifecycle.responseHours.label")}
      hint={t("staff.lifecycle.responseHours.hint")}
      invalid="staff.lifecycle.responseHours.invalid"
      testId="response-hours"
      current={current}
      parse={(hours) => ResponseHoursChangeSchema.safeParse({ hours })}
      save={(hours, language) =>
        callApi(setEstateResponseHours, { params: { id: estateId }, body: { hours } }, { language })
      }
      onChanged={onChanged}
    />
  );
}

/**
 * The network's share of the estate's stays on its owner's statements, in percent. Empty
 * returns to the site's default (OWNER_COMMISSION_PERCENT).
 */
export function CommissionForm({
  estateId,
  current,
  onChanged,
}: {
  estateId: number;
  current: number | null;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  return (
    <EstateNumberForm
      label={t("staff.estates.commission.label")}
      hint={t("staff.estates.commission.hint")}
      invalid="staff.estates.commission.invalid"
      testId="commission-percent"
      current={current}
      parse={(percent) => CommissionChangeSchema.safeParse({ percent })}
      save={(percent, language) =>
        callApi(setEstateCommission, { params: { id: estateId }, body: { percent } }, { language })
      }
      onChanged={onChanged}
    />
  );
}
