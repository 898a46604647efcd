import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Mail } from "lucide-react";
import { isEmailAddress } from "#domain/owners/owner-fields.ts";
import { inputClass } from "#app/components/forms/fields.tsx";
import { useHydrated } from "#app/components/staff/staff-page.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { type Problem, ProblemBox, requestCode } from "./verify-shared.tsx";

/** Step 1: the email registered for the estate, to which a code is sent. */
export function EmailStep({
  email,
  onEmailChange,
  onCodeSent,
}: {
  email: string;
  onEmailChange: (email: string) => void;
  onCodeSent: (email: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const [problem, setProblem] = useState<Problem | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const submit = async () => {
    const address = email.trim();
    setProblem(null);
    if (!isEmailAddress(address)) {
      setFieldError(t("owner.errors.emailInvalid"));
      input.current?.focus();
      return;
    }
    setFieldError(null);
    setBusy(true);
    const failure = await requestCode(address, i18n.language, t);
    setBusy(false);
    if (failure) setProblem(failure);
    else onCodeSent(address);
  };

  return (
    <>
      <p className="text-muted">{t("owner.verify.emailIntro")}</p>
      {problem && <ProblemBox problem={problem} />}
      <form
        method="post"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        className="grid gap-5"
      >
        <Field
          label={t("owner.verify.emailLabel")}
          hint={t("owner.verify.emailHint")}
          error={fieldError}
        >
          {(control) => (
            <input
              {...control}
              ref={input}
              type="email"
              name="email"
              autoComplete="email"
              inputMode="email"
              required
              value={email}
              onChange={(event) => onEmailChange(event.currentTarget.value)}
              className={inputClass}
              data-testid="owner-email-input"
            />
          )}
        </Field>
        <Button type="submit" size="lg" disabled={!hydrated || isBusy} data-testid="verify-email">
          <Mail aria-hidden className="size-5" />
          {isBusy ? t("owner.verify.submittingEmail") : t("owner.verify.submitEmail")}
        </Button>
      </form>
    </>
  );
}
