import { Loader2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { BotCheckClientConfig } from "../../../domain/bot-check/config.ts";
import { Button } from "../ui/button.tsx";
import { BotCheck, type BotCheckHandle } from "./bot-check.tsx";

/** Disabled while sending or without a bot-check token; 'Submitting...' while sending. */
export function SubmitButton({
  submitting,
  hasToken,
  label,
}: {
  submitting: boolean;
  hasToken: boolean;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <Button type="submit" size="lg" disabled={submitting || !hasToken} className="w-full sm:w-auto">
      {submitting && <Loader2 aria-hidden className="size-4 animate-spin" />}
      {submitting ? t("forms.submitting") : label}
    </Button>
  );
}

/** The end of every guest form: the bot check, then the submit button. */
export function BotCheckAndSubmit({
  config,
  botCheck,
  setToken,
  submitting,
  token,
  className,
}: {
  config: BotCheckClientConfig | null;
  botCheck: React.Ref<BotCheckHandle>;
  setToken(token: string | null): void;
  submitting: boolean;
  token: string | null;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {config && (
        <div className={className}>
          <BotCheck ref={botCheck} config={config} onToken={setToken} />
        </div>
      )}
      <div className={className}>
        <SubmitButton submitting={submitting} hasToken={Boolean(token)} label={t("forms.submit")} />
      </div>
    </>
  );
}
