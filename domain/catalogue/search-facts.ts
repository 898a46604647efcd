/**
 * The catalogue's filters as lexemes of the `facts` columns of properties and property_search
 * (migration 0020, decision 0027): a search's filters become a text-search query that a GIN
 * index answers, the same index as its words when it has text. An estate has one lexeme per
 * fact: r.<region>, a.<amenity>, m (members only), and the step of each ladder its capacity
 * (g<step>) and bedrooms (b<step>) reach. The ladders are the database's too
 * (search_fact_steps): a test holds them equal.
 */
import type { CatalogueFilter } from "./catalogue-filter.schema.ts";

/** The steps of the guest ladder: g40 is 40 to 49 guests; below 2, no lexeme. */
export const GUEST_STEPS = [2, 4, 6, 8, 10, 12, 16, 20, 24, 30, 40, 50, 60, 80, 100, 150, 200];
/** The steps of the bedroom ladder: b20 is 20 to 24 bedrooms. */
export const BEDROOM_STEPS = [2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80];

/**
 * Which terms the index is asked for. A GIN index cannot stop early: it reads every entry of
 * each lexeme it is given (six bedrooms or more is three estates in four, 770,000 entries at a
 * million) before the first row comes back, at about a sixtieth of what reading one row of
 * the table costs (measured at 1,000,000 estates, decision 0027). So the rarest term goes to
 * the index when at most DENSE_FACT_SHARE of the estates have it (a commoner one finds its
 * page sooner by a walk of the catalogue, checking each row), and each next one, rarest first,
 * when the rows it spares reading cost more than its entries; the rest are checked on the rows
 * read.
 */
export const DENSE_FACT_SHARE = 0.2;
const INDEX_ENTRY_COST = 1 / 60;

/** One condition of a filter: any of these lexemes (a region, or the steps at and above one). */
export type Term = string[];

function splitByIndex(terms: Term[], shares: ReadonlyMap<string, number>) {
  // Without statistics (a catalogue never analysed) the index has every term.
  if (shares.size === 0) return { indexed: terms, checked: [] };
  // A lexeme they do not list is rarer than those they do: as rare as the rarest, say.
  const rarest = Math.min(...shares.values());
  const share = (term: Term) =>
    Math.min(
      1,
      term.reduce((sum, value) => sum + (shares.get(value) ?? rarest), 0),
    );
  const byRarity = [...terms].sort((a, b) => share(a) - share(b));
  const indexed: Term[] = [];
  const checked: Term[] = [];
  let matching = 1;
  for (const term of byRarity) {
    const isWorth = indexed.length
      ? matching * (1 - share(term)) > share(term) * INDEX_ENTRY_COST
      : share(term) <= DENSE_FACT_SHARE;
    if (isWorth) {
      indexed.push(term);
      matching *= share(term);
    } else checked.push(term);
  }
  // In the order asked, so a query reads the same whatever the statistics say.
  const order = (chosen: Term[]) => terms.filter((term) => chosen.includes(term));
  return { indexed: order(indexed), checked: order(checked) };
}

/** The step at or below `wanted` and every step above it, or null below the first step. */
function stepsFrom(steps: readonly number[], wanted: number) {
  const at = steps.findLastIndex((step) => step <= wanted);
  return at < 0 ? null : { step: steps[at]!, from: steps.slice(at) };
}

/** A lexeme quoted for tsquery input (the values are checked keys; quoting keeps them literal). */
function lexeme(value: string): string {
  return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

function asQuery(terms: Term[]): string | null {
  if (!terms.length) return null;
  return terms
    .map((term) => (term.length === 1 ? lexeme(term[0]!) : `( ${term.map(lexeme).join(" | ")} )`))
    .join(" & ");
}

export interface FactsQuery {
  /** The tsquery text of the terms the index is asked for (all required), or null. */
  indexed: string | null;
  /** The tsquery text of the common terms, checked on each row the scan reads, or null. */
  checked: string | null;
  /** Figures the lexemes cannot say exactly (a wish between two steps), to check on the row. */
  guestsAtLeast?: number;
  bedroomsAtLeast?: number;
}

/**
 * The filters on an estate's facts (not its nights) as terms, each any of its lexemes, all
 * required, and the figures the lexemes cannot say exactly: what the SQL search asks of the
 * `facts` columns and the facts index (facts-index.ts) of its bitsets.
 */
export interface FactsTerms {
  terms: Term[];
  guestsAtLeast?: number;
  bedroomsAtLeast?: number;
}

export function factsTerms(filter: CatalogueFilter): FactsTerms {
  const result: FactsTerms = { terms: [] };
  const { terms } = result;
  if (filter.region) terms.push([`r.${filter.region}`]);
  for (const amenity of new Set(filter.amenities ?? [])) terms.push([`a.${amenity}`]);
  if (filter.members) terms.push(["m"]);
  for (const [wanted, steps, prefix, key] of [
    [filter.guests, GUEST_STEPS, "g", "guestsAtLeast"],
    [filter.bedrooms, BEDROOM_STEPS, "b", "bedroomsAtLeast"],
  ] as const) {
    if (!wanted) continue;
    const found = stepsFrom(steps, wanted);
    if (found) terms.push(found.from.map((step) => `${prefix}${step}`));
    if (found?.step !== wanted) result[key] = wanted;
  }
  return result;
}

/**
 * The filters on an estate's facts (not its nights) as lexemes and exact checks. `shares` is
 * the share of estates each lexeme is found in (the column's statistics).
 */
export function factsQuery(
  filter: CatalogueFilter,
  shares: ReadonlyMap<string, number> = new Map(),
): FactsQuery {
  const { terms, guestsAtLeast, bedroomsAtLeast } = factsTerms(filter);
  const { indexed, checked } = splitByIndex(terms, shares);
  const result: FactsQuery = { indexed: asQuery(indexed), checked: asQuery(checked) };
  if (guestsAtLeast !== undefined) result.guestsAtLeast = guestsAtLeast;
  if (bedroomsAtLeast !== undefined) result.bedroomsAtLeast = bedroomsAtLeast;
  return result;
}
