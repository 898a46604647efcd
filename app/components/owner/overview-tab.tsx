import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { Check } from "lucide-react";
import { FIELD_GROUPS } from "#domain/owners/owner-fields.ts";
import type { OwnerPropertyDetails } from "#domain/owners/owner-property.ts";
import { LANGUAGE_NAMES, LANGUAGE_TAGS, LANGUAGES } from "#i18n/config.ts";
import { cn } from "../ui/cn.ts";
import { FieldRow } from "./field-row.tsx";
import { CARD } from "./owner-styles.ts";

/**
 * The language the translated fields are edited in: plain links to `?content=`, so the choice
 * survives a reload and works before hydration. The interface keeps its own language.
 */
function ContentLanguagePicker({ current }: { current: OwnerPropertyDetails["language"] }) {
  const { t } = useTranslation();
  const location = useLocation();
  const labelId = useId();
  const hrefFor = (language: string) => {
    const params = new URLSearchParams(location.search);
    params.set("content", language);
    params.set("tab", "overview");
    return `${location.pathname}?${params}`;
  };
  return (
    <nav aria-labelledby={labelId} className={cn(CARD, "grid gap-3 p-5 sm:p-6")}>
      <h3 id={labelId} className="text-heritage text-2xl font-semibold">
        {t("owner.overview.editingLanguage")}
      </h3>
      <ul className="flex flex-wrap gap-2">
        {LANGUAGES.map((language) => (
          <li key={language}>
            <Link
              to={hrefFor(language)}
              preventScrollReset
              replace
              lang={LANGUAGE_TAGS[language]}
              aria-current={language === current ? "true" : undefined}
              className={cn(
                "inline-flex min-h-11 items-center gap-2 rounded-sm border px-4 text-sm font-medium",
                language === current
                  ? "border-heritage bg-heritage text-ivory"
                  : "border-heritage/40 text-heritage hover:bg-heritage/5",
              )}
              data-testid={`content-language-${language}`}
            >
              {language === current && <Check aria-hidden className="size-4" />}
              {LANGUAGE_NAMES[language]}
            </Link>
          </li>
        ))}
      </ul>
      <p className="text-muted text-sm">{t("owner.overview.editingLanguageHint")}</p>
    </nav>
  );
}

/**
 * The Overview tab: one card per group of fields, each field with Edit, Save
 * and Cancel; the record's images and metadata are shown, not edited.
 */
export function OverviewTab({
  details,
  onShowImages,
}: {
  details: OwnerPropertyDetails;
  onShowImages: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-6">
      <h2 className="sr-only">{t("owner.dashboard.tabOverview")}</h2>
      <ContentLanguagePicker current={details.language} />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        {FIELD_GROUPS.map(({ group, fields }) => (
          <section
            key={group}
            aria-labelledby={`owner-group-${group}`}
            className={cn(CARD, "p-5 sm:p-6")}
            data-group={group}
          >
            <h3 id={`owner-group-${group}`} className="text-heritage text-2xl font-semibold">
              {t(`owner.groups.${group}`)}
            </h3>
            <div aria-hidden className="bg-gold mt-3 mb-5 h-px w-12" />
            <div className="divide-gold/20 divide-y">
              {fields.map((field) => (
                <FieldRow key={field} field={field} details={details} onShowImages={onShowImages} />
              ))}
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}
