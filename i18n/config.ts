/**
 * The brand, which every message may name as `{{brand}}` (i18n/instance.ts fills it in). It
 * lives here, beside the messages, so i18n/ needs no layer above it; content/site.ts's SITE
 * carries the same value for the pages.
 */
export const BRAND = "Castellum";

/** The four interface languages. `en` is the fallback. */
export const LANGUAGES = ["en", "fr", "it", "zh"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** The cookie that remembers a visitor's choice: 365 days, SameSite=Strict. */
export const LANGUAGE_COOKIE = "lang";
export const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Names of the languages in themselves, for selectors. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  fr: "Français",
  it: "Italiano",
  zh: "中文",
};

/** BCP 47 tags for `<html lang>`, hreflang and Intl. */
export const LANGUAGE_TAGS: Record<Language, string> = {
  en: "en",
  fr: "fr",
  it: "it",
  zh: "zh-Hans",
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** Maps a tag such as `fr-CA`, `zh-TW` or `IT` to one of the four, or undefined. */
export function matchLanguage(tag: string | null | undefined): Language | undefined {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return isLanguage(primary) ? primary : undefined;
}

/** Picks the best of the four from an Accept-Language header, honouring q-values. */
export function languageFromAcceptLanguage(
  header: string | null | undefined,
): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .map((part, order) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag, quality: Number.isFinite(quality) ? quality : 0, order };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.order - b.order);
  for (const { tag } of ranked) {
    const language = matchLanguage(tag);
    if (language) return language;
  }
  return undefined;
}

/**
 * The language of a request: `?lang=`, then the cookie, then Accept-Language, then `en`.
 * `fromQuery` tells the caller to remember the choice in the cookie.
 */
export function negotiateLanguage(input: {
  query?: string | null;
  cookie?: string | null;
  acceptLanguage?: string | null;
}): { language: Language; fromQuery: boolean } {
  const fromQuery = matchLanguage(input.query);
  if (fromQuery) return { language: fromQuery, fromQuery: true };
  return {
    language:
      matchLanguage(input.cookie) ??
      languageFromAcceptLanguage(input.acceptLanguage) ??
      DEFAULT_LANGUAGE,
    fromQuery: false,
  };
}
