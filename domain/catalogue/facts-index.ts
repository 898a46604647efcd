/**
 * The catalogue's facts in this process's memory, as a bitset per lexeme over the estates in
 * id order (decision 0028). A search with filters alone (no text, no dates) is answered here:
 * the bitsets of its terms are intersected a word (32 estates) at a time, so "France, tennis,
 * wine, spa, members only" over a million estates is a pass over 31,250 words of five sets,
 * whatever each fact's share, where a GIN index must decode every entry of each common fact.
 * The database keeps the truth: the lexemes are the `facts` column it computes
 * (search-facts.ts), and the page's estates are then read from it by id.
 *
 * The index follows the catalogue's change notifications (catalogue-changes.ts): it is built
 * when this instance starts listening, re-reads the estates a notification names before the
 * next search, is rebuilt after a change that names none, and is off (searches go to SQL)
 * while it builds or while the listener is lost. The database announces every change of an
 * estate's facts itself (migration 0021), so no writer can leave it stale.
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
}

export interface FactsMatch {
  /** In the direction of travel: ascending forward, descending backward. */
  ids: number[];
  /** How many estates match over the whole catalogue, up to `cap + 1`. */
  total: number;
}

export type FactsIndexState = "off" | "building" | "ready";

interface Row {
  id: number;
  lexemes: string[];
  guest_capacity: number;
  bedrooms: number;
}

/** The estates' facts, position by position (positions in ascending id). */
class Store {
  ids: Int32Array;
  guests: Int32Array;
  bedrooms: Int32Array;
  /** Set for an estate that exists (a deleted one keeps its position, unset). */
  alive: Uint32Array;
  lexemes = new Map<string, Uint32Array>();
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

  /** Unsets every bit of a position: the estate is gone. */
  clear(position: number): void {
    clearBit(this.alive, position);
    for (const set of this.lexemes.values()) clearBit(set, position);
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
  }

  /** Bytes held (for the bench and the ops page). */
  get bytes(): number {
    // ids, guests and bedrooms; then the bitsets: alive and one per lexeme.
    return this.ids.byteLength * 3 + this.alive.byteLength * (1 + this.lexemes.size);
  }
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

/** The filter compiled against a store: the word of matching estates at any word index. */
function compile(store: Store, filter: CatalogueFilter) {
  const { terms, guestsAtLeast, bedroomsAtLeast } = factsTerms(filter);
  // Each term is any of its lexemes; a lexeme no estate has drops out of the term.
  const sets = terms.map((term) =>
    term.flatMap((lexeme) => {
      const set = store.lexemes.get(lexeme);
      return set ? [set] : [];
    }),
  );
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

function search(store: Store, input: FactsSearch): FactsMatch {
  const { isEmpty, wordAt, isExact, fits } = compile(store, input.filter);
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
  return { ids, total: Math.min(total, input.cap + 1) };
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
  get stats(): { estates: number; lexemes: number; bytes: number } {
    const store = this.#store;
    return {
      estates: store?.size ?? 0,
      lexemes: store?.lexemes.size ?? 0,
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
    try {
      await this.#sync();
    } catch (error) {
      this.#deps.log.warn({ err: error }, "facts index could not re-read changed estates");
      return null;
    }
    const store = this.#store;
    if (this.#state !== "ready" || !store) return null;
    return search(store, input);
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
    this.#store = store;
    this.#state = "ready";
    this.#deps.log.info(
      { estates: store.size, ms: Math.round(performance.now() - started), bytes: store.bytes },
      "facts index built",
    );
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
    const rows = await readRows(this.#deps, sql`where id = any(${`{${ids.join(",")}}`}::int[])`);
    const store = this.#store;
    if (epoch !== this.#epoch || !store) return;
    const found = new Map(rows.map((row) => [row.id, row]));
    const added: Row[] = [];
    for (const id of ids) {
      const row = found.get(id);
      const position = store.positionOf(id);
      if (position >= 0) {
        if (row) store.write(position, row);
        else store.clear(position);
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
    for (const row of added) store.append(row);
  }
}
