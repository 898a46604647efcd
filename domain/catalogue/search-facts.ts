/**
 * The catalogue's filters as lexemes of property_search.facts (migration 0020, decision 0027):
 * a search's filters become one text-search query that the same GIN index as its words
 * answers. The ladders are the database's too (search_fact_steps): a test holds them equal.
 */
import type { CatalogueFilter } from "./catalogue-filter.schema.ts";

/** The steps of "at least N guests" that have a lexeme (g<step>); 1 is every estate. */
export const GUEST_STEPS = [2, 4, 6, 8, 10, 12, 16, 20, 24, 30, 40, 50, 60, 80, 100, 150, 200];
/** The steps of "at least N bedrooms" that have a lexeme (b<step>). */
export const BEDROOM_STEPS = [2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80];

/** The largest step at most `wanted`, or undefined below the first. */
function stepAtMost(steps: readonly number[], wanted: number): number | undefined {
  return steps.findLast((step) => step <= wanted);
}

/** A lexeme quoted for tsquery input (the values are checked keys; quoting keeps them literal). */
function lexeme(value: string): string {
  return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/**
 * Which lexemes the index is asked for. A GIN index cannot stop early: it reads every entry of
 * each lexeme it is given (b6 is three estates in four, 770,000 entries at a million) before
 * the first row comes back, at about a sixtieth of what reading one row of the table costs
 * (measured at 1,000,000 estates, decision 0027). So the rarest lexeme goes to the index when
 * at most DENSE_FACT_SHARE of the estates have it (a commoner one finds its page sooner by a
 * walk of the catalogue, checking each row), and each next one, rarest first, when the rows it
 * spares reading cost more than its entries; the rest are checked on the rows read.
 */
export const DENSE_FACT_SHARE = 0.2;
const INDEX_ENTRY_COST = 1 / 60;

function splitByIndex(lexemes: string[], shares: ReadonlyMap<string, number>) {
  // Without statistics (a catalogue never analysed) the index has every lexeme.
  if (shares.size === 0) return { indexed: lexemes, checked: [] };
  // A lexeme they do not list is rarer than those they do: as rare as the rarest, say.
  const rarest = Math.min(...shares.values());
  const share = (value: string) => shares.get(value) ?? rarest;
  const byRarity = [...lexemes].sort((a, b) => share(a) - share(b));
  const indexed: string[] = [];
  const checked: string[] = [];
  let matching = 1;
  for (const value of byRarity) {
    const isWorth = indexed.length
      ? matching * (1 - share(value)) > share(value) * INDEX_ENTRY_COST
      : share(value) <= DENSE_FACT_SHARE;
    if (isWorth) {
      indexed.push(value);
      matching *= share(value);
    } else checked.push(value);
  }
  // In the order asked, so a query reads the same whatever the statistics say.
  const order = (values: string[]) => lexemes.filter((value) => values.includes(value));
  return { indexed: order(indexed), checked: order(checked) };
}

export interface FactsQuery {
  /** The tsquery text of the lexemes the index is asked for (all required), or null. */
  indexed: string | null;
  /** The tsquery text of the dense lexemes, checked on each row the scan reads, or null. */
  checked: string | null;
  /** Figures the lexemes cannot say exactly (a wish between two steps), to check on the row. */
  guestsAtLeast?: number;
  bedroomsAtLeast?: number;
}

/**
 * The filters on an estate's facts (not its nights) as lexemes and exact checks. `shares` is
 * the share of estates each lexeme is found in (the column's statistics); a lexeme it does not
 * list is taken as rare.
 */
export function factsQuery(
  filter: CatalogueFilter,
  shares: ReadonlyMap<string, number> = new Map(),
): FactsQuery {
  const lexemes: string[] = [];
  const result: FactsQuery = { indexed: null, checked: null };
  if (filter.region) lexemes.push(`r.${filter.region}`);
  for (const amenity of new Set(filter.amenities ?? [])) lexemes.push(`a.${amenity}`);
  if (filter.members) lexemes.push("m");
  if (filter.guests) {
    const step = stepAtMost(GUEST_STEPS, filter.guests);
    if (step !== undefined) lexemes.push(`g${step}`);
    if (step !== filter.guests) result.guestsAtLeast = filter.guests;
  }
  if (filter.bedrooms) {
    const step = stepAtMost(BEDROOM_STEPS, filter.bedrooms);
    if (step !== undefined) lexemes.push(`b${step}`);
    if (step !== filter.bedrooms) result.bedroomsAtLeast = filter.bedrooms;
  }
  const { indexed, checked } = splitByIndex(lexemes, shares);
  const asQuery = (values: string[]) => (values.length ? values.map(lexeme).join(" & ") : null);
  result.indexed = asQuery(indexed);
  result.checked = asQuery(checked);
  return result;
}
