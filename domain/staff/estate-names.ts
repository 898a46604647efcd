import { and, inArray } from "drizzle-orm";
import { propertyTranslations } from "#db/schema/index.ts";
import type { Deps } from "../deps.ts";
import type { Language } from "#i18n/config.ts";

/**
 * The estates' names in the reader's language, by id. A guest's request keeps the name the
 * guest read (in the guest's language); staff read the catalogue's name in theirs. An estate
 * without a name in that language is named in English; an id the catalogue no longer has is
 * left out, and the caller falls back to what the request stored. One statement, none for no ids.
 */
export async function nameEstates(
  deps: Pick<Deps, "db">,
  input: { language: Language; ids: readonly (number | null)[] },
): Promise<Record<number, string>> {
  const ids = [...new Set(input.ids.filter((id): id is number => id !== null))];
  if (ids.length === 0) return {};
  const rows = await deps.db
    .select({
      id: propertyTranslations.propertyId,
      lang: propertyTranslations.lang,
      name: propertyTranslations.name,
    })
    .from(propertyTranslations)
    .where(
      and(
        inArray(propertyTranslations.propertyId, ids),
        inArray(propertyTranslations.lang, [...new Set([input.language, "en"])]),
      ),
    );
  const names: Record<number, string> = {};
  for (const row of rows)
    if (row.lang === input.language || names[row.id] === undefined) names[row.id] = row.name;
  return names;
}
