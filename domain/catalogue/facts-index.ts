/**
 * The catalogue's facts in this process's memory, as a bitset per lexeme over the estates in
 * id order (decision 0028). A search with filters alone (no text, no dates) is answered here:
 * the bitsets of its terms are intersected a word (32 estates) at a time, so "France, tennis,
 * wine, spa, members only" over a million estates is a pass over 31,250 words of five sets,
 * whatever each fact's share, where a GIN index must decode every entry of each common fact.
 * The database keeps the truth: the lexemes are the `facts` column it computes
 * (search-facts.ts), and the page's estates are then read from it by id.
 *
 * The words of `property_search` that many estates share ("castle", "villa", "pool": those in
 * at least WORD_SHARE of them) are kept beside the facts the same way (decision 0040), so that a
 * common word with or without filters is an intersection too, where a GIN index would decode
 * every entry of the word. Rarer words are left to the GIN index, which finds their few
 * estates fast; a word with a common and a rare form (the English and the plain one) takes the
 * rare form's estates from the index and the common one's from memory.
 *
 * The index follows the catalogue's change notifications (catalogue-changes.ts): it is built
 * when this instance starts listening, re-reads the estates a notification names before the
 * next search, is rebuilt after a change that names none, and is off (searches go to SQL)
 * while it builds or while the listener is lost. The database announces every change of an
 * estate's facts (migration 0021) and of its words (migration 0032) itself, so no writer can
 * leave it stale.
 */
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "#db/client.ts";

/**
 * What the index reads with: the database and the log. Named here rather than picked from Deps,
 * which carries the index itself.
 */
interface IndexDeps {
  db: Database;
  log: Logger;
}
import type { CatalogueFilter } from "./catalogue-filter.schema.ts";
import { factsTerms } from "./search-facts.ts";

/** Estates read per statement while building (about 3 MB of rows in flight). */
const BUILD_BATCH = 50_000;

/**
 * A word (a lexeme of `property_search.search_vector`) in at least this share of the estates is
 * kept in memory, the commonest first, as long as their bitsets (one bit per estate: 125 KB
 * at a million) fit in WORD_SETS_BYTES. Below it, the GIN index reads a word's estates faster
 * than a walk finds them, and a page of them costs a few milliseconds. The generated catalogue
 * of the bench has 962 such words at a million estates: 117 MB.
 */
const WORD_SHARE = 0.005;
const WORD_SETS_BYTES = 128 * 2 ** 20;

/**
 * A rarer word's estates are read from the GIN index the first time a search asks for it (a
 * few thousand at most, as the common ones are kept), then kept as a sorted list of positions
 * and followed by the re-reads like the bitsets, the lists last asked for first, up to
 * RARE_LISTS_BYTES together: estates' names are searched again and again.
 */
const RARE_LISTS_BYTES = 16 * 2 ** 20;

/** A rare form counted in more estates than this (re-reads only add) is left to SQL. */
const RARE_FORMS_MAX = 20_000;

/** What a search asks: a page of ids after or before a cursor, and a count up to a cap. */
export interface FactsSearch {
  filter: CatalogueFilter;
  /** Ids above this (forward) or below it (backward); from the start or end without one. */
  cursorId?: number;
  isBackward: boolean;
  /** At most this many ids, in the direction of travel. */
  limit: number;
  /** The count stops past this. */
  cap: number;
  /** Also every matching id in ascending order, when they are no more than `cap`. */
  withAll?: boolean;
}

/** A search with text: each word is any of its forms (lexemes), and every word must match. */
export interface WordsSearch extends FactsSearch {
  words: readonly (readonly string[])[];
}

export interface FactsMatch {
  /** In the direction of travel: ascending forward, descending backward. */
  ids: number[];
  /** How many estates match over the whole catalogue, up to `cap + 1`. */
  total: number;
  /** Every match in ascending id, when asked for (`withAll`) and no more than `cap`. */
  all?: number[];
}

export type FactsIndexState = "off" | "building" | "ready";

interface Row {
  id: number;
  lexemes: string[];
  guest_capacity: number;
  bedrooms: number;
}

interface WordsRow {
  id: number;
  /** The estate's words that the store keeps, or all of them on a re-read. */
  words: string[] | null;
}

/** The estates' facts, position by position (positions in ascending id). */
class Store {
  ids: Int32Array;
  guests: Int32Array;
  bedrooms: Int32Array;
  /** Set for an estate that exists (a deleted one keeps its position, unset). */
  alive: Uint32Array;
  lexemes = new Map<string, Uint32Array>();
  /** The common words' bitsets (WORD_SHARE): fixed at build, kept exact by re-reads. */
  words = new Map<string, Uint32Array>();
  /**
   * Every other word of the catalogue, with the estates it was in when counted (re-reads only
   * add): a form missing from both maps is in no estate, one found here is rare.
   */
  rareWords = new Map<string, number>();
  /** Rare words' estates read so far: sorted positions, the last asked for at the end. */
  rareLists = new Map<string, Int32Array>();
  rareListsBytes = 0;
  /** Bumped by every re-read, so a rare list read meanwhile is not kept (it may be stale). */
  version = 0;
  size = 0;

  constructor(capacity: number) {
    this.ids = new Int32Array(capacity);
    this.guests = new Int32Array(capacity);
    this.bedrooms = new Int32Array(capacity);
    this.alive = new Uint32Array(wordsFor(capacity));
  }

  get capacity(): number {
    return this.ids.length;
  }

  /** The position of `id`, or -1. */
  positionOf(id: number): number {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = this.ids[middle]!;
      if (value === id) return middle;
      if (value < id) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** The first position whose id is above `id` (`size` when none is). */
  firstAbove(id: number): number {
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.ids[middle]! <= id) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  append(row: Row): void {
    if (this.size === this.capacity) this.grow(this.capacity * 2);
    const position = this.size++;
    this.ids[position] = row.id;
    this.write(position, row);
  }

  /** Writes an estate's facts at its position, replacing what was there. */
  write(position: number, row: Row): void {
    this.clear(position);
    this.guests[position] = row.guest_capacity;
    this.bedrooms[position] = row.bedrooms;
    setBit(this.alive, position);
    for (const lexeme of row.lexemes) {
      let set = this.lexemes.get(lexeme);
      if (!set) this.lexemes.set(lexeme, (set = new Uint32Array(this.alive.length)));
      setBit(set, position);
    }
  }

  /**
   * Writes an estate's words at its position: the common ones' bits, the rare lists kept, and
   * the count of the rest.
   */
  writeWords(position: number, words: readonly string[]): void {
    this.version++;
    for (const set of this.words.values()) clearBit(set, position);
    const has = new Set(words);
    for (const [word, list] of this.rareLists) {
      const updated = withPosition(list, position, has.has(word));
      if (updated !== list) {
        this.rareListsBytes += updated.byteLength - list.byteLength;
        this.rareLists.set(word, updated);
      }
    }
    for (const word of words) {
      const set = this.words.get(word);
      if (set) setBit(set, position);
      else this.rareWords.set(word, (this.rareWords.get(word) ?? 0) + 1);
    }
  }

  /** Keeps a rare word's positions, dropping the lists asked for longest ago past the budget. */
  keepRare(word: string, positions: Int32Array): void {
    const old = this.rareLists.get(word);
    if (old) this.rareListsBytes -= old.byteLength;
    this.rareLists.delete(word);
    this.rareLists.set(word, positions);
    this.rareListsBytes += positions.byteLength;
    for (const [oldest, list] of this.rareLists) {
      if (this.rareListsBytes <= RARE_LISTS_BYTES) break;
      this.rareLists.delete(oldest);
      this.rareListsBytes -= list.byteLength;
    }
  }

  /** A rare word's kept positions, now the last asked for; undefined when not kept. */
  rareList(word: string): Int32Array | undefined {
    const list = this.rareLists.get(word);
    if (list) {
      this.rareLists.delete(word);
      this.rareLists.set(word, list);
    }
    return list;
  }

  /** Unsets every bit of a position: the estate is gone. */
  clear(position: number): void {
    clearBit(this.alive, position);
    for (const set of this.lexemes.values()) clearBit(set, position);
    this.writeWords(position, []);
  }

  private grow(capacity: number): void {
    const grown = (from: Int32Array) => {
      const to = new Int32Array(capacity);
      to.set(from);
      return to;
    };
    this.ids = grown(this.ids);
    this.guests = grown(this.guests);
    this.bedrooms = grown(this.bedrooms);
    const words = wordsFor(capacity);
    const wider = (from: Uint32Array) => {
      const to = new Uint32Array(words);
      to.set(from);
      return to;
    };
    this.alive = wider(this.alive);
    for (const [lexeme, set] of this.lexemes) this.lexemes.set(lexeme, wider(set));
    for (const [word, set] of this.words) this.words.set(word, wider(set));
  }

  /** Bytes held (for the bench and the ops page). */
  get bytes(): number {
    // ids, guests and bedrooms; the bitsets: alive, one per fact and one per common word;
    // the rare words' lists.
    return (
      this.ids.byteLength * 3 +
      this.alive.byteLength * (1 + this.lexemes.size + this.words.size) +
      this.rareListsBytes
    );
  }
}

/** `list` with `position` in it or not (a new array when that changes it). */
function withPosition(list: Int32Array, position: number, isIn: boolean): Int32Array {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]! < position) low = middle + 1;
    else high = middle;
  }
  const found = list[low] === position;
  if (found === isIn) return list;
  const updated = new Int32Array(list.length + (isIn ? 1 : -1));
  updated.set(list.subarray(0, low));
  if (isIn) {
    updated[low] = position;
    updated.set(list.subarray(low), low + 1);
  } else updated.set(list.subarray(low + 1), low);
  return updated;
}

function wordsFor(capacity: number): number {
  return Math.ceil(capacity / 32);
}

function setBit(set: Uint32Array, position: number): void {
  set[position >>> 5]! |= 1 << (position & 31);
}

function clearBit(set: Uint32Array, position: number): void {
  set[position >>> 5]! &= ~(1 << (position & 31));
}

function popcount(word: number): number {
  let bits = word - ((word >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (((bits + (bits >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The filter compiled against a store: the word of matching estates at any word index. `also`
 * are more terms, each one set (a word of the text, its forms already joined).
 */
function compile(store: Store, filter: CatalogueFilter, also: readonly Uint32Array[] = []) {
  const { terms, guestsAtLeast, bedroomsAtLeast } = factsTerms(filter);
  // Each term is any of its lexemes; a lexeme no estate has drops out of the term.
  const sets = [
    ...terms.map((term) =>
      term.flatMap((lexeme) => {
        const set = store.lexemes.get(lexeme);
        return set ? [set] : [];
      }),
    ),
    ...also.map((set) => [set]),
  ];
  const isEmpty = sets.some((term) => term.length === 0);
  const { alive, guests, bedrooms } = store;
  const wordAt = (index: number): number => {
    let word = alive[index]!;
    for (let t = 0; t < sets.length && word !== 0; t++) {
      const term = sets[t]!;
      let any = 0;
      for (let l = 0; l < term.length; l++) any |= term[l]![index]!;
      word &= any;
    }
    return word | 0;
  };
  const isExact = guestsAtLeast !== undefined || bedroomsAtLeast !== undefined;
  const fits = (position: number) =>
    (guestsAtLeast === undefined || guests[position]! >= guestsAtLeast) &&
    (bedroomsAtLeast === undefined || bedrooms[position]! >= bedroomsAtLeast);
  return { isEmpty, wordAt, isExact, fits };
}

function search(store: Store, input: FactsSearch, also?: readonly Uint32Array[]): FactsMatch {
  const { isEmpty, wordAt, isExact, fits } = compile(store, input.filter, also);
  if (isEmpty || store.size === 0) return { ids: [], total: 0 };
  const words = wordsFor(store.size);

  let total = 0;
  for (let index = 0; index < words && total <= input.cap; index++) {
    let word = wordAt(index);
    if (!isExact) {
      total += popcount(word);
      continue;
    }
    while (word !== 0) {
      const bit = 31 - Math.clz32(word);
      word &= ~(1 << bit);
      if (fits(index * 32 + bit)) total++;
    }
  }

  const ids: number[] = [];
  if (!input.isBackward) {
    const start = input.cursorId === undefined ? 0 : store.firstAbove(input.cursorId);
    for (let index = start >>> 5; index < words && ids.length < input.limit; index++) {
      let word = wordAt(index);
      if (index === start >>> 5) word &= ~0 << (start & 31);
      while (word !== 0 && ids.length < input.limit) {
        const bit = 31 - Math.clz32(word & -word);
        word &= word - 1;
        const position = index * 32 + bit;
        if (fits(position)) ids.push(store.ids[position]!);
      }
    }
  } else {
    // The last position below the cursor, walking down.
    const end =
      (input.cursorId === undefined ? store.size : store.firstAbove(input.cursorId - 1)) - 1;
    for (let index = end >> 5; index >= 0 && ids.length < input.limit; index--) {
      let word = wordAt(index);
      if (index === end >> 5 && (end & 31) !== 31) word &= (1 << ((end & 31) + 1)) - 1;
      while (word !== 0 && ids.length < input.limit) {
        const bit = 31 - Math.clz32(word);
        word &= ~(1 << bit);
        const position = index * 32 + bit;
        if (fits(position)) ids.push(store.ids[position]!);
      }
    }
  }
  let all: number[] | undefined;
  if (input.withAll && total <= input.cap) {
    all = [];
    for (let index = 0; index < words; index++) {
      let word = wordAt(index);
      while (word !== 0) {
        const bit = 31 - Math.clz32(word & -word);
        word &= word - 1;
        const position = index * 32 + bit;
        if (fits(position)) all.push(store.ids[position]!);
      }
    }
  }
  return { ids, total: Math.min(total, input.cap + 1), ...(all ? { all } : {}) };
}

async function readRows(
  deps: Pick<IndexDeps, "db">,
  where: ReturnType<typeof sql>,
): Promise<Row[]> {
  const result = await deps.db.execute(sql`
    select id, tsvector_to_array(facts) as lexemes, guest_capacity, bedrooms
    from properties ${where}`);
  return (result as unknown as { rows: Row[] }).rows;
}

/** An array literal of text for a statement's parameter. */
function textArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
}

/** A tsquery (its text) that any of these lexemes matches. */
function anyOf(lexemes: readonly string[]): string {
  return lexemes
    .map((lexeme) => `'${lexeme.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`)
    .join(" | ");
}

/** Every word of the catalogue's text and the number of estates it is in. */
async function readVocabulary(
  deps: Pick<IndexDeps, "db">,
): Promise<{ word: string; estates: number }[]> {
  const result = await deps.db.execute(sql`
    select word, ndoc as estates from ts_stat('select search_vector from property_search')`);
  return (result as unknown as { rows: { word: string; estates: number }[] }).rows;
}

/**
 * The estates' words among `kept`, a batch in id order after `after`. The filter runs in the
 * database (a hashed lookup per word), so only the kept words travel.
 */
async function readKeptWords(
  deps: Pick<IndexDeps, "db">,
  kept: readonly string[],
  after: number,
): Promise<WordsRow[]> {
  const result = await deps.db.execute(sql`
    select property_id as id,
      array(select w from unnest(tsvector_to_array(search_vector)) w
        where w = any(${textArray(kept)}::text[])) as words
    from property_search where property_id > ${after}
    order by property_id limit ${BUILD_BATCH}`);
  return (result as unknown as { rows: WordsRow[] }).rows;
}

/** The facts index of one instance. Create it off; the catalogue listener turns it on. */
export class FactsIndex {
  #deps: IndexDeps;
  #store: Store | null = null;
  #state: FactsIndexState = "off";
  /** Bumped whenever what is being built or kept is dropped, so a stale build discards itself. */
  #epoch = 0;
  #building: Promise<void> | undefined;
  /** Estates named by notifications and not yet re-read. */
  #pending = new Set<number>();
  #syncing: Promise<void> | undefined;

  constructor(deps: IndexDeps) {
    this.#deps = deps;
  }

  get state(): FactsIndexState {
    return this.#state;
  }

  /** Estates indexed and bytes held, for the bench and the logs. */
  get stats(): { estates: number; lexemes: number; words: number; bytes: number } {
    const store = this.#store;
    return {
      estates: store?.size ?? 0,
      lexemes: store?.lexemes.size ?? 0,
      words: store?.words.size ?? 0,
      bytes: store?.bytes ?? 0,
    };
  }

  /** The listener listens (again): everything may have changed since, so build afresh. */
  start(): Promise<void> {
    const epoch = ++this.#epoch;
    this.#state = "building";
    this.#store = null;
    this.#pending.clear();
    const building = this.#build(epoch).catch((error: unknown) => {
      if (epoch !== this.#epoch) return;
      this.#state = "off";
      this.#deps.log.warn({ err: error }, "facts index build failed; searches use SQL");
    });
    this.#building = building;
    return building;
  }

  /** The listener is lost: changes may go unheard, so searches go to SQL until `start`. */
  stop(): void {
    this.#epoch++;
    this.#state = "off";
    this.#store = null;
    this.#pending.clear();
  }

  /** A committed change: re-read these estates before the next search, or rebuild for all. */
  changed(propertyIds: readonly number[] | undefined): void {
    if (this.#state === "off") return;
    if (!propertyIds) {
      void this.start();
      return;
    }
    for (const id of propertyIds) this.#pending.add(id);
  }

  /** Resolves when the build under way (if any) has ended. */
  async settled(): Promise<void> {
    while (this.#building) {
      const building = this.#building;
      await building;
      if (this.#building === building) this.#building = undefined;
    }
  }

  /**
   * A page of ids and a capped count for a search with filters alone, or null when the index
   * cannot answer now (off, building, or a re-read failed): the caller asks SQL.
   */
  async search(input: FactsSearch): Promise<FactsMatch | null> {
    if (this.#state !== "ready") return null;
    const store = await this.#readyStore();
    if (!store) return null;
    return search(store, input);
  }

  /**
   * A page of ids and a capped count for a search with text (each word any of its forms) and
   * filters, or null when SQL should answer: the index is not ready, or a rare form was
   * counted in too many estates to read.
   */
  async searchText(input: WordsSearch): Promise<FactsMatch | null> {
    if (this.#state !== "ready" || input.words.length === 0) return null;
    const store = await this.#readyStore();
    if (!store) return null;
    if (
      input.words.some((forms) =>
        forms.some((form) => (store.rareWords.get(form) ?? 0) > RARE_FORMS_MAX),
      )
    )
      return null;
    const sets: Uint32Array[] = [];
    for (const forms of input.words) {
      const common = forms.flatMap((form) => store.words.get(form) ?? []);
      const rare = forms.filter((form) => store.rareWords.has(form) || store.rareLists.has(form));
      if (common.length === 1 && rare.length === 0) {
        sets.push(common[0]!);
        continue;
      }
      const set = new Uint32Array(store.alive.length);
      for (const from of common) for (let i = 0; i < set.length; i++) set[i]! |= from[i]!;
      for (const form of rare) {
        const positions = store.rareList(form) ?? (await this.#readRare(store, form));
        if (!positions || this.#store !== store || this.#state !== "ready") return null;
        for (const position of positions) setBit(set, position);
      }
      sets.push(set);
    }
    return search(store, input, sets);
  }

  /**
   * A rare word's positions from the GIN index, kept unless an estate was re-read meanwhile
   * (the list may have missed that change; the next search reads it again).
   */
  async #readRare(store: Store, word: string): Promise<Int32Array | null> {
    const version = store.version;
    const result = await this.#deps.db.execute(sql`
      select property_id as id from property_search where search_vector @@ ${anyOf([word])}::tsquery`);
    if (this.#store !== store) return null;
    const positions = Int32Array.from(
      (result as unknown as { rows: { id: number }[] }).rows
        .map(({ id }) => store.positionOf(id))
        .filter((position) => position >= 0),
    ).sort();
    if (store.version === version) store.keepRare(word, positions);
    return positions;
  }

  /** The store once the changes heard so far are re-read, or null when SQL must answer. */
  async #readyStore(): Promise<Store | null> {
    try {
      await this.#sync();
    } catch (error) {
      this.#deps.log.warn({ err: error }, "facts index could not re-read changed estates");
      return null;
    }
    return this.#state === "ready" ? this.#store : null;
  }

  async #build(epoch: number): Promise<void> {
    const started = performance.now();
    const counted = await this.#deps.db.execute(sql`select count(*)::int as n from properties`);
    const estimate = (counted as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
    const store = new Store(Math.max(1024, Math.ceil(estimate * 1.1)));
    let after = 0;
    for (;;) {
      const rows = await readRows(
        this.#deps,
        sql`where id > ${after} order by id limit ${BUILD_BATCH}`,
      );
      if (epoch !== this.#epoch) return;
      for (const row of rows) store.append(row);
      if (rows.length < BUILD_BATCH) break;
      after = rows.at(-1)!.id;
    }
    if (epoch !== this.#epoch) return;
    const factsMs = Math.round(performance.now() - started);
    await this.#buildWords(store, epoch);
    if (epoch !== this.#epoch) return;
    this.#store = store;
    this.#state = "ready";
    this.#deps.log.info(
      {
        estates: store.size,
        words: store.words.size,
        factsMs,
        ms: Math.round(performance.now() - started),
        bytes: store.bytes,
      },
      "facts index built",
    );
  }

  /** The common words' bitsets, and the count of every other word. */
  async #buildWords(store: Store, epoch: number): Promise<void> {
    const vocabulary = await readVocabulary(this.#deps);
    if (epoch !== this.#epoch) return;
    const least = Math.max(1, WORD_SHARE * store.size);
    const common = vocabulary
      .filter((entry) => entry.estates >= least)
      .sort((a, b) => b.estates - a.estates)
      .slice(0, Math.floor(WORD_SETS_BYTES / store.alive.byteLength));
    const kept = new Set(common.map((entry) => entry.word));
    for (const entry of vocabulary)
      if (!kept.has(entry.word)) store.rareWords.set(entry.word, entry.estates);
    if (!kept.size) return;
    for (const word of kept) store.words.set(word, new Uint32Array(store.alive.length));
    let after = 0;
    for (;;) {
      const rows = await readKeptWords(this.#deps, [...kept], after);
      if (epoch !== this.#epoch) return;
      for (const row of rows) {
        const position = store.positionOf(row.id);
        if (position < 0) continue;
        for (const word of row.words ?? []) setBit(store.words.get(word)!, position);
      }
      if (rows.length < BUILD_BATCH) break;
      after = rows.at(-1)!.id;
    }
  }

  /** Re-reads the estates notifications named, one statement for all of them. */
  async #sync(): Promise<void> {
    while (this.#pending.size > 0 || this.#syncing) {
      if (!this.#syncing) {
        const ids = [...this.#pending];
        this.#pending.clear();
        const epoch = this.#epoch;
        this.#syncing = this.#refresh(ids, epoch)
          .catch((error: unknown) => {
            if (epoch === this.#epoch) for (const id of ids) this.#pending.add(id);
            throw error;
          })
          .finally(() => {
            this.#syncing = undefined;
          });
      }
      await this.#syncing;
    }
  }

  async #refresh(ids: number[], epoch: number): Promise<void> {
    const named = `{${ids.join(",")}}`;
    const rows = await readRows(this.#deps, sql`where id = any(${named}::int[])`);
    const wordsRead = await this.#deps.db.execute(sql`
      select property_id as id, tsvector_to_array(search_vector) as words
      from property_search where property_id = any(${named}::int[])`);
    const store = this.#store;
    if (epoch !== this.#epoch || !store) return;
    const found = new Map(rows.map((row) => [row.id, row]));
    const words = new Map(
      (wordsRead as unknown as { rows: WordsRow[] }).rows.map((row) => [row.id, row.words ?? []]),
    );
    const added: Row[] = [];
    for (const id of ids) {
      const row = found.get(id);
      const position = store.positionOf(id);
      if (position >= 0) {
        if (row) {
          store.write(position, row);
          store.writeWords(position, words.get(id) ?? []);
        } else store.clear(position);
      } else if (row) added.push(row);
    }
    added.sort((a, b) => a.id - b.id);
    const last = store.size ? store.ids[store.size - 1]! : 0;
    if (added.length && added[0]!.id < last) {
      // An estate inside the range of ids (committed after a higher id): positions would
      // shift, so build afresh; searches go to SQL meanwhile.
      void this.start();
      return;
    }
    for (const row of added) {
      store.append(row);
      store.writeWords(store.size - 1, words.get(row.id) ?? []);
    }
  }
}
