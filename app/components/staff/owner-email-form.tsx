import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { OwnerEmailChangeSchema } from "#domain/staff/estates.schema.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { Button } from "../ui/button.tsx";
import { setEstateOwnerEmail } from "#domain/staff/estates.contract.ts";
import { callApi } from "#app/api-client.ts";
import { useHydrated } from "./staff-page.tsx";

/**
 * The estate's owner contact email and the form that changes it (PATCH
 * /api/admin/estates/{id}/owner-email), checked with the schema the server uses.
 */
export function OwnerEmailForm({
  estateId,
  current,
  onChanged,
}: {
  estateId: number;
  current: string | null;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const ids = { input: useId(), hint: useId(), error: useId() };

  const fail = (message: string) => {
    setError(message);
    input.current?.focus();
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const parsed = OwnerEmailChangeSchema.safeParse({ email });
    if (!parsed.success) return fail(t(parsed.error.issues[0]?.message ?? "errors.generic"));
    setSaving(true);
    const answer = await callApi(
      setEstateOwnerEmail,
      { params: { id: estateId }, body: parsed.data },
      { language: i18n.language },
    );
    setSaving(false);
    if (answer.ok) {
      const { email: saved, changed } = answer.data;
      toast({
        title: t(changed ? "staff.estates.owner.savedTitle" : "staff.estates.owner.unchangedTitle"),
        description: t(
          changed ? "staff.estates.owner.savedText" : "staff.estates.owner.unchangedText",
          { email: saved },
        ),
      });
      setEmail("");
      onChanged();
      return;
    }
    const issue = answer.errors.find((item) => item.path === "email");
    if (answer.status === 400 && issue) return fail(issue.message);
    toast({
      variant: "destructive",
      title: t("forms.toast.errorTitle"),
      description: answer.message ?? t("staff.estates.owner.failed"),
    });
  };

  return (
    <div className="grid gap-5">
      <dl>
        <dt className="text-muted text-xs font-semibold tracking-[0.08em] uppercase">
          {t("staff.estates.owner.current")}
        </dt>
        <dd className="text-ink mt-1 text-lg font-medium break-words" data-testid="owner-email">
          {current ?? t("staff.estates.owner.none")}
        </dd>
      </dl>
      <form method="post" onSubmit={submit} noValidate className="grid gap-1.5">
        <label htmlFor={ids.input} className="text-ink text-sm font-medium">
          {t("staff.estates.owner.label")}
        </label>
        <div className="flex flex-wrap gap-3">
          <input
            ref={input}
            id={ids.input}
            type="email"
            name="email"
            autoComplete="off"
            spellCheck={false}
            maxLength={254}
            value={email}
            aria-invalid={error ? true : undefined}
            aria-describedby={[ids.hint, error ? ids.error : ""].filter(Boolean).join(" ")}
            onChange={(event) => {
              setEmail(event.target.value);
              if (error) setError(null);
            }}
            className="border-ink/25 bg-paper text-ink focus-visible:outline-gold block min-w-0 flex-1 basis-64 rounded-sm border px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-offset-1 aria-invalid:border-orange-600"
          />
          <Button type="submit" disabled={!hydrated || saving} aria-disabled={saving || undefined}>
            {saving ? t("staff.estates.owner.saving") : t("staff.estates.owner.save")}
          </Button>
        </div>
        <p id={ids.hint} className="text-muted text-sm">
          {t("staff.estates.owner.hint")}
        </p>
        {error && (
          <p id={ids.error} className="text-sm font-medium text-orange-800">
            {error}
          </p>
        )}
      </form>
    </div>
  );
}
