import type { Language } from "#i18n/config.ts";

const HAN = /\p{Script=Han}+/gu;

/**
 * Chinese has no word boundaries and PostgreSQL no Chinese parser, so Chinese text is indexed
 * as overlapping character pairs ("戈登城堡" → "戈登 登城 城堡"), single characters kept for
 * one-character runs; other words pass through.
 */
export function chineseBigrams(text: string): string {
  return text
    .replace(HAN, (run) => {
      const chars = [...run];
      if (chars.length === 1) return ` ${run} `;
      return ` ${chars
        .slice(0, -1)
        .map((char, i) => char + chars[i + 1])
        .join(" ")} `;
    })
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .toLowerCase();
}

/** The text a translation is searched by: name, location, summary, amenities, activities. */
export function searchDocument(
  language: Language,
  text: {
    name: string;
    location: string;
    summary: string;
    amenities: string[];
    activities: string[];
  },
): string {
  const joined = [
    text.name,
    text.location,
    text.summary,
    ...text.amenities,
    ...text.activities,
  ].join(" ");
  return language === "zh" ? chineseBigrams(joined) : joined;
}

/**
 * A `to_tsquery('simple', …)` expression for a Chinese query: every bigram must match; a lone
 * character matches as a prefix of a bigram. Undefined when the query has no Chinese.
 */
export function chineseTsQuery(query: string): string | undefined {
  const runs = query.match(HAN);
  if (!runs) return undefined;
  const terms = runs.flatMap((run) => {
    const chars = [...run];
    if (chars.length === 1) return [`${run}:*`];
    return chars.slice(0, -1).map((char, i) => char + chars[i + 1]);
  });
  return terms.join(" & ");
}

/** At most this many words of a catalogue search count (a query is at most 100 characters). */
const MAX_QUERY_WORDS = 8;

/**
 * The terms of a catalogue search: the words outside Chinese, lowercased (one-letter words
 * dropped: elisions such as the d' of "Château d'If"), and the Chinese part as bigrams. Words
 * hold letters and digits only.
 */
export function catalogueQueryTerms(query: string): { words: string[]; chinese?: string } {
  const words = (query.replace(HAN, " ").match(/[\p{L}\p{N}]+/gu) ?? [])
    .map((word) => word.toLowerCase())
    .filter((word) => word.length > 1 || /\p{N}/u.test(word))
    .filter((word, index, all) => all.indexOf(word) === index)
    .slice(0, MAX_QUERY_WORDS);
  const chinese = chineseTsQuery(query);
  return chinese ? { words, chinese } : { words };
}

/**
 * A tsquery (its text form) that every word must match in one of its forms (`lexemes`: what
 * the English, French, Italian and plain configurations make of it), Chinese bigrams too.
 * Null when nothing is left to search for.
 */
export function catalogueTsQuery(forms: string[][], chinese: string | undefined): string | null {
  const quote = (lexeme: string) => `'${lexeme.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
  const parts = forms
    .filter((lexemes) => lexemes.length > 0)
    .map((lexemes) => `(${lexemes.map(quote).join(" | ")})`);
  if (chinese) parts.push(chinese);
  return parts.length ? parts.join(" & ") : null;
}
