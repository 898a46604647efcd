import { createInstance, type i18n, type TFunction } from "i18next";
import { BRAND, DEFAULT_LANGUAGE, type Language } from "./config.ts";

export const NAMESPACE = "common";

/**
 * A ready i18next instance for one language, initialised synchronously so the server and the
 * first client render produce the same text (no placeholder flash, no hydration mismatch).
 */
export function createI18n(language: Language, messages: object): i18n {
  const instance = createInstance();
  void instance.init({
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    ns: [NAMESPACE],
    defaultNS: NAMESPACE,
    resources: { [language]: { [NAMESPACE]: messages } },
    initAsync: false,
    // React escapes what it renders; {{brand}} is filled everywhere (i18n/config.ts).
    interpolation: { escapeValue: false, defaultVariables: { brand: BRAND } },
    returnNull: false,
  });
  return instance;
}

export type Translate = TFunction;
