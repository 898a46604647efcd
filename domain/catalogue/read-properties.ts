import { and, asc, eq, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import {
  calendarEntries,
  properties,
  propertyImages,
  propertySearch,
  propertyTranslations,
} from "#db/schema/index.ts";
import { DEFAULT_LANGUAGE, type Language } from "#i18n/config.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import type { Property, PropertyImage } from "./property.ts";
import type { PlanNode } from "./query-plans.ts";
import {
  CATALOGUE_PAGE_SIZE,
  type CatalogueCursor,
  type CatalogueFilter,
  formatCursor,
} from "./catalogue-filter.schema.ts";
import { factsQuery, factsTerms } from "./search-facts.ts";
import { catalogueQueryTerms, catalogueTsQuery } from "./search-text.ts";
import { slugify } from "./slug.ts";

/**
 * Counts stop here: past it the catalogue says "more than 1,000" rather than counting a million
 * rows for every page, and a text search orders its results by catalogue order, not by rank
 * (ranking every match of a common word costs as much as counting it). docs/decisions/0010.
 */
export const CATALOGUE_TOTAL_CAP = 1000;

/** A trigram search of names (typos) needs this many letters to say anything. */
const FUZZY_MIN_LETTERS = 4;

/** What to read besides the estate's facts and text. */
export interface ReadOptions {
  /** The selected images (default true); an API client that asks for no image field skips them. */
  images?: boolean;
}

/** One row of the statements below: an estate, its text in one language, its images. */
interface PropertyRow {
  id: number | null;
  slug: string;
  region: string;
  bedrooms: number;
  guest_capacity: number;
  members_only: boolean;
  amenity_keys: string[];
  lang: string;
  name: string;
  location: string;
  summary: string;
  amenities: string[];
  activities: string[];
  historical_significance: string | null;
  images: PropertyImage[] | null;
  score: number | null;
  total?: number;
}

/** The columns of `properties` the public shape needs (owner fields stay behind). */
const ESTATE_COLUMNS = sql`${properties.id}, ${properties.slug}, ${properties.region}, ${properties.bedrooms}, ${properties.guestCapacity}, ${properties.membersOnly}, ${properties.amenityKeys}`;

/**
 * Joins the text and images to a set of estates `k` (a subquery with ESTATE_COLUMNS): the
 * translation in `language`, else English (an estate with neither is not publishable and drops
 * out), and the selected images in order as JSON. Both are per-estate lookups by primary or
 * leading key, so a page costs its 24 rows and never more.
 */
function withTextAndImages(language: Language, options: ReadOptions): SQL {
  const languages = language === DEFAULT_LANGUAGE ? [language] : [language, DEFAULT_LANGUAGE];
  const images =
    options.images === false
      ? sql`select null::json as images`
      : sql`select json_agg(json_build_object('key', ${propertyImages.key}, 'width', ${propertyImages.width}, 'height', ${propertyImages.height}) order by ${propertyImages.selectedRank}) as images
          from ${propertyImages}
          where ${propertyImages.propertyId} = k.id and ${isNotNull(propertyImages.selectedRank)}`;
  return sql`join lateral (
      select ${propertyTranslations.lang}, ${propertyTranslations.name}, ${propertyTranslations.location},
        ${propertyTranslations.summary}, ${propertyTranslations.amenities}, ${propertyTranslations.activities},
        ${propertyTranslations.historicalSignificance}
      from ${propertyTranslations}
      where ${propertyTranslations.propertyId} = k.id and ${inArray(propertyTranslations.lang, languages)}
      order by ${propertyTranslations.lang} = ${language} desc
      limit 1
    ) t on true
    left join lateral (${images}) i on true`;
}

const TEXT_COLUMNS = sql`k.id, k.slug, k.region, k.bedrooms, k.guest_capacity, k.members_only, k.amenity_keys,
  t.lang, t.name, t.location, t.summary, t.amenities, t.activities, t.historical_significance, i.images`;

function toProperty(row: PropertyRow): Property {
  return {
    id: row.id as number,
    slug: row.slug,
    language: row.lang as Language,
    region: row.region,
    bedrooms: row.bedrooms,
    guestCapacity: row.guest_capacity,
    membersOnly: row.members_only,
    amenityKeys: row.amenity_keys,
    name: row.name,
    location: row.location,
    summary: row.summary,
    amenities: row.amenities,
    activities: row.activities,
    historicalSignificance: row.historical_significance,
    images: row.images ?? [],
  };
}

async function rowsOf(deps: Deps, statement: SQL): Promise<PropertyRow[]> {
  const result = await deps.db.execute(statement);
  return (result as unknown as { rows: PropertyRow[] }).rows;
}

/**
 * Reads properties matching `where` with their text in `language` (English where a
 * translation is missing) and their selected images in order: one statement.
 */
async function readProperties(
  deps: Deps,
  language: Language,
  where?: SQL,
  options: ReadOptions = {},
): Promise<Property[]> {
  return (await readRows(deps, language, where, options)).map(toProperty);
}

function readRows(
  deps: Deps,
  language: Language,
  where?: SQL,
  options: ReadOptions = {},
): Promise<PropertyRow[]> {
  return rowsOf(
    deps,
    sql`select ${TEXT_COLUMNS}
      from (select ${ESTATE_COLUMNS} from ${properties} ${where ? sql`where ${where}` : sql``}) k
      ${withTextAndImages(language, options)}
      order by k.id`,
  );
}

/**
 * Free for every night [checkIn, checkOut): no claim on the estate (a stay, a block or an
 * imported busy time; tentative requests close nothing) shares a night with the stay. A probe
 * of the GiST index on (property_id, nights) per candidate estate, which finds the estate's
 * claims near those dates and nothing else, so it costs the same with a million estates and
 * years of calendar. `offset 0` keeps it a probe: without it the planner may turn the NOT
 * EXISTS into an anti-join that reads every claim overlapping the dates, of every estate
 * (a large part of the table on a busy week), before it knows which estates it needs.
 */
function freeNightsCondition(id: SQL, checkIn: string, checkOut: string): SQL {
  return sql`not exists (
    select 1 from ${calendarEntries}
    where ${calendarEntries.propertyId} = ${id}
      and ${calendarEntries.nights} && daterange(${checkIn}::date, ${checkOut}::date)
    offset 0
  )`;
}

/**
 * Where a search reads its matches: `properties` for filters alone (about 260 bytes a row, so
 * a walk of the catalogue reads 30 estates a page), `property_search` with text (its vectors
 * make rows of about 1.8 KB, but words and facts share one GIN index there). Both carry the
 * facts as lexemes and the figures the ladders cannot say exactly (decision 0027).
 */
interface SearchTable {
  table: SQL;
  id: SQL;
  facts: SQL;
  guestCapacity: SQL;
  bedrooms: SQL;
}

const FACTS_TABLE: SearchTable = {
  table: sql`${properties}`,
  id: sql`${properties.id}`,
  facts: sql`${properties.facts}`,
  guestCapacity: sql`${properties.guestCapacity}`,
  bedrooms: sql`${properties.bedrooms}`,
};

const TEXT_TABLE: SearchTable = {
  table: sql`${propertySearch}`,
  id: sql`${propertySearch.propertyId}`,
  facts: sql`${propertySearch.facts}`,
  guestCapacity: sql`${propertySearch.guestCapacity}`,
  bedrooms: sql`${propertySearch.bedrooms}`,
};

/**
 * The filters on the estate's facts and nights as one condition on `table`: the facts as
 * lexemes of its `facts` column (search-facts.ts), the rare ones asked of its GIN index (with
 * text, the same scan as the words), the common ones checked on the rows read, and the exact
 * figures where a wish falls between two steps.
 */
function factsCondition(
  filter: CatalogueFilter,
  shares: ReadonlyMap<string, number>,
  table: SearchTable,
  knownIds: readonly number[] | undefined,
): SQL | undefined {
  const dates =
    filter.checkIn && filter.checkOut
      ? freeNightsCondition(table.id, filter.checkIn, filter.checkOut)
      : undefined;
  // The few estates the facts index found for the filters: probed by id, figures and all.
  if (knownIds) return and(sql`${table.id} = any(${`{${knownIds.join(",")}}`}::int[])`, dates);
  const facts = factsQuery(filter, shares);
  return and(
    facts.indexed ? sql`${table.facts} @@ ${facts.indexed}::tsquery` : undefined,
    // The function behind @@, which no index answers: the common terms are checked on the row.
    facts.checked ? sql`ts_match_vq(${table.facts}, ${facts.checked}::tsquery)` : undefined,
    facts.guestsAtLeast !== undefined
      ? sql`${table.guestCapacity} >= ${facts.guestsAtLeast}`
      : undefined,
    facts.bedroomsAtLeast !== undefined
      ? sql`${table.bedrooms} >= ${facts.bedroomsAtLeast}`
      : undefined,
    dates,
  );
}

/**
 * With text or dates, a search whose filters this many estates or fewer match (the facts
 * index counts them exactly) probes those estates by id: a GIN index would decode every entry
 * of each common fact to find them (decision 0028).
 */
const FEW_FACTS = 2000;

/**
 * The ids matching the filters, and the words when memory holds them, when the facts index has
 * them and they are few, else undefined.
 */
async function fewFactsIds(deps: Deps, filter: CatalogueFilter): Promise<number[] | undefined> {
  if (!deps.factsIndex) return undefined;
  const words = filter.q ? await wordsInMemory(deps, filter.q) : null;
  const few = { filter, isBackward: false, limit: FEW_FACTS, cap: FEW_FACTS };
  const match = words
    ? await deps.factsIndex.searchText({ ...few, words })
    : factsTerms(filter).terms.length
      ? await deps.factsIndex.search(few)
      : null;
  if (match && match.total <= FEW_FACTS) return match.ids;
  // The words' estates are many, or not in memory: the filters' alone may still be few.
  return words && factsTerms(filter).terms.length
    ? ((m) => (m && m.total <= FEW_FACTS ? m.ids : undefined))(await deps.factsIndex.search(few))
    : undefined;
}

/**
 * The share of estates each lexeme is found in, from the columns' statistics (ANALYZE keeps
 * them), read once per process and again after SHARES_TTL_MS: `facts` for the lexemes of
 * properties.facts (property_search holds the same for the estates with text), which tells
 * which filters are too common to ask the index for (search-facts.ts); `words` for those of
 * property_search.search_vector, which tells a rare word from a common one (`isRare`). Empty
 * before the first ANALYZE: every filter goes to the index and no word counts as rare.
 */
export interface Shares {
  facts: Map<string, number>;
  words: Map<string, number>;
}
/** Per database: a process that opens several (the test suites) must not read one's figures for another. */
const sharesByDatabase = new WeakMap<object, { at: number; shares: Shares }>();
const SHARES_TTL_MS = 10 * 60_000;

async function sharesOf(deps: Deps): Promise<Shares> {
  const shares = sharesByDatabase.get(deps.db);
  if (shares && performance.now() - shares.at < SHARES_TTL_MS) return shares.shares;
  const result = await deps.db.execute(sql`
    select s.attname as column, x.lexeme, x.share
    from pg_stats s,
      unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) as x(lexeme, share)
    where s.schemaname = current_schema() and x.lexeme is not null
      and ((s.tablename = 'properties' and s.attname = 'facts')
        or (s.tablename = 'property_search' and s.attname = 'search_vector'))`);
  const rows = (result as unknown as { rows: { column: string; lexeme: string; share: number }[] })
    .rows;
  const of = (column: string) =>
    new Map(
      rows.filter((row) => row.column === column).map((row) => [row.lexeme, Number(row.share)]),
    );
  const read = { facts: of("facts"), words: of("search_vector") };
  sharesByDatabase.set(deps.db, { at: performance.now(), shares: read });
  return read;
}

/**
 * Replaces the statistics searches use until they are next read (SHARES_TTL_MS): a test makes
 * a word rare with it on a catalogue too small for the database's own figures to say so.
 */
export function setSearchStatistics(deps: Pick<Deps, "db">, statistics: Shares): void {
  sharesByDatabase.set(deps.db, { at: performance.now(), shares: statistics });
}

/** The next search reads the database's own figures again (after an ANALYZE, say). */
export function forgetSearchStatistics(deps: Pick<Deps, "db">): void {
  sharesByDatabase.delete(deps.db);
}

/**
 * A word no more estates than this share have is rare: past the count's cap, the page of a
 * search for it is taken from all its matches by the index (a few thousand at a million
 * estates) rather than by a walk of the catalogue in id order, which would read 1/share rows
 * a page (decision 0028).
 */
const RARE_WORD_SHARE = 0.004;

/**
 * What the English, French, Italian and plain configurations make of each word, by word (null
 * for a stop word in one of the three languages: "the", "la", "di" match nothing and must not
 * be required). The dictionaries never change, so a word is asked for once per process.
 */
const WORD_FORMS = new Map<string, string[] | null>();
const WORD_FORMS_LIMIT = 10_000;

async function wordForms(deps: Deps, words: string[]): Promise<(string[] | null)[]> {
  const missing = words.filter((word) => !WORD_FORMS.has(word));
  if (missing.length) {
    if (WORD_FORMS.size + missing.length > WORD_FORMS_LIMIT) WORD_FORMS.clear();
    const result = await deps.db.execute(sql`
      select w.word,
        to_tsvector('english', w.word) = ''::tsvector
          or to_tsvector('french', w.word) = ''::tsvector
          or to_tsvector('italian', w.word) = ''::tsvector as is_stop_word,
        tsvector_to_array(to_tsvector('english', w.word) || to_tsvector('french', w.word)
          || to_tsvector('italian', w.word) || to_tsvector('simple', w.word)) as lexemes
      from (values ${sql.join(
        missing.map((word) => sql`(${word})`),
        sql`, `,
      )}) as w(word)`);
    const rows = (
      result as unknown as { rows: { word: string; is_stop_word: boolean; lexemes: string[] }[] }
    ).rows;
    for (const row of rows) WORD_FORMS.set(row.word, row.is_stop_word ? null : row.lexemes);
  }
  return words.map((word) => WORD_FORMS.get(word) ?? null);
}

/**
 * The full-text query of a search, as tsquery text: every word must match in one of its forms
 * (so in any of the four languages), Chinese as bigrams. Built from the distinct lexemes rather
 * than as to_tsquery(…) per language in the statement, so the planner sees one constant query
 * and estimates its matches from the column's statistics: with four copies of a rare word it
 * would expect four times its matches and walk the catalogue in id order instead of reading
 * the few matches from the index. Null when the query has no word to search for.
 */
async function fullTextQuery(
  deps: Deps,
  q: string,
  wordShares: ReadonlyMap<string, number>,
): Promise<{ query: string; isRare: boolean } | null> {
  const { words, chinese } = catalogueQueryTerms(q);
  const forms = (await wordForms(deps, words)).filter((lexemes) => lexemes !== null);
  const query = catalogueTsQuery(forms, chinese);
  if (!query) return null;
  // A word's share is its commonest form's; a form the statistics do not list is rarer than
  // any they do. Chinese bigrams are not judged: such a query is never taken for rare.
  const rarest = Math.min(
    ...forms.map((lexemes) => Math.max(0, ...lexemes.map((form) => wordShares.get(form) ?? 0))),
  );
  return { query, isRare: wordShares.size > 0 && !chinese && rarest <= RARE_WORD_SHARE };
}

/**
 * The words of a search as the facts index matches them: each any of its forms, Chinese
 * bigrams as words of one form. Null when memory cannot say (a lone Chinese character matches
 * as a prefix) or nothing is left to search for.
 */
async function wordsInMemory(deps: Deps, q: string): Promise<string[][] | null> {
  const { words, chinese } = catalogueQueryTerms(q);
  const forms = (await wordForms(deps, words)).filter(
    (lexemes): lexemes is string[] => lexemes !== null && lexemes.length > 0,
  );
  const bigrams = chinese?.split(" & ") ?? [];
  if (bigrams.some((term) => term.endsWith(":*"))) return null;
  const all = [...forms, ...bigrams.map((bigram) => [bigram])];
  return all.length ? all : null;
}

/** How a text search matches and scores: words (full text) or, when they find nothing, names (trigrams). */
interface TextMatch {
  condition: SQL;
  /**
   * The same condition as a function no index answers, for estates already probed by id: the
   * planner would otherwise ask the GIN index for every word, decoding all of a common one's
   * entries to keep a few estates.
   */
  onRow?: SQL;
  /** Relevance as an integer (keyset cursors carry it exactly). */
  score: SQL;
  /** A word of the query is rare (RARE_WORD_SHARE): its matches are few enough to read all. */
  isRare?: boolean;
}

async function fullTextMatch(
  deps: Deps,
  q: string,
  wordShares: ReadonlyMap<string, number>,
): Promise<TextMatch | null> {
  const found = await fullTextQuery(deps, q, wordShares);
  if (!found) return null;
  const { query, isRare } = found;
  return {
    isRare,
    condition: sql`${propertySearch.searchVector} @@ ${query}::tsquery`,
    onRow: sql`ts_match_vq(${propertySearch.searchVector}, ${query}::tsquery)`,
    // Names carry weight A in the vector, so an estate named by the query ranks first.
    score: sql`(ts_rank(${propertySearch.searchVector}, ${query}::tsquery) * 1000000)::int`,
  };
}

function fuzzyNameMatch(q: string): TextMatch | null {
  if ((q.match(/\p{L}/gu) ?? []).length < FUZZY_MIN_LETTERS) return null;
  return {
    condition: sql`${q} <% ${propertySearch.names}`,
    score: sql`(word_similarity(${q}, ${propertySearch.names}) * 1000000)::int`,
  };
}

export interface CataloguePage {
  properties: Property[];
  /** How many properties match the filters, over all pages, up to CATALOGUE_TOTAL_CAP. */
  total: number;
  /** More than CATALOGUE_TOTAL_CAP match ("1,000+"): `total` is then the cap. */
  isTotalCapped: boolean;
  /**
   * `relevance` for a text search with at most CATALOGUE_TOTAL_CAP matches (best first),
   * `catalogue` (by id) otherwise.
   */
  order: "relevance" | "catalogue";
  /** Cursor of the next page (`after`), when there is one. */
  nextAfter: string | null;
  /** Cursor of the previous page (`before`), when there is one. */
  previousBefore: string | null;
}

/**
 * One statement for one page. `matches` holds any CATALOGUE_TOTAL_CAP + 1 matching ids (in no
 * order, so the planner reads a few matches from an index, or stops a walk early, whichever is
 * cheaper), and `c` counts them. When they are all the matches (the count is within the cap),
 * the page is taken from them: sorted by id, or, for a text search, scored and sorted by
 * relevance, so the index work of a selective search is done once. Past the cap the page
 * walks the catalogue in id order from the cursor (many matches: the next 24 come soon). Both
 * branches are planned and the count turns one of them off (a one-time filter on `c.total`),
 * so the choice costs no round trip. The page's text and images are joined to its 24 rows.
 */
function pageStatement(input: {
  language: Language;
  facts: (table: SearchTable) => SQL | undefined;
  text: TextMatch | null;
  /** The facts name the estates by id: the text is checked on their rows. */
  isProbedById: boolean;
  cursor: CatalogueCursor | undefined;
  isBackward: boolean;
  limit: number;
  options: ReadOptions;
}): SQL {
  const { text, cursor, isBackward, limit } = input;
  const from = text ? TEXT_TABLE : FACTS_TABLE;
  const textCondition = input.isProbedById ? (text?.onRow ?? text?.condition) : text?.condition;
  const matching = and(input.facts(from), textCondition) ?? sql`true`;
  const direction = isBackward ? sql`desc` : sql`asc`;
  const beyond = (column: SQL) =>
    !cursor
      ? sql`true`
      : isBackward
        ? sql`${column} < ${cursor.id}`
        : sql`${column} > ${cursor.id}`;

  let withinCap: SQL;
  if (!text) {
    withinCap = sql`select m.id, null::int as score from matches m
      where c.total <= ${CATALOGUE_TOTAL_CAP} and ${beyond(sql`m.id`)}
      order by m.id ${direction} limit ${limit}`;
  } else {
    // Best first: a higher score, then the lower id. A cursor without a score (catalogue
    // order, from before the matches fell within the cap) starts from the top.
    const score = text.score;
    const scoreKeyset =
      cursor?.score === undefined
        ? sql`true`
        : isBackward
          ? sql`(${score} > ${cursor.score} or (${score} = ${cursor.score} and m.id < ${cursor.id}))`
          : sql`(${score} < ${cursor.score} or (${score} = ${cursor.score} and m.id > ${cursor.id}))`;
    const order = isBackward ? sql`score asc, id desc` : sql`score desc, id asc`;
    withinCap = sql`select m.id, ${score} as score
      from matches m join ${propertySearch} on ${propertySearch.propertyId} = m.id
      where c.total <= ${CATALOGUE_TOTAL_CAP} and ${scoreKeyset}
      order by ${order} limit ${limit}`;
  }
  // Past the cap, the next ids in order: a walk of the catalogue from the cursor, which finds
  // a common match's page in a few rows; for a rare word, its matches read from the index
  // and sorted (OFFSET 0 keeps the planner from walking for them), as a walk would read
  // 1/share rows a page.
  const pastCapRows = sql`from ${from.table}
    where c.total > ${CATALOGUE_TOTAL_CAP} and ${matching} and ${beyond(from.id)}`;
  const pastCap = text?.isRare
    ? sql`select h.id, null::int as score from (select ${from.id} as id ${pastCapRows} offset 0) h
      order by h.id ${direction} limit ${limit}`
    : sql`select ${from.id} as id, null::int as score ${pastCapRows}
      order by ${from.id} ${direction} limit ${limit}`;

  const order = isBackward
    ? sql`page.score asc nulls first, page.id desc`
    : sql`page.score desc nulls last, page.id asc`;
  return sql`with matches as materialized (
      select ${from.id} as id from ${from.table} where ${matching} limit ${CATALOGUE_TOTAL_CAP + 1}
    ),
    c as (select count(*)::int as total from matches)
    select c.total, page.*
    from c
    left join lateral (
      select ${TEXT_COLUMNS}, k.score
      from ((${withinCap}) union all (${pastCap})) ranked
      join lateral (select ${ESTATE_COLUMNS}, ranked.score from ${properties} where ${properties.id} = ranked.id) k on true
      ${withTextAndImages(input.language, input.options)}
    ) page on true
    order by ${order}`;
}

export type SearchInput = {
  language: Language;
  filter: CatalogueFilter;
  pageSize?: number;
} & ReadOptions;

/** The page statement of a search, for a given way of matching its text (none without `q`). */
function searchStatements(
  input: SearchInput,
  shares: ReadonlyMap<string, number>,
  knownIds: readonly number[] | undefined,
) {
  const { filter, language } = input;
  const { pageSize, isBackward, cursor } = travelOf(input);
  const facts = (table: SearchTable) => factsCondition(filter, shares, table, knownIds);
  return {
    statement: (text: TextMatch | null) =>
      pageStatement({
        language,
        facts,
        text,
        isProbedById: knownIds !== undefined,
        cursor,
        isBackward,
        // One row more than a page tells whether another page lies in the direction of travel.
        limit: pageSize + 1,
        options: { images: input.images },
      }),
  };
}

/**
 * One page of the catalogue matching `filter`, paged by keyset (`after` moves forward,
 * `before` backward), so a page costs the same wherever it is. Without text the order is the
 * catalogue's (by id). A text search matches words in any of the four languages, ranked by
 * relevance (names first) when at most CATALOGUE_TOTAL_CAP estates match, in catalogue order
 * beyond; when no word matches, it looks for names that begin with the query or are a typo
 * away from it (trigram similarity). The count of matches stops at the cap. One statement per
 * page; a search whose words match nothing sends a second one for names, and a word this
 * process has not seen yet costs one small lookup of its forms.
 */
export async function searchProperties(deps: Deps, input: SearchInput): Promise<CataloguePage> {
  const indexed = await searchFactsIndex(deps, input);
  if (indexed) return pageOf(input, indexed.counted, indexed.rows, null);
  const inMemory =
    (await searchWordsIndex(deps, input)) ?? (await searchDatesInMemory(deps, input));
  if (inMemory) return inMemory;

  const { filter } = input;
  const { statement, statistics } = await statementsFor(deps, input);
  let text: TextMatch | null = null;
  let rows: PropertyRow[];
  if (filter.q) {
    text = await fullTextMatch(deps, filter.q, statistics.words);
    rows = text ? await rowsOf(deps, statement(text)) : [];
    const fuzzy = (rows[0]?.total ?? 0) === 0 ? fuzzyNameMatch(filter.q) : null;
    if (fuzzy) {
      text = fuzzy;
      rows = await rowsOf(deps, statement(fuzzy));
    }
    if (!text) return emptyPage();
  } else {
    rows = await rowsOf(deps, statement(null));
  }

  return pageOf(
    input,
    rows[0]?.total ?? 0,
    rows.filter((row) => row.id !== null),
    text,
  );
}

/** The page statement of a search through SQL, with the statistics it was planned from. */
async function statementsFor(deps: Deps, input: SearchInput) {
  const statistics = await sharesOf(deps);
  const knownIds = await fewFactsIds(deps, input.filter);
  return { ...searchStatements(input, statistics.facts, knownIds), statistics };
}

function travelOf(input: SearchInput) {
  const { filter } = input;
  const pageSize = input.pageSize ?? filter.limit ?? CATALOGUE_PAGE_SIZE;
  const isBackward = filter.before !== undefined && filter.after === undefined;
  return { pageSize, isBackward, cursor: isBackward ? filter.before : filter.after };
}

/** The estates of `ids` with their text and images, in the order of `ids`: one statement. */
async function rowsInOrder(
  deps: Deps,
  input: SearchInput,
  ids: readonly number[],
): Promise<PropertyRow[]> {
  if (ids.length === 0) return [];
  const read = await readRows(deps, input.language, inArray(properties.id, [...ids]), {
    images: input.images,
  });
  const byId = new Map(read.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * A search with filters alone (no text, no dates), answered by the facts index when this
 * instance has one and it is ready (decision 0028): the page's ids and the capped count from
 * memory, then one statement for the page's estates by id. Null when SQL must answer.
 */
async function searchFactsIndex(
  deps: Deps,
  input: SearchInput,
): Promise<{ counted: number; rows: PropertyRow[] } | null> {
  const { filter } = input;
  if (!deps.factsIndex || filter.q || (filter.checkIn && filter.checkOut)) return null;
  const { pageSize, isBackward, cursor } = travelOf(input);
  const match = await deps.factsIndex.search({
    filter,
    cursorId: cursor?.id,
    isBackward,
    // One more than a page tells whether another page lies in the direction of travel.
    limit: pageSize + 1,
    cap: CATALOGUE_TOTAL_CAP,
  });
  if (!match) return null;
  return { counted: match.total, rows: await rowsInOrder(deps, input, match.ids) };
}

/**
 * A search with text and no dates whose words the facts index holds (decision 0040): the
 * matches are counted in memory. Within the cap, they are the ids the page statement scores
 * and sorts by relevance, probed by primary key; past it, the page's ids in catalogue order
 * come from memory too and one statement reads their estates. When nothing matches, the names
 * are tried for a typo, as through SQL. Null when SQL must answer.
 */
async function searchWordsIndex(deps: Deps, input: SearchInput): Promise<CataloguePage | null> {
  const { filter } = input;
  if (!deps.factsIndex || !filter.q || (filter.checkIn && filter.checkOut)) return null;
  const words = await wordsInMemory(deps, filter.q);
  if (!words) return null;
  const { pageSize, isBackward, cursor } = travelOf(input);
  const match = await deps.factsIndex.searchText({
    filter,
    words,
    cursorId: cursor?.id,
    isBackward,
    limit: pageSize + 1,
    cap: CATALOGUE_TOTAL_CAP,
    withAll: true,
  });
  if (!match) return null;
  const statistics = await sharesOf(deps);
  if (match.total === 0) {
    const fuzzy = fuzzyNameMatch(filter.q);
    if (!fuzzy) return emptyPage();
    const { statement } = searchStatements(input, statistics.facts, undefined);
    const rows = await rowsOf(deps, statement(fuzzy));
    return pageOf(
      input,
      rows[0]?.total ?? 0,
      rows.filter((row) => row.id !== null),
      fuzzy,
    );
  }
  const text = await fullTextMatch(deps, filter.q, statistics.words);
  if (!text) return null;
  if (match.all) {
    const { statement } = searchStatements(input, statistics.facts, match.all);
    const rows = await rowsOf(deps, statement(text));
    return pageOf(
      input,
      rows[0]?.total ?? 0,
      rows.filter((row) => row.id !== null),
      text,
    );
  }
  return pageOf(input, match.total, await rowsInOrder(deps, input, match.ids), text);
}

/**
 * The candidates a date search probes next to count past the cap: the free estates still
 * wanted, over the share of those probed so far that were free, with a margin, so that a
 * second batch is rarely needed and a third almost never.
 */
function nextDatedBatch(free: number, probed: number): number {
  const wanted = CATALOGUE_TOTAL_CAP + 1 - free;
  const share = probed === 0 ? 0.8 : Math.max(free / probed, 0.02);
  return Math.min(Math.max(Math.ceil((wanted / share) * 1.15), 64), 50_000);
}

/** Of `ids`, those free for every night of the stay, in the order given: a probe each. */
async function freeAmong(
  deps: Deps,
  ids: readonly number[],
  checkIn: string,
  checkOut: string,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const result = await deps.db.execute(sql`
    select c.id from unnest(${`{${ids.join(",")}}`}::int[]) with ordinality as c(id, n)
    where ${freeNightsCondition(sql`c.id`, checkIn, checkOut)}
    order by c.n`);
  return (result as unknown as { rows: { id: number }[] }).rows.map((row) => row.id);
}

/**
 * A search with dates whose filters and words the facts index holds: the estates matching
 * them come from memory in id order, and only those are probed for the nights, a batch at a
 * time until the count passes the cap or they run out. The count costs about as many probes
 * as it counts (a free estate ends a probe at once), whatever the filters, where SQL would
 * first find the filters' estates through the GIN index or a walk. Within the cap, the free
 * estates are all known: the page is taken from them (scored by the page statement with
 * text). Past it, the page's candidates from the cursor are probed the same way. Null when
 * SQL must answer.
 */
async function searchDatesInMemory(deps: Deps, input: SearchInput): Promise<CataloguePage | null> {
  const { filter } = input;
  const index = deps.factsIndex;
  const { checkIn, checkOut } = filter;
  if (!index || !checkIn || !checkOut) return null;
  // Dates alone: every estate is a candidate, and a walk of the catalogue probing each one
  // is the same work in one statement.
  if (!filter.q && factsTerms(filter).terms.length === 0) return null;
  const words = filter.q ? await wordsInMemory(deps, filter.q) : null;
  if (filter.q && !words) return null;
  const candidates = (cursorId: number | undefined, isBackward: boolean, limit: number) => {
    const asked = { filter, cursorId, isBackward, limit, cap: 0 };
    return words ? index.searchText({ ...asked, words }) : index.search(asked);
  };

  const free: number[] = [];
  let isEveryOneProbed = false;
  let lastProbed = 0;
  for (let probed = 0; ;) {
    const batch = nextDatedBatch(free.length, probed);
    const match = await candidates(lastProbed || undefined, false, batch);
    if (!match) return null;
    free.push(...(await freeAmong(deps, match.ids, checkIn, checkOut)));
    probed += match.ids.length;
    lastProbed = match.ids.at(-1) ?? lastProbed;
    if (match.ids.length < batch) isEveryOneProbed = true;
    if (isEveryOneProbed || free.length > CATALOGUE_TOTAL_CAP) break;
  }
  const total = Math.min(free.length, CATALOGUE_TOTAL_CAP + 1);
  const { pageSize, isBackward, cursor } = travelOf(input);
  const limit = pageSize + 1;

  if (total <= CATALOGUE_TOTAL_CAP && filter.q) {
    // Scored and sorted by the page statement, among the free estates alone.
    const statistics = await sharesOf(deps);
    const text = await fullTextMatch(deps, filter.q, statistics.words);
    if (!text) return null;
    const undated = { ...input, filter: { ...filter, checkIn: undefined, checkOut: undefined } };
    const { statement } = searchStatements(undated, statistics.facts, free);
    const rows = await rowsOf(deps, statement(text));
    return pageOf(
      input,
      rows[0]?.total ?? 0,
      rows.filter((row) => row.id !== null),
      text,
    );
  }

  // The page's ids in the direction of travel. The free estates found while counting are
  // every free one up to the last candidate probed; past that, candidates are probed on.
  const beyond = (id: number) => (!cursor ? true : isBackward ? id < cursor.id : id > cursor.id);
  let ids = (isBackward ? [...free].reverse() : free).filter(beyond).slice(0, limit);
  const isComplete = isBackward
    ? isEveryOneProbed || (cursor !== undefined && cursor.id <= lastProbed + 1)
    : isEveryOneProbed || ids.length === limit;
  if (!isComplete) {
    let from = isBackward ? cursor?.id : Math.max(cursor?.id ?? 0, lastProbed);
    if (isBackward) ids = [];
    for (let batch = limit * 4; ids.length < limit; batch *= 2) {
      const match = await candidates(from, isBackward, batch);
      if (!match) return null;
      ids.push(...(await freeAmong(deps, match.ids, checkIn, checkOut)));
      if (match.ids.length < batch) break;
      from = match.ids.at(-1);
    }
    ids = ids.slice(0, limit);
  }
  // Past the cap, or without text, the page is in catalogue order: no relevance to score.
  return pageOf(input, total, await rowsInOrder(deps, input, ids), null);
}

/**
 * The page from what a search found: `counted` matches (capped), `found` in the direction of
 * travel (one more than a page when another page lies that way).
 */
function pageOf(
  input: SearchInput,
  counted: number,
  found: PropertyRow[],
  text: TextMatch | null,
): CataloguePage {
  const { filter } = input;
  const { pageSize, isBackward } = travelOf(input);
  const ordered = isBackward ? found.reverse() : found;
  const hasMore = ordered.length > pageSize;
  const page = isBackward ? ordered.slice(hasMore ? 1 : 0) : ordered.slice(0, pageSize);
  const cursorOf = (row: PropertyRow | undefined) =>
    row ? formatCursor({ id: row.id as number, score: row.score ?? undefined }) : null;
  const hasNext = isBackward ? true : hasMore;
  const hasPrevious = isBackward ? hasMore : filter.after !== undefined;
  return {
    properties: page.map(toProperty),
    total: Math.min(counted, CATALOGUE_TOTAL_CAP),
    isTotalCapped: counted > CATALOGUE_TOTAL_CAP,
    order: text && counted <= CATALOGUE_TOTAL_CAP ? "relevance" : "catalogue",
    nextAfter: hasNext ? cursorOf(page.at(-1)) : null,
    previousBefore: hasPrevious ? cursorOf(page[0]) : null,
  };
}

/**
 * The plans (EXPLAIN ANALYZE, FORMAT JSON) of the statements `searchProperties` sends for this
 * input: the page, and the names fallback when the words match nothing. For the plan checks of
 * the tests and the bench; it runs each statement once more to time it.
 */
export async function explainSearchProperties(
  deps: Deps,
  input: SearchInput,
): Promise<{ Plan: PlanNode; "Execution Time"?: number }[][]> {
  const { statement, statistics } = await statementsFor(deps, input);
  const q = input.filter.q;
  const statements: SQL[] = [];
  if (!q) {
    statements.push(statement(null));
  } else {
    const text = await fullTextMatch(deps, q, statistics.words);
    if (text) statements.push(statement(text));
    const fuzzy = fuzzyNameMatch(q);
    const isMiss = !text || ((await rowsOf(deps, statement(text)))[0]?.total ?? 0) === 0;
    if (fuzzy && isMiss) statements.push(statement(fuzzy));
  }
  const plans: { Plan: PlanNode; "Execution Time"?: number }[][] = [];
  for (const page of statements) {
    const result = await deps.db.execute(sql`explain (analyze, format json) ${page}`);
    const [row] = (result as unknown as { rows: Record<string, unknown>[] }).rows;
    const plan = row?.["QUERY PLAN"];
    const parsed: unknown = typeof plan === "string" ? JSON.parse(plan) : plan;
    plans.push(parsed as (typeof plans)[number]);
  }
  return plans;
}

function emptyPage(): CataloguePage {
  return {
    properties: [],
    total: 0,
    isTotalCapped: false,
    order: "catalogue",
    nextAfter: null,
    previousBefore: null,
  };
}

/** What a catalogue card shows of an estate: a page of cards ships no more than this. */
export type PropertyCardData = Pick<
  Property,
  "id" | "slug" | "name" | "location" | "bedrooms" | "summary" | "membersOnly" | "images"
>;

/**
 * An estate as its card shows it, with its first `maxImages` images (all by default). A page's
 * data travels twice (in the HTML and for hydration), so the fields no card shows stay behind.
 */
export function toPropertyCard(property: Property, maxImages?: number): PropertyCardData {
  const { id, slug, name, location, bedrooms, summary, membersOnly, images } = property;
  return {
    id,
    slug,
    name,
    location,
    bedrooms,
    summary,
    membersOnly,
    images: maxImages === undefined ? images : images.slice(0, maxImages),
  };
}

/** Every property of the network, in catalogue order, in one language (the spec's full list). */
export function listProperties(
  deps: Deps,
  input: { language: Language } & ReadOptions,
): Promise<Property[]> {
  return readProperties(deps, input.language, undefined, { images: input.images });
}

/**
 * One property by numeric id or by slug. The slug may be given in the spec's raw form (name
 * lowercased, spaces to hyphens, accents kept): it is normalised the same way.
 * @throws NotFoundError when nothing matches.
 */
export async function getProperty(
  deps: Deps,
  input: { idOrSlug: string; language: Language },
): Promise<Property> {
  const [property] = await readProperties(deps, input.language, propertyWhere(input.idOrSlug));
  if (!property) throw new NotFoundError("errors.propertyNotFound");
  return property;
}

/** An estate named by its id or its slug (as a visitor may write it), for a where clause. */
function propertyWhere(idOrSlug: string) {
  const raw = idOrSlug.trim();
  return /^\d{1,9}$/.test(raw)
    ? eq(properties.id, Number(raw))
    : eq(properties.slug, slugify(decodeURIComponentSafe(raw)));
}

/** The id of the estate `getProperty` would answer (members-only ones included), or null. */
export async function findPropertyId(deps: Deps, idOrSlug: string): Promise<number | null> {
  const [row] = await deps.db
    .select({ id: properties.id })
    .from(properties)
    .where(propertyWhere(idOrSlug))
    .limit(1);
  return row?.id ?? null;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The first image of the first estate: the site's default link-preview picture. */
export async function getFeaturedImage(deps: Deps): Promise<PropertyImage | null> {
  const [image] = await deps.db
    .select({ key: propertyImages.key, width: propertyImages.width, height: propertyImages.height })
    .from(propertyImages)
    .where(isNotNull(propertyImages.selectedRank))
    .orderBy(asc(propertyImages.propertyId), asc(propertyImages.selectedRank))
    .limit(1);
  return image ?? null;
}

/** The properties with these slugs, in the order given (unknown slugs are skipped). */
export async function listPropertiesBySlug(
  deps: Deps,
  input: { slugs: string[]; language: Language },
): Promise<Property[]> {
  const found = await readProperties(deps, input.language, inArray(properties.slug, input.slugs));
  return input.slugs.flatMap((slug) => found.filter((property) => property.slug === slug));
}
