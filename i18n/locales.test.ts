import { describe, expect, it } from "vitest";
import { LANGUAGES } from "./config.ts";
import { RESOURCES } from "./resources.ts";

type Messages = { [key: string]: string | Messages };
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function flatten(messages: Messages, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** The keys a language must have: plain keys as in English, plural keys in its own categories. */
function requiredKeys(language: (typeof LANGUAGES)[number]): string[] {
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const english = [...flatten(RESOURCES.en as Messages).keys()];
  const plain = english.filter((key) => !PLURAL_SUFFIX.test(key));
  const pluralBases = new Set(
    english.filter((key) => PLURAL_SUFFIX.test(key)).map((key) => key.replace(PLURAL_SUFFIX, "")),
  );
  return [
    ...plain,
    ...[...pluralBases].flatMap((base) => categories.map((category) => `${base}_${category}`)),
  ];
}

describe("interface messages", () => {
  it.each(LANGUAGES)("%s has every key, none empty", (language) => {
    const messages = flatten(RESOURCES[language] as Messages);
    const missing = requiredKeys(language).filter((key) => !messages.get(key)?.trim());
    expect(missing, `missing or empty in ${language}`).toEqual([]);
  });

  it.each(LANGUAGES)("%s has no key English lacks", (language) => {
    const english = new Set(requiredKeys("en").map((key) => key.replace(PLURAL_SUFFIX, "")));
    const extra = [...flatten(RESOURCES[language] as Messages).keys()].filter(
      (key) => !english.has(key.replace(PLURAL_SUFFIX, "")),
    );
    expect(extra).toEqual([]);
  });

  it.each(LANGUAGES)("%s keeps every {{placeholder}} of English", (language) => {
    const english = flatten(RESOURCES.en as Messages);
    const messages = flatten(RESOURCES[language] as Messages);
    const placeholders = (text: string) =>
      [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    const broken = [...english].flatMap(([key, text]) => {
      const base = key.replace(PLURAL_SUFFIX, "");
      const own = [...messages].filter(([k]) => k.replace(PLURAL_SUFFIX, "") === base);
      return own
        .filter(([, value]) => {
          const want = placeholders(text).filter(
            (name) => name !== "count" || !PLURAL_SUFFIX.test(key),
          );
          return !want.every((name) => placeholders(value).includes(name));
        })
        .map(([k]) => k);
    });
    expect(broken).toEqual([]);
  });
});
