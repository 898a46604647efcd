import type { Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";

/** Title ("{page} | Castellum") and description of a content page, for its loader. */
export function contentPageMeta(language: Language, titleKey: string, descriptionKey: string) {
  return {
    title: translate(language, "meta.pageTitle", { title: translate(language, titleKey) }),
    description: translate(language, descriptionKey),
  };
}
