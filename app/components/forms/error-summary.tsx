import { useTranslation } from "react-i18next";
import { cn } from "../ui/cn.ts";
import { fieldId } from "./fields.tsx";

export interface SummaryError {
  name: string;
  label: string;
  /** A translation key, or a message already in the user's language (server answers). */
  message: string;
}

/** The orange 'Please correct the following errors' box, linking to each field. */
export function ErrorSummary({
  errors,
  className,
}: {
  errors: SummaryError[];
  className?: string;
}) {
  const { t } = useTranslation();
  if (errors.length === 0) return null;
  return (
    <div
      role="alert"
      data-testid="error-summary"
      className={cn(
        "rounded-sm border border-l-4 border-orange-300 border-l-orange-500 bg-orange-50 p-5 text-orange-950",
        className,
      )}
    >
      <h2 className="text-base font-semibold">{t("forms.errorSummaryTitle")}</h2>
      <ul className="mt-3 list-disc space-y-1 pl-5 text-sm">
        {errors.map((error) => (
          <li key={error.name}>
            <a
              href={`#${fieldId(error.name)}`}
              className="underline decoration-orange-400 underline-offset-2 hover:decoration-orange-800"
              onClick={(event) => {
                event.preventDefault();
                const target = document.getElementById(fieldId(error.name));
                target?.focus();
              }}
            >
              {t("forms.fieldError", { label: error.label, message: t(error.message) })}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
