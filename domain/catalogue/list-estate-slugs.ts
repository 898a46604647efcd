import { sql } from "drizzle-orm";
import { properties, propertyTranslations } from "#db/schema/index.ts";
import { DEFAULT_LANGUAGE } from "#i18n/config.ts";
import type { Deps } from "../deps.ts";

/** Rows per keyset batch of `listEstateSlugs`: a batch is a few hundred KB of slugs at most. */
export const ESTATE_SLUG_BATCH = 2000;

/** How many estates the catalogue holds (an index-only count of the primary key). */
export async function countEstates(deps: Pick<Deps, "db">): Promise<number> {
  const result = await deps.db.execute(sql`select count(*)::int as n from ${properties}`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

/**
 * The slugs of a slice of the catalogue: the estates from the `skip`-th (in catalogue order, by
 * id) for `count` estates, in keyset batches of `batchSize`, so a caller can write each batch
 * out before the next is read and never holds the slice. Estates without an English text (not
 * publishable: their pages fall back to it) are left out, so a batch may hold fewer; the
 * slices of consecutive `skip`s never overlap, whatever is left out. Yields nothing when the
 * slice starts past the end. The slice's bounds cost one walk of the primary key up to its
 * end (an index-only scan of integers); each batch is one statement from the last id read.
 */
export async function* listEstateSlugs(
  deps: Pick<Deps, "db">,
  input: { skip: number; count: number; batchSize?: number },
): AsyncGenerator<string[]> {
  const batchSize = input.batchSize ?? ESTATE_SLUG_BATCH;
  if (input.count <= 0) return;
  const bounds = await deps.db.execute(sql`
    select min(s.id)::int as first, max(s.id)::int as last
    from (select ${properties.id} as id from ${properties} order by ${properties.id}
      offset ${input.skip} limit ${input.count}) s`);
  const [range] = (bounds as unknown as { rows: { first: number | null; last: number | null }[] })
    .rows;
  if (!range || range.first === null || range.last === null) return;
  let after = range.first - 1;
  while (after < range.last) {
    const result = await deps.db.execute(sql`
      select ${properties.id} as id, ${properties.slug} as slug from ${properties}
      where ${properties.id} > ${after} and ${properties.id} <= ${range.last}
        and exists (
          select 1 from ${propertyTranslations}
          where ${propertyTranslations.propertyId} = ${properties.id}
            and ${propertyTranslations.lang} = ${DEFAULT_LANGUAGE}
        )
      order by ${properties.id} limit ${batchSize}`);
    const rows = (result as unknown as { rows: { id: number; slug: string }[] }).rows;
    if (rows.length === 0) return;
    yield rows.map((row) => row.slug);
    if (rows.length < batchSize) return;
    after = rows.at(-1)!.id;
  }
}
