import { Loader2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../ui/button.tsx";

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
