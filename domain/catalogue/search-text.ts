import type { Language } from "../../i18n/config.ts";

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
