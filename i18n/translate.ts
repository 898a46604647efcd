import type { i18n } from "i18next";
import type { Language } from "./config.ts";
import { createI18n } from "./instance.ts";
import { RESOURCES } from "./resources.ts";

const instances = new Map<Language, i18n>();

/** Server-side translation (API messages, loader-built metadata), in the caller's language. */
export function translate(
  language: Language,
  key: string,
  params: Record<string, unknown> = {},
): string {
  let instance = instances.get(language);
  if (!instance) {
    instance = createI18n(language, RESOURCES[language]);
    instances.set(language, instance);
  }
  return instance.t(key, params);
}
