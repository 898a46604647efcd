import { useTranslation } from "react-i18next";

/** A link that opens in a new tab and says so to screen readers. */
export function ExternalLink({ children, ...props }: React.ComponentProps<"a">) {
  const { t } = useTranslation();
  return (
    <a target="_blank" rel="noopener noreferrer" {...props}>
      {children}
      <span className="sr-only"> {t("a11y.opensInNewTab")}</span>
    </a>
  );
}
