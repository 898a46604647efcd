import { Loader2 } from "lucide-react";
import type { ReactNode } from "react";
import { type FieldValues, FormProvider } from "react-hook-form";
import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { BotCheckClientConfig } from "#domain/bot-check/config.ts";
import { Button } from "../ui/button.tsx";
import { BotCheck } from "./bot-check.tsx";
import { ErrorSummary } from "./error-summary.tsx";
import type { GuestFormState } from "./use-guest-form.ts";

interface GuestFormProps<Values extends FieldValues> {
  /** What `useGuestForm` returned for this form. */
  guest: GuestFormState<Values>;
  botCheck: BotCheckClientConfig | null;
  className: string;
  /** For a grid layout: what makes the summary, the bot check and the button span a row. */
  wideClassName?: string;
  /** Shown above the error summary (a notice about the form). */
  intro?: ReactNode;
  /** The fields. */
  children: ReactNode;
}

/**
 * The frame of every guest form: the `<form>` wired to its
 * `useGuestForm`, the orange error summary, the fields, the bot check, the submit button and,
 * under it, what we do with the guest's details and a link to the privacy notice. The link opens
 * a new tab: leaving the page would lose what the guest has typed.
 *
 * The button stays enabled without a bot-check token, so pressing it always answers (the
 * field errors, or 'Verification Required'); it is disabled and reads 'Submitting...' while
 * the form is sent. `method="post"`: should the browser ever send the form itself (no
 * JavaScript at all), what the guest typed stays out of the address bar and the server's logs.
 */
export function GuestForm<Values extends FieldValues>({
  guest: { form, formId, onSubmit, summary, submitting, setToken, botCheck: botCheckRef },
  botCheck,
  className,
  wideClassName,
  intro,
  children,
}: GuestFormProps<Values>) {
  const { t } = useTranslation();
  return (
    <FormProvider {...form}>
      <form id={formId} method="post" noValidate onSubmit={onSubmit} className={className}>
        {intro}
        <ErrorSummary errors={summary} className={wideClassName} />
        {children}
        {botCheck && (
          <div className={wideClassName}>
            <BotCheck ref={botCheckRef} config={botCheck} onToken={setToken} />
          </div>
        )}
        <div className={wideClassName}>
          <Button type="submit" size="lg" disabled={submitting} className="w-full sm:w-auto">
            {submitting && <Loader2 aria-hidden className="size-4 animate-spin" />}
            {submitting ? t("forms.submitting") : t("forms.submit")}
          </Button>
          <p className="text-muted mt-4 max-w-prose text-sm" data-testid="privacy-form-notice">
            <Trans
              t={t}
              i18nKey="privacyNotice.formNotice"
              components={{
                a: (
                  <Link
                    to="/privacy"
                    target="_blank"
                    className="text-heritage underline underline-offset-4"
                  />
                ),
              }}
            />
          </p>
        </div>
      </form>
    </FormProvider>
  );
}
