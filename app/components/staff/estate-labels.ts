import { useTranslation } from "react-i18next";
import { isLanguage, LANGUAGE_NAMES } from "#i18n/config.ts";

/**
 * How the staff estate pages name a recorded field and a language. Editable fields use the
 * owner dashboard's labels (`owner.fields.*`); the fields only staff see (owner email, gallery,
 * uploads) have their own; anything else falls back to the field's name.
 */
export function useEstateLabels() {
  const { t, i18n } = useTranslation();
  return {
    field(field: string): string {
      const own = `staff.estates.fields.${field}`;
      if (i18n.exists(own)) return t(own);
      const label = t(`owner.fields.${field}`, { defaultValue: "" });
      return typeof label === "string" && label ? label : field.replaceAll("_", " ");
    },
    /** A language by its own name; "*" (a fact shared by every language) as 'All languages'. */
    language(lang: string): string {
      if (isLanguage(lang)) return LANGUAGE_NAMES[lang];
      return lang === "*" ? t("staff.estates.allLanguages") : lang;
    },
  };
}
