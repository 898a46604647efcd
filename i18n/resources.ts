import en from "./locales/en/common.json" with { type: "json" };
import fr from "./locales/fr/common.json" with { type: "json" };
import it from "./locales/it/common.json" with { type: "json" };
import zh from "./locales/zh/common.json" with { type: "json" };
import type { Language } from "./config.ts";

/** The translation namespace of the interface. English is the reference for keys. */
export type CommonMessages = typeof en;

/**
 * All interface messages. Imported on the server only: a page receives the messages of its
 * own language through the root loader, so the browser never downloads the other three.
 */
export const RESOURCES: Record<Language, CommonMessages> = {
  en,
  // Plural keys differ by language (fr and it have `_many`), so the shapes are not identical;
  // i18n/locales.test.ts checks that every language has every key English has.
  fr: fr as unknown as CommonMessages,
  it: it as unknown as CommonMessages,
  zh: zh as unknown as CommonMessages,
};
