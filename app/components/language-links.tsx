import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { Check, Globe } from "lucide-react";
import { LANGUAGE_NAMES, LANGUAGE_TAGS, LANGUAGES, type Language } from "#i18n/config.ts";
import { cn } from "./ui/cn.ts";

/** The current page in another language: same path and query, `lang` replaced. */
function useLanguageHref() {
  const location = useLocation();
  return (language: Language) => {
    const params = new URLSearchParams(location.search);
    params.set("lang", language);
    return `${location.pathname}?${params}${location.hash}`;
  };
}

/**
 * The header's language selector: a disclosure that works before hydration (plain links to
 * `?lang=`, which the server remembers in a cookie) and closes itself after a choice.
 * `onChoose` runs on a choice too: the staff header stores the account's language with it.
 */
export function LanguageMenu({
  className,
  onChoose,
}: {
  className?: string;
  onChoose?: (language: Language) => void;
}) {
  const { t, i18n } = useTranslation();
  const hrefFor = useLanguageHref();
  const details = useRef<HTMLDetailsElement>(null);
  const current = i18n.language as Language;
  return (
    <details ref={details} className={cn("group relative", className)} data-testid="language-menu">
      <summary
        className="text-ivory flex h-10 cursor-pointer list-none items-center gap-2 rounded-sm px-2 text-sm hover:bg-white/10 [&::-webkit-details-marker]:hidden"
        aria-label={`${t("a11y.languageSelector")}: ${LANGUAGE_NAMES[current]}`}
      >
        <Globe aria-hidden className="size-4" />
        <span>{LANGUAGE_NAMES[current]}</span>
      </summary>
      <ul className="border-gold/40 bg-paper shadow-card absolute right-0 z-50 mt-2 w-44 rounded-sm border py-1">
        {LANGUAGES.map((language) => (
          <li key={language}>
            <Link
              to={hrefFor(language)}
              lang={LANGUAGE_TAGS[language]}
              hrefLang={LANGUAGE_TAGS[language]}
              aria-current={language === current ? "true" : undefined}
              preventScrollReset
              onClick={() => {
                details.current?.removeAttribute("open");
                onChoose?.(language);
              }}
              className="text-ink hover:bg-ivory flex items-center justify-between px-4 py-2 text-sm"
            >
              {LANGUAGE_NAMES[language]}
              {language === current && <Check aria-hidden className="text-heritage size-4" />}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The footer's language selector: the four languages side by side. */
export function LanguageList() {
  const { t, i18n } = useTranslation();
  const hrefFor = useLanguageHref();
  return (
    <nav aria-label={t("a11y.languageSelector")}>
      <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        {LANGUAGES.map((language) => (
          <li key={language}>
            <Link
              to={hrefFor(language)}
              lang={LANGUAGE_TAGS[language]}
              hrefLang={LANGUAGE_TAGS[language]}
              preventScrollReset
              aria-current={language === i18n.language ? "true" : undefined}
              className="text-ivory/85 hover:text-ivory aria-[current]:text-ivory underline-offset-4 hover:underline aria-[current]:font-semibold"
            >
              {LANGUAGE_NAMES[language]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
