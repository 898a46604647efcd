/**
 * `npm run bench:catalogue`: the catalogue search at scale. A generated catalogue
 * (tests/factories/generated-catalogue.ts) of 1,000,000 estates in four languages on PostgreSQL
 * and 10,000 on in-memory PGlite, then, on each:
 *
 * - the plan check: EXPLAIN ANALYZE of the page statement for every combination of the five
 *   filters, with no text, a common word, a rare name, Chinese and a typo, on page 1 and deep;
 *   a plan that reads more than a tenth of a catalogue table (a sequential scan that did not
 *   stop early, or an index walk filtering its way through the table) fails the bench (exit
 *   code 1). Enforced from 100,000 estates: on fewer, counting 1,001 rows is a tenth already;
 * - filtered searches, a keyset page of 24, from 16 concurrent callers for a few seconds (a
 *   mix of filters, texts and deep cursors, drawn once from a seeded generator): p50/p95/p99;
 *   then the same searches from one caller, which is what a search costs alone;
 * - a deep keyset walk (page 1 against page N, and a cursor near the end of the catalogue);
 * - what the /castles page loads: statements, rows returned, rows the database read;
 * - the date search (`checkIn`/`checkOut`) on calendars generated for every estate
 *   (tests/factories/generated-calendars.ts: stays and blocks over two years, 60% of estates
 *   empty, busy ones 35-45% taken): single-caller p95 over a mix of windows alone, with the
 *   other filters and with text (target <= 50 ms), and an EXPLAIN check that no plan reads
 *   calendar_entries sequentially (it fails the bench, at any size).
 *
 * The domain function is called in this process (no HTTP), so the figures are the database's
 * and the driver's; bench:speed measures the HTTP routes. Sizes and time:
 * BENCH_CATALOGUE_ESTATES (1000000), BENCH_CATALOGUE_PGLITE_ESTATES (10000),
 * BENCH_CATALOGUE_SECONDS (10 per backend), BENCH_CATALOGUE_CONCURRENCY (16). The PostgreSQL
 * database is `castellum_bench_catalogue` beside BENCH_DATABASE_URL (else TEST_DATABASE_URL,
 * else postgres://postgres@127.0.0.1:5432/test); BENCH_CATALOGUE_REUSE=1 keeps it after the run
 * and reuses it when it already holds the asked number of estates (generation takes minutes).
 * The npm script then runs bench/replicas.ts: the searches a second with one and two replicas.
 */
import { once } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { sql } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import { type DatabaseHandle, openDatabase } from "#db/client.ts";
import { properties } from "#db/schema/index.ts";
import {
  CATALOGUE_PAGE_SIZE,
  CatalogueFilterSchema,
} from "#domain/catalogue/catalogue-filter.schema.ts";
import { FactsIndex } from "#domain/catalogue/facts-index.ts";
import { fullTableReads, rowsRead, sequentialScans } from "#domain/catalogue/query-plans.ts";
import {
  explainSearchProperties,
  listProperties,
  listPropertiesBySlug,
  searchProperties,
} from "#domain/catalogue/read-properties.ts";
import type { Deps } from "#domain/deps.ts";
import type { Language } from "#i18n/config.ts";
import {
  type GenerateCalendarsReport,
  generateCalendars,
} from "#tests/factories/generated-calendars.ts";
import {
  type GenerateCatalogueReport,
  generateCatalogue,
} from "#tests/factories/generated-catalogue.ts";
import { addDays, nightsBetween } from "#domain/calendar/nights.ts";
import { lastBookableDate, utcToday } from "#domain/requests/dates.ts";
import { FORM_LIMITS } from "#domain/requests/options.ts";
import { countQueries } from "#tests/setup/query-counter.ts";
import { createExpressApp } from "#server/app.ts";
import { ROOT } from "./servers.ts";

export interface CatalogueBenchOptions {
  /** Estates on PostgreSQL (0 skips PostgreSQL). */
  postgresEstates?: number;
  /** Estates on PGlite (0 skips PGlite). */
  pgliteEstates?: number;
  /** A database URL on the server to use; the bench creates its own database beside it. */
  postgresUrl?: string;
  /** Seconds of concurrent searches per backend. */
  seconds?: number;
  concurrency?: number;
  /** Keep the PostgreSQL database, and reuse it when it holds `postgresEstates` already. */
  reuse?: boolean;
  /** Write bench/results/catalogue-scale-<time>.json (default true). */
  writeResults?: boolean;
  log?: (line: string) => void;
}

export interface Latency {
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface BackendFigures {
  backend: "postgres" | "pglite";
  estates: number;
  /** Null when an existing database was reused. */
  generation: GenerateCatalogueReport | null;
  planCheck: {
    /** Searches checked (each one or two statements: the page, and the names fallback). */
    searches: number;
    statements: number;
    /** Plans that read more than a tenth of a catalogue table: they fail the bench. */
    fullReads: string[];
    /** Sequential scans of catalogue tables, including those a LIMIT stopped early. */
    sequentialScans: string[];
    /** False on a catalogue too small for the check to mean anything (below 100,000). */
    isEnforced: boolean;
    /** The five slowest plans (ms) and the rows they read. */
    slowest: { filter: string; ms: number; rowsRead: number }[];
  };
  search: { concurrency: number; all: Latency; filters: Latency; text: Latency };
  /**
   * The same searches from one caller: what a search costs alone (its service time). With 16
   * callers sharing the machine's cores, latency is about 16 times the mean of this.
   */
  serial: { all: Latency; filters: Latency; text: Latency };
  /** The same, SQL alone: what searches cost while the facts index builds or is off. */
  serialSql: { all: Latency; filters: Latency; text: Latency };
  /** The facts index (decision 0028): its build at the start of a run, and its size. */
  factsIndex: {
    buildMs: number;
    estates: number;
    lexemes: number;
    /** The common words kept in memory beside the facts (decision 0040). */
    words: number;
    bytes: number;
    arrayBuffersMb: number;
  };
  /**
   * The floor of a search, one caller, in the same minutes: a page of 24 estates read by their
   * slugs (the same text and images), which every search ends with and no search can beat.
   */
  floor: Latency;
  keysetWalk: {
    filter: string;
    pages: number;
    firstPagesMs: number;
    lastPagesMs: number;
    /** A cursor near the end of the catalogue (after = estates - 100), unfiltered. */
    farCursorMs: number;
    pageOneMs: number;
    rankedPages: number;
    rankedFirstMs: number;
    rankedLastMs: number;
  };
  castlesPage: {
    statements: number;
    rowsReturned: number;
    rowsRead: number;
    estatesShown: number;
    ms: number;
  };
  /** Null when an existing database's calendars were reused. */
  calendars: GenerateCalendarsReport | null;
  /** The slowest searches of the one-caller run, with what was asked. */
  slowestSearches: { ms: number; input: Record<string, string> }[];
  dateSearch: {
    /** One caller, the mix of windows alone, with filters and with text. */
    serial: { all: Latency; dates: Latency; filters: Latency; text: Latency };
    /** The same mix from `concurrency` callers. */
    concurrent: { concurrency: number; all: Latency };
    slowest: { ms: number; input: Record<string, string> }[];
    planCheck: {
      statements: number;
      /** Plans that read calendar_entries sequentially: they fail the bench. */
      sequentialScans: string[];
      /** Plans that read more than a tenth of a catalogue table (reported). */
      fullReads: string[];
      slowest: { filter: string; ms: number; rowsRead: number }[];
    };
  };
  /** The sitemap and the plain /api/castles (issue 22). */
  wholeCatalogueReads?: WholeCatalogueReads;
}

export interface CatalogueBenchFigures {
  postgres: BackendFigures | null;
  pglite: BackendFigures | null;
  targets: { name: string; target: string; value: string; isMet: boolean }[];
  /**
   * False when a plan read a tenth of a catalogue table (from 100,000 estates) or scanned the
   * calendars sequentially.
   */
  isPlanCheckPassed: boolean;
}

const DEFAULTS = {
  postgresEstates: Number(process.env.BENCH_CATALOGUE_ESTATES ?? 1_000_000),
  pgliteEstates: Number(process.env.BENCH_CATALOGUE_PGLITE_ESTATES ?? 10_000),
  seconds: Number(process.env.BENCH_CATALOGUE_SECONDS ?? 10),
  concurrency: Number(process.env.BENCH_CATALOGUE_CONCURRENCY ?? 16),
  reuse: process.env.BENCH_CATALOGUE_REUSE === "1",
  postgresUrl:
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    "postgres://postgres@127.0.0.1:5432/test",
};
/** BENCH_CATALOGUE_DATABASE names it otherwise, so two benches on one server never share it. */
const DATABASE_NAME = process.env.BENCH_CATALOGUE_DATABASE ?? "castellum_bench_catalogue";
/** Issue 22: a search alone (one caller), p95, over the whole mix of filters and text. */
const TARGET_POSTGRES_P95_MS = 25;
const TARGET_PGLITE_P95_MS = 20;
/** Issue 22: searches a second from 16 callers, PostgreSQL, on this 2-core machine. */
const TARGET_POSTGRES_THROUGHPUT = 400;
/** Issue 19: the date search from one caller, on either backend, in every mix. */
const TARGET_DATE_SEARCH_P95_MS = 50;
/** A million estates with their calendars, generated on this 2-core machine. */
const TARGET_GENERATION_MINUTES = 15;
/** The calendars cover two years from the day the bench generates them. */
const CALENDAR_DAYS = 730;
/** Page N of the keyset walk may take this much longer than page 1 and still be "as fast". */
const DEEP_PAGE_TOLERANCE = 1.5;
const WARM_UP_SECONDS = 2;

// ---------------------------------------------------------------- the searches

/** mulberry32: the same mix on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function weighted<T>(random: () => number, shares: readonly (readonly [T, number])[]): T {
  let left = random() * shares.reduce((sum, [, share]) => sum + share, 0);
  for (const [value, share] of shares) {
    left -= share;
    if (left < 0) return value;
  }
  return shares.at(-1)![0];
}

const REGION_SHARES = [
  ["italy", 25],
  ["france", 22],
  ["uk", 15],
  ["spain", 12],
  ["germany", 10],
  ["portugal", 6],
  ["austria", 5],
  ["switzerland", 5],
] as const;
const AMENITIES = [
  "pool",
  "spa",
  "gym",
  "wine",
  "library",
  "garden",
  "tennis",
  "golf",
  "beach",
  "mountain",
  "lake",
  "city",
];
const LANGUAGE_SHARES = [
  ["en", 55],
  ["fr", 20],
  ["it", 15],
  ["zh", 10],
] as const;
/**
 * What guests type, from the generator's vocabularies: rare place names (about 0.1% of the
 * estates each), kinds of house (5-24%), amenities and activities (5-70%), Chinese, prefixes of
 * unfinished words, and typos (which the names fallback answers).
 */
const QUERIES = [
  ["Ravengate", 3],
  ["Montfort", 3],
  ["Roccarosso", 3],
  ["Falkenstein", 2],
  ["Villaverde", 2],
  ["Beaulieu", 2],
  ["Ravengate Castle", 2],
  ["Château de Montfort", 2],
  ["castello di Roccarosso", 1],
  ["castle", 4],
  ["villa", 4],
  ["château", 2],
  ["castello", 2],
  ["abbey", 1],
  ["lodge", 1],
  ["pool", 2],
  ["spa sauna", 1],
  ["wine cellar", 2],
  ["tennis", 1],
  ["falconry", 1],
  ["truffle hunting", 1],
  ["skiing", 1],
  ["lake", 2],
  ["baroque castle", 1],
  ["medieval tower", 1],
  ["piscine", 1],
  ["vigneti", 1],
  ["城堡", 2],
  ["别墅", 1],
  ["雷文盖特城堡", 1],
  ["阿什福德", 1],
  ["Raveng", 2],
  ["Montf", 1],
  ["Rocca", 1],
  ["Ravngate", 1],
  ["Montfrot", 1],
  ["Falkenstien", 1],
] as const;

interface Search {
  kind: "filters" | "text";
  language: Language;
  input: Record<string, string>;
}

/** A filter as guests set them: a region half of the time, a party size, an amenity or two. */
function drawFacts(random: () => number): Record<string, string> {
  const facts: Record<string, string> = {};
  if (random() < 0.5) facts.region = weighted(random, REGION_SHARES);
  if (random() < 0.5)
    facts.guests = String(
      weighted(
        random,
        [2, 4, 6, 8, 10, 12, 16, 20, 30, 40, 60].map((n) => [n, 1] as const),
      ),
    );
  if (random() < 0.25)
    facts.bedrooms = String(
      weighted(
        random,
        [2, 3, 4, 5, 6, 8, 10, 15, 20, 30].map((n) => [n, 1] as const),
      ),
    );
  const amenities = weighted(random, [
    [0, 55],
    [1, 30],
    [2, 12],
    [3, 3],
  ] as const);
  const chosen = new Set<string>();
  while (chosen.size < amenities) chosen.add(AMENITIES[Math.floor(random() * AMENITIES.length)]!);
  if (chosen.size) facts.amenities = [...chosen].join(",");
  if (random() < 0.15) facts.members = "1";
  return facts;
}

/** The mix: 65% filters only (15% of them on a deep page), 35% text (40% of it with filters). */
export function drawSearches(estates: number, count: number): Search[] {
  const random = seededRandom(20_261_123);
  return Array.from({ length: count }, (): Search => {
    const language = weighted(random, LANGUAGE_SHARES);
    if (random() < 0.65) {
      const input = drawFacts(random);
      if (random() < 0.15) input.after = String(1 + Math.floor(random() * estates));
      return { kind: "filters", language, input };
    }
    const input = random() < 0.4 ? drawFacts(random) : {};
    input.q = weighted(random, QUERIES);
    return { kind: "text", language, input };
  });
}

/**
 * A stay as guests ask for one: mostly within the next six months, a weekend, a week or two
 * (1-21 nights), sometimes a year or more ahead (up to the booking window's end, as the search
 * refuses dates past it), with check-in on any day.
 */
function drawStay(random: () => number): { checkIn: string; checkOut: string } {
  const windowDays = nightsBetween(utcToday(), lastBookableDate(FORM_LIMITS.bookingHorizonMonths));
  const ahead = weighted(random, [
    [[1, 30], 30],
    [[30, 180], 45],
    [[180, 400], 15],
    [[400, Math.min(CALENDAR_DAYS, windowDays) - 21], 10],
  ] as const);
  const offset = ahead[0] + Math.floor(random() * (ahead[1] - ahead[0]));
  const nights = weighted(random, [
    [2, 25],
    [3, 15],
    [7, 30],
    [1, 5],
    [5, 10],
    [10, 5],
    [14, 8],
    [21, 2],
  ] as const);
  const checkIn = addDays(utcToday(), offset);
  return { checkIn, checkOut: addDays(checkIn, nights) };
}

type DateSearch = Omit<Search, "kind"> & { kind: "dates" | "filters" | "text" };

/** The date mix: 35% dates alone, 40% with filters (15% of them deep), 25% with text. */
function drawDateSearches(estates: number, count: number): DateSearch[] {
  const random = seededRandom(20_261_219);
  return Array.from({ length: count }, (): DateSearch => {
    const language = weighted(random, LANGUAGE_SHARES);
    const stay = drawStay(random);
    const roll = random();
    if (roll < 0.35) return { kind: "dates", language, input: { ...stay } };
    if (roll < 0.75) {
      const input: Record<string, string> = { ...drawFacts(random), ...stay };
      if (random() < 0.15) input.after = String(1 + Math.floor(random() * estates));
      return { kind: "filters", language, input };
    }
    const input: Record<string, string> = {
      ...(random() < 0.4 ? drawFacts(random) : {}),
      ...stay,
    };
    input.q = weighted(random, QUERIES);
    return { kind: "text", language, input };
  });
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function latencyOf(samples: number[], seconds: number): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    requests: samples.length,
    perSecond: Math.round(samples.length / seconds),
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? 0),
  };
}

const parse = (input: Record<string, string>) => CatalogueFilterSchema.parse(input);

/** The five slowest of a run's searches, each once, with what was asked. */
function slowest(samples: { ms: number; input: Record<string, string> }[]) {
  const byInput = new Map<string, { ms: number; input: Record<string, string> }>();
  for (const sample of samples) {
    const key = JSON.stringify(sample.input);
    if ((byInput.get(key)?.ms ?? -1) < sample.ms)
      byInput.set(key, { ms: Math.round(sample.ms * 10) / 10, input: sample.input });
  }
  return [...byInput.values()].sort((a, b) => b.ms - a.ms).slice(0, 5);
}

/** `concurrency` callers run the searches in turn for `seconds`; latency of each call. */
async function runSearches<S extends Search | DateSearch>(
  deps: Deps,
  searches: S[],
  seconds: number,
  concurrency: number,
): Promise<{ kind: S["kind"]; ms: number; input: Record<string, string> }[]> {
  const samples: { kind: S["kind"]; ms: number; input: Record<string, string> }[] = [];
  const until = performance.now() + seconds * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const search = searches[next++ % searches.length]!;
        const started = performance.now();
        await searchProperties(deps, { language: search.language, filter: parse(search.input) });
        samples.push({ kind: search.kind, ms: performance.now() - started, input: search.input });
      }
    }),
  );
  return samples;
}

/** Pages of 24 estates at random places, read by slug from one caller for `seconds`. */
async function pagesBySlug(deps: Deps, estates: number, seconds: number): Promise<Latency> {
  const random = seededRandom(20_261_126);
  const ids = Array.from({ length: 24 * 200 }, () => 1 + Math.floor(random() * estates));
  const result = await deps.db.execute(
    sql`select slug from ${properties} where ${properties.id} = any(${`{${ids.join(",")}}`}::int[])`,
  );
  const slugs = (result as unknown as { rows: { slug: string }[] }).rows.map((row) => row.slug);
  const pages = Array.from({ length: Math.floor(slugs.length / 24) }, (_, page) =>
    slugs.slice(page * 24, page * 24 + 24),
  );
  const samples: number[] = [];
  const until = performance.now() + seconds * 1000;
  for (let next = 0; performance.now() < until; next++) {
    const started = performance.now();
    await listPropertiesBySlug(deps, { slugs: pages[next % pages.length]!, language: "en" });
    samples.push(performance.now() - started);
  }
  return latencyOf(samples, seconds);
}

async function timeOnce(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Median of `times` runs of `work` (ms), one after the other. */
async function medianMs(work: () => Promise<unknown>, times = 9): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) samples.push(await timeOnce(work));
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.floor(samples.length / 2)]! * 100) / 100;
}

// ---------------------------------------------------------------- the checks

/** Every combination of the five filters, with five kinds of text and two cursors. */
function planMatrix(estates: number): Record<string, string>[] {
  const facts = [
    { region: "austria" },
    { guests: "40" },
    { bedrooms: "20" },
    { amenities: "golf,lake" },
    { members: "1" },
  ];
  const texts: Record<string, string>[] = [
    {},
    { q: "castle" },
    { q: "Ravengate" },
    { q: "城堡" },
    { q: "Ravngate" },
  ];
  const cursors: Record<string, string>[] = [{}, { after: String(Math.floor(estates * 0.9)) }];
  const matrix: Record<string, string>[] = [];
  for (let mask = 0; mask < 1 << facts.length; mask++)
    for (const text of texts)
      for (const cursor of cursors)
        matrix.push({
          ...Object.fromEntries(
            facts.filter((_, bit) => mask & (1 << bit)).flatMap((fact) => Object.entries(fact)),
          ),
          ...text,
          ...cursor,
        });
  return matrix;
}

/** Below this many estates a page of 1,001 counted rows is a tenth of the table: no check. */
const PLAN_CHECK_MIN_ESTATES = 100_000;

async function checkPlans(deps: Deps, estates: number) {
  const failures: string[] = [];
  const fullReads: string[] = [];
  const tableRows = {
    properties: estates,
    property_search: estates,
    property_translations: estates * 4,
  };
  const timed: { filter: string; ms: number; rowsRead: number }[] = [];
  let statements = 0;
  const matrix = planMatrix(estates);
  for (const input of matrix) {
    const plans = await explainSearchProperties(deps, { language: "en", filter: parse(input) });
    statements += plans.length;
    const scans = plans.flatMap((plan) => sequentialScans(plan));
    if (scans.length)
      failures.push(`${JSON.stringify(input)}: ${scans.map((s) => s["Relation Name"]).join(", ")}`);
    const reads = plans.flatMap((plan) => fullTableReads(plan, tableRows));
    if (reads.length)
      fullReads.push(
        `${JSON.stringify(input)}: ${reads.map((r) => `${r.node["Node Type"]} on ${r.node["Relation Name"]} read ${r.rowsRead} rows`).join(", ")}`,
      );
    timed.push({
      filter: JSON.stringify(input),
      ms:
        Math.round(plans.reduce((sum, plan) => sum + (plan[0]?.["Execution Time"] ?? 0), 0) * 10) /
        10,
      rowsRead: plans.reduce((sum, plan) => sum + rowsRead(plan), 0),
    });
  }
  timed.sort((a, b) => b.ms - a.ms);
  return {
    searches: matrix.length,
    statements,
    fullReads,
    sequentialScans: failures,
    isEnforced: estates >= PLAN_CHECK_MIN_ESTATES,
    slowest: timed.slice(0, 5),
  };
}

/**
 * The date filter's plans: every single filter and their combination, with no text, a common
 * word, a rare name and a typo, for a week soon, a fortnight in high season and a weekend a
 * year ahead, on page 1 and deep. calendar_entries must be probed by its index in every one.
 */
function datePlanMatrix(estates: number): Record<string, string>[] {
  const facts: Record<string, string>[] = [
    {},
    { region: "austria" },
    { guests: "40" },
    { bedrooms: "20" },
    { amenities: "golf,lake" },
    { members: "1" },
    { region: "italy", guests: "8", amenities: "pool" },
  ];
  const texts: Record<string, string>[] = [
    {},
    { q: "castle" },
    { q: "Ravengate" },
    { q: "Ravngate" },
  ];
  const windows = [
    [14, 7],
    [200, 14],
    [365, 2],
  ].map(([ahead, nights]) => {
    const checkIn = addDays(utcToday(), ahead!);
    return { checkIn, checkOut: addDays(checkIn, nights!) };
  });
  const cursors: Record<string, string>[] = [{}, { after: String(Math.floor(estates * 0.9)) }];
  return facts.flatMap((fact) =>
    texts.flatMap((text) =>
      windows.flatMap((window) =>
        cursors.map((cursor) => ({ ...fact, ...text, ...window, ...cursor })),
      ),
    ),
  );
}

async function checkDatePlans(deps: Deps, estates: number) {
  const sequential: string[] = [];
  const fullReads: string[] = [];
  const tableRows = { properties: estates, property_search: estates };
  const timed: { filter: string; ms: number; rowsRead: number }[] = [];
  let statements = 0;
  for (const input of datePlanMatrix(estates)) {
    const plans = await explainSearchProperties(deps, { language: "en", filter: parse(input) });
    statements += plans.length;
    const scans = plans.flatMap((plan) => sequentialScans(plan, ["calendar_entries"]));
    if (scans.length) sequential.push(JSON.stringify(input));
    const reads = plans.flatMap((plan) => fullTableReads(plan, tableRows));
    if (reads.length)
      fullReads.push(
        `${JSON.stringify(input)}: ${reads.map((r) => `${r.node["Node Type"]} on ${r.node["Relation Name"]} read ${r.rowsRead} rows`).join(", ")}`,
      );
    timed.push({
      filter: JSON.stringify(input),
      ms:
        Math.round(plans.reduce((sum, plan) => sum + (plan[0]?.["Execution Time"] ?? 0), 0) * 10) /
        10,
      rowsRead: plans.reduce((sum, plan) => sum + rowsRead(plan), 0),
    });
  }
  timed.sort((a, b) => b.ms - a.ms);
  return { statements, sequentialScans: sequential, fullReads, slowest: timed.slice(0, 5) };
}

/** Follows `nextAfter` for `pages` pages; the median time of the first and of the last five. */
async function walk(deps: Deps, input: Record<string, string>, pages: number) {
  const times: number[] = [];
  let after: string | null | undefined;
  for (let page = 0; page < pages; page++) {
    const filter = parse(after ? { ...input, after } : input);
    let result: Awaited<ReturnType<typeof searchProperties>> | undefined;
    times.push(
      await timeOnce(async () => {
        result = await searchProperties(deps, { language: "en", filter });
      }),
    );
    after = result?.nextAfter;
    if (!after) break;
  }
  const median = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return Math.round((sorted[Math.floor(sorted.length / 2)] ?? 0) * 100) / 100;
  };
  return { pages: times.length, first: median(times.slice(0, 5)), last: median(times.slice(-5)) };
}

async function measureBackend(
  backend: "postgres" | "pglite",
  deps: Deps,
  estates: number,
  generation: GenerateCatalogueReport | null,
  calendars: GenerateCalendarsReport | null,
  options: Required<Pick<CatalogueBenchOptions, "seconds" | "concurrency">>,
  log: (line: string) => void,
): Promise<BackendFigures> {
  log(`[${backend}] plan check...`);
  const planCheck = await checkPlans(deps, estates);
  log(
    `[${backend}] plan check: ${planCheck.statements} statements, ${planCheck.fullReads.length} reading a tenth of a table, ${planCheck.sequentialScans.length} with a sequential scan`,
  );

  log(`[${backend}] facts index: building...`);
  const factsIndex = new FactsIndex(deps);
  const heapBefore = process.memoryUsage().arrayBuffers;
  const buildMs = await timeOnce(() => factsIndex.start());
  if (factsIndex.state !== "ready") throw new Error("the facts index did not build");
  const indexFigures = {
    buildMs: Math.round(buildMs),
    ...factsIndex.stats,
    arrayBuffersMb: Math.round((process.memoryUsage().arrayBuffers - heapBefore) / 2 ** 20),
  };
  log(
    `[${backend}] facts index: ${indexFigures.estates} estates, ${indexFigures.lexemes} facts, ${indexFigures.words} words, ${(indexFigures.bytes / 2 ** 20).toFixed(1)} MB, built in ${indexFigures.buildMs} ms`,
  );
  // The app's searches: the index first, SQL for text and dates (decision 0028).
  const sqlDeps = deps;
  deps = { ...deps, factsIndex };

  const searches = drawSearches(estates, 2000);
  log(`[${backend}] ${options.concurrency} concurrent searches for ${options.seconds} s...`);
  await runSearches(
    deps,
    searches,
    Math.min(WARM_UP_SECONDS, options.seconds),
    options.concurrency,
  );
  const samples = await runSearches(deps, searches, options.seconds, options.concurrency);
  const of = (kind?: Search["kind"]) =>
    latencyOf(
      samples.filter((sample) => !kind || sample.kind === kind).map((sample) => sample.ms),
      options.seconds,
    );

  log(`[${backend}] the same searches from one caller...`);
  const serialSeconds = Math.max(2, Math.round(options.seconds / 2));
  const serialSamples = await runSearches(deps, searches, serialSeconds, 1);
  const serialOf = (kind?: Search["kind"]) =>
    latencyOf(
      serialSamples.filter((sample) => !kind || sample.kind === kind).map((sample) => sample.ms),
      serialSeconds,
    );

  log(`[${backend}] the same searches from one caller, SQL alone (as while the index builds)...`);
  const sqlSamples = await runSearches(sqlDeps, searches, serialSeconds, 1);
  const sqlOf = (kind?: Search["kind"]) =>
    latencyOf(
      sqlSamples.filter((sample) => !kind || sample.kind === kind).map((sample) => sample.ms),
      serialSeconds,
    );

  log(`[${backend}] the floor: pages of 24 estates read by slug, one caller...`);
  const floor = await pagesBySlug(deps, estates, serialSeconds);

  log(`[${backend}] keyset walks...`);
  const walkPages = estates >= 100_000 ? 1000 : 200;
  const deep = await walk(deps, { region: "italy" }, walkPages);
  const ranked = await walk(deps, { q: "Ravengate" }, 100);
  const pageOneMs = await medianMs(() =>
    searchProperties(deps, { language: "en", filter: parse({}) }),
  );
  const farCursorMs = await medianMs(() =>
    searchProperties(deps, { language: "en", filter: parse({ after: String(estates - 100) }) }),
  );

  // The /castles loader: one search, unfiltered, one page of 24, in English.
  const counter = countQueries(sqlDeps);
  const castlesInput = {
    language: "en" as Language,
    filter: parse({}),
    pageSize: CATALOGUE_PAGE_SIZE,
  };
  const returned: number[] = [];
  const ms = await timeOnce(async () => {
    const page = await searchProperties({ ...counter.deps, factsIndex }, castlesInput);
    returned.push(page.properties.length);
  });
  const [castlesPlan] = await explainSearchProperties(deps, castlesInput);

  log(`[${backend}] date search: plan check...`);
  const datePlanCheck = await checkDatePlans(deps, estates);
  log(
    `[${backend}] date plan check: ${datePlanCheck.statements} statements, ${datePlanCheck.sequentialScans.length} reading calendar_entries sequentially`,
  );
  log(`[${backend}] date searches from one caller for ${options.seconds} s...`);
  const dateSearches = drawDateSearches(estates, 2000);
  await runSearches(deps, dateSearches, Math.min(WARM_UP_SECONDS, options.seconds), 1);
  const dateSamples = await runSearches(deps, dateSearches, options.seconds, 1);
  const dateOf = (kind?: DateSearch["kind"]) =>
    latencyOf(
      dateSamples.filter((sample) => !kind || sample.kind === kind).map((sample) => sample.ms),
      options.seconds,
    );
  log(`[${backend}] date searches from ${options.concurrency} callers for ${options.seconds} s...`);
  const concurrentDateSamples = await runSearches(
    deps,
    dateSearches,
    options.seconds,
    options.concurrency,
  );
  return {
    backend,
    estates,
    generation,
    planCheck,
    search: {
      concurrency: options.concurrency,
      all: of(),
      filters: of("filters"),
      text: of("text"),
    },
    serial: { all: serialOf(), filters: serialOf("filters"), text: serialOf("text") },
    serialSql: { all: sqlOf(), filters: sqlOf("filters"), text: sqlOf("text") },
    factsIndex: indexFigures,
    floor,
    keysetWalk: {
      filter: "region=italy",
      pages: deep.pages,
      firstPagesMs: deep.first,
      lastPagesMs: deep.last,
      farCursorMs,
      pageOneMs,
      rankedPages: ranked.pages,
      rankedFirstMs: ranked.first,
      rankedLastMs: ranked.last,
    },
    castlesPage: {
      statements: counter.statements.length,
      // The page's rows plus the one that tells whether a next page exists.
      rowsReturned: (returned[0] ?? 0) + 1,
      rowsRead: castlesPlan ? rowsRead(castlesPlan) : 0,
      estatesShown: returned[0] ?? 0,
      ms: Math.round(ms * 100) / 100,
    },
    calendars,
    slowestSearches: slowest(serialSamples),
    dateSearch: {
      serial: {
        all: dateOf(),
        dates: dateOf("dates"),
        filters: dateOf("filters"),
        text: dateOf("text"),
      },
      concurrent: {
        concurrency: options.concurrency,
        all: latencyOf(
          concurrentDateSamples.map((sample) => sample.ms),
          options.seconds,
        ),
      },
      slowest: slowest(dateSamples),
      planCheck: datePlanCheck,
    },
  };
}

async function countClaims(handle: DatabaseHandle): Promise<number> {
  const result = await handle.db.execute(sql`select count(*)::int as n from calendar_entries`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

function calendarsOf(
  handle: DatabaseHandle,
  estates: number,
  log: (line: string) => void,
  backend: string,
  postgres?: { maintenanceWorkMem: string; concurrency: number },
) {
  log(`[${backend}] generating calendars for ${estates} estates...`);
  return generateCalendars(handle.db, {
    count: estates,
    from: utcToday(),
    days: CALENDAR_DAYS,
    rebuildIndexes: true,
    ...postgres,
    onStep: (step, ms) => log(`[${backend}]   calendars, ${step}: ${(ms / 1000).toFixed(1)} s`),
  });
}

// ---------------------------------------------------------------- the databases

async function adminQuery(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}

async function countEstates(handle: DatabaseHandle): Promise<number> {
  const result = await handle.db.execute(sql`select count(*)::int as n from ${properties}`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

async function onPostgres(
  options: Required<Omit<CatalogueBenchOptions, "log" | "writeResults">>,
  log: (line: string) => void,
): Promise<BackendFigures> {
  const databaseUrl = new URL(options.postgresUrl);
  databaseUrl.pathname = `/${DATABASE_NAME}`;
  const exists =
    (
      await adminQuery(
        options.postgresUrl,
        `select 1 from pg_database where datname = '${DATABASE_NAME}'`,
      )
    ).rowCount === 1;
  let handle: DatabaseHandle | undefined;
  let generation: GenerateCatalogueReport | null = null;
  let calendars: GenerateCalendarsReport | null = null;
  try {
    if (exists && options.reuse) {
      handle = await openDatabase({
        databaseUrl: databaseUrl.toString(),
        poolSize: options.concurrency,
      });
      await handle.migrate();
      if ((await countEstates(handle)) !== options.postgresEstates) {
        await handle.close();
        handle = undefined;
      } else log(`[postgres] reusing ${DATABASE_NAME} (${options.postgresEstates} estates)`);
    }
    if (!handle) {
      await adminQuery(
        options.postgresUrl,
        `drop database if exists ${DATABASE_NAME} with (force)`,
      );
      await adminQuery(options.postgresUrl, `create database ${DATABASE_NAME}`);
      handle = await openDatabase({
        databaseUrl: databaseUrl.toString(),
        poolSize: options.concurrency,
      });
      await handle.migrate();
      log(`[postgres] generating ${options.postgresEstates} estates...`);
      generation = await generateCatalogue(handle.db, {
        count: options.postgresEstates,
        rebuildIndexes: true,
        concurrency: 2,
        maintenanceWorkMem: "1GB",
        onStep: (step, ms) => log(`[postgres]   ${step}: ${(ms / 1000).toFixed(1)} s`),
      });
    }
    // A database kept from before the calendars existed gets them now.
    if ((await countClaims(handle)) === 0)
      calendars = await calendarsOf(handle, options.postgresEstates, log, "postgres", {
        maintenanceWorkMem: "1GB",
        concurrency: 2,
      });
    const deps: Deps = { db: handle.db, log: pino({ level: "silent" }) };
    const wholeCatalogueReads = await measureWholeCatalogueReads(
      deps,
      options.postgresEstates,
      log,
    );
    return {
      ...(await measureBackend(
        "postgres",
        deps,
        options.postgresEstates,
        generation,
        calendars,
        options,
        log,
      )),
      wholeCatalogueReads,
    };
  } finally {
    await handle?.close();
    if (!options.reuse)
      await adminQuery(
        options.postgresUrl,
        `drop database if exists ${DATABASE_NAME} with (force)`,
      );
  }
}

async function onPglite(
  options: Required<Omit<CatalogueBenchOptions, "log" | "writeResults">>,
  log: (line: string) => void,
): Promise<BackendFigures> {
  const handle = await openDatabase({ memory: true });
  try {
    await handle.migrate();
    log(`[pglite] generating ${options.pgliteEstates} estates...`);
    const generation = await generateCatalogue(handle.db, {
      count: options.pgliteEstates,
      rebuildIndexes: true,
    });
    const calendars = await calendarsOf(handle, options.pgliteEstates, log, "pglite");
    const deps: Deps = { db: handle.db, log: pino({ level: "silent" }) };
    const wholeCatalogueReads = await measureWholeCatalogueReads(deps, options.pgliteEstates, log);
    return {
      ...(await measureBackend(
        "pglite",
        deps,
        options.pgliteEstates,
        generation,
        calendars,
        options,
        log,
      )),
      wholeCatalogueReads,
    };
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------- whole-catalogue reads (issue 22)

/** Issue 22: the sitemap index, one full sitemap file and the plain /api/castles, timed. */
const TARGET_SITEMAP_INDEX_MS = 500;
const TARGET_SITEMAP_FILE_MS = 3000;
const TARGET_CASTLES_FIRST_PAGE_MS = 25;
/** Live heap and buffers grown while answering: bounded whatever the catalogue's size. */
const TARGET_SITEMAP_MEMORY_MB = 64;
const TARGET_CASTLES_MEMORY_MB = 16;
/** The old whole-catalogue read is the baseline only where it fits in memory comfortably. */
const WHOLE_LIST_BASELINE_MAX_ESTATES = 200_000;

export interface WholeCatalogueReads {
  sitemapIndex: { ms: number; memoryMb: number; files: number };
  /** `/sitemap-2.xml`: the first file that holds estates only, full when the catalogue is. */
  sitemapFile: { ms: number; firstByteMs: number; memoryMb: number; urls: number; mb: number };
  /** `GET /api/castles?lang=fr`: the median of nine, and the memory of one. */
  castlesFirstPage: { ms: number; memoryMb: number; estates: number };
  /** The read the sitemap and /api/castles made before: every estate, in memory (null past 200,000). */
  wholeList: { ms: number; memoryMb: number } | null;
}

v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;

/**
 * Runs `work` twice: once timed, once with this process's live memory (V8 heap and buffers,
 * the server and the client both being in it) sampled after a full GC every 200 ms, so garbage
 * waiting for a collection does not count. The peak above where it stood before.
 */
async function withPeakMemory<T>(work: () => Promise<T>) {
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  const live = () => {
    collectGarbage();
    const memory = process.memoryUsage();
    return memory.heapUsed + memory.arrayBuffers;
  };
  const before = live();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, live());
  }, 200);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return { result, ms: round(ms), memoryMb: round((peak - before) / 2 ** 20) };
}

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * Serves the app (API and sitemap, as production does) on a free port and reads the sitemap
 * index, one full file (streamed to a counter, never held) and the unfiltered /api/castles;
 * then, for a baseline on catalogues that allow it, the whole-catalogue read both made before.
 */
export async function measureWholeCatalogueReads(
  deps: Deps,
  estates: number,
  log: (line: string) => void,
): Promise<WholeCatalogueReads> {
  const app = createExpressApp({
    deps,
    env: { NODE_ENV: "production", PUBLIC_URL: "https://bench.example" },
  });
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    log(`[whole-catalogue reads] sitemap index, one sitemap file, /api/castles...`);
    // Warm: the first request of a process pays for its modules and connections.
    await (await fetch(`${base}/api/castles?lang=fr`)).arrayBuffer();
    const index = await withPeakMemory(async () => {
      const text = await (await fetch(`${base}/sitemap.xml`)).text();
      return text.match(/<sitemap>/g)?.length ?? 0;
    });
    const file = await withPeakMemory(async () => {
      const started = performance.now();
      const response = await fetch(`${base}/sitemap-2.xml`);
      let firstByteMs = 0;
      let bytes = 0;
      let urls = 0;
      let tail = "";
      const decoder = new TextDecoder();
      for await (const chunk of response.body ?? []) {
        if (!firstByteMs) firstByteMs = performance.now() - started;
        bytes += chunk.length;
        const text = tail + decoder.decode(chunk, { stream: true });
        urls += text.split("</url>").length - 1;
        tail = text.slice(-5);
      }
      return { firstByteMs: round(firstByteMs), bytes, urls };
    });
    const firstPage = await withPeakMemory(async () => {
      const response = await fetch(`${base}/api/castles?lang=fr`);
      return ((await response.json()) as unknown[]).length;
    });
    const firstPageMs = await medianMs(async () => {
      await (await fetch(`${base}/api/castles?lang=fr`)).arrayBuffer();
    });
    let wholeList: WholeCatalogueReads["wholeList"] = null;
    if (estates <= WHOLE_LIST_BASELINE_MAX_ESTATES) {
      const whole = await withPeakMemory(() => listProperties(deps, { language: "en" }));
      wholeList = { ms: whole.ms, memoryMb: whole.memoryMb };
    }
    return {
      sitemapIndex: { ms: index.ms, memoryMb: index.memoryMb, files: index.result },
      sitemapFile: {
        ms: file.ms,
        firstByteMs: file.result.firstByteMs,
        memoryMb: file.memoryMb,
        urls: file.result.urls,
        mb: round(file.result.bytes / 2 ** 20),
      },
      castlesFirstPage: {
        ms: round(firstPageMs),
        memoryMb: firstPage.memoryMb,
        estates: firstPage.result,
      },
      wholeList,
    };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

function wholeCatalogueReadTargets(
  backend: BackendFigures,
  add: (name: string, target: string, value: string, isMet: boolean) => void,
) {
  const reads = backend.wholeCatalogueReads;
  if (!reads) return;
  const label = `${backend.backend} ${backend.estates.toLocaleString("en")}`;
  add(
    `sitemap index, ${label}`,
    `<= ${TARGET_SITEMAP_INDEX_MS} ms, <= ${TARGET_SITEMAP_MEMORY_MB} MB`,
    `${reads.sitemapIndex.ms} ms, ${reads.sitemapIndex.memoryMb} MB (${reads.sitemapIndex.files} files)`,
    reads.sitemapIndex.ms <= TARGET_SITEMAP_INDEX_MS &&
      reads.sitemapIndex.memoryMb <= TARGET_SITEMAP_MEMORY_MB,
  );
  add(
    `one sitemap file, ${label}`,
    `<= ${TARGET_SITEMAP_FILE_MS} ms, <= ${TARGET_SITEMAP_MEMORY_MB} MB`,
    `${reads.sitemapFile.ms} ms, ${reads.sitemapFile.memoryMb} MB (${reads.sitemapFile.urls.toLocaleString("en")} URLs, ${reads.sitemapFile.mb} MB)`,
    reads.sitemapFile.ms <= TARGET_SITEMAP_FILE_MS &&
      reads.sitemapFile.memoryMb <= TARGET_SITEMAP_MEMORY_MB,
  );
  add(
    `GET /api/castles (no filter), ${label}`,
    `<= ${TARGET_CASTLES_FIRST_PAGE_MS} ms, <= ${TARGET_CASTLES_MEMORY_MB} MB`,
    `${reads.castlesFirstPage.ms} ms, ${reads.castlesFirstPage.memoryMb} MB (${reads.castlesFirstPage.estates} estates)`,
    reads.castlesFirstPage.ms <= TARGET_CASTLES_FIRST_PAGE_MS &&
      reads.castlesFirstPage.memoryMb <= TARGET_CASTLES_MEMORY_MB,
  );
}

function printWholeCatalogueReads(backend: BackendFigures, log: (line: string) => void) {
  const reads = backend.wholeCatalogueReads;
  if (!reads) return;
  const file = reads.sitemapFile;
  log(
    `  whole-catalogue reads: sitemap index ${reads.sitemapIndex.ms} ms (${reads.sitemapIndex.files} files, +${reads.sitemapIndex.memoryMb} MB); ` +
      `sitemap-2.xml ${file.ms} ms (first byte ${file.firstByteMs} ms, ${file.urls.toLocaleString("en")} URLs, ${file.mb} MB, +${file.memoryMb} MB); ` +
      `/api/castles ${reads.castlesFirstPage.ms} ms (+${reads.castlesFirstPage.memoryMb} MB)`,
  );
  log(
    reads.wholeList
      ? `  baseline, the whole catalogue read as before: ${reads.wholeList.ms} ms, +${reads.wholeList.memoryMb} MB`
      : `  baseline, the whole catalogue read as before: not run above ${WHOLE_LIST_BASELINE_MAX_ESTATES.toLocaleString("en")} estates`,
  );
}

// ---------------------------------------------------------------- the report

function targetsOf(figures: Omit<CatalogueBenchFigures, "targets">) {
  const targets: CatalogueBenchFigures["targets"] = [];
  const add = (name: string, target: string, value: string, isMet: boolean) =>
    targets.push({ name, target, value, isMet });
  for (const [figures_, limit] of [
    [figures.postgres, TARGET_POSTGRES_P95_MS],
    [figures.pglite, TARGET_PGLITE_P95_MS],
  ] as const) {
    if (!figures_) continue;
    const label = `${figures_.backend} ${figures_.estates.toLocaleString("en")}`;
    add(
      `search p95, one caller, ${label}`,
      `<= ${limit} ms`,
      `${figures_.serial.all.p95} ms (filters ${figures_.serial.filters.p95}, text ${figures_.serial.text.p95}; floor, 24 estates by slug: ${figures_.floor.p95} ms)`,
      figures_.serial.all.p95 <= limit,
    );
    if (figures_.backend === "postgres")
      add(
        `searches a second @${figures_.search.concurrency}, ${label}`,
        `>= ${TARGET_POSTGRES_THROUGHPUT}/s`,
        `${figures_.search.all.perSecond}/s (p95 ${figures_.search.all.p95} ms; floor, one caller: ${figures_.floor.perSecond}/s)`,
        figures_.search.all.perSecond >= TARGET_POSTGRES_THROUGHPUT,
      );
    const walk = figures_.keysetWalk;
    add(
      `page ${walk.pages} vs page 1 (${walk.filter}), ${label}`,
      `<= ${DEEP_PAGE_TOLERANCE}x`,
      `${walk.lastPagesMs} / ${walk.firstPagesMs} ms`,
      walk.lastPagesMs <= walk.firstPagesMs * DEEP_PAGE_TOLERANCE + 0.5,
    );
    add(
      `far cursor vs page 1, ${label}`,
      `<= ${DEEP_PAGE_TOLERANCE}x`,
      `${walk.farCursorMs} / ${walk.pageOneMs} ms`,
      walk.farCursorMs <= walk.pageOneMs * DEEP_PAGE_TOLERANCE + 0.5,
    );
    add(
      `/castles loads one page, ${label}`,
      `<= ${CATALOGUE_PAGE_SIZE + 1} estates`,
      `${figures_.castlesPage.rowsReturned} rows, ${figures_.castlesPage.statements} statement(s)`,
      figures_.castlesPage.rowsReturned <= CATALOGUE_PAGE_SIZE + 1,
    );
    const dates = figures_.dateSearch.serial;
    add(
      `date search p95, one caller, every mix, ${label}`,
      `<= ${TARGET_DATE_SEARCH_P95_MS} ms`,
      `all ${dates.all.p95} ms (dates alone ${dates.dates.p95}, with filters ${dates.filters.p95}, with text ${dates.text.p95}); ${figures_.dateSearch.concurrent.all.perSecond}/s from ${figures_.dateSearch.concurrent.concurrency} callers`,
      Math.max(dates.dates.p95, dates.filters.p95, dates.text.p95) <= TARGET_DATE_SEARCH_P95_MS,
    );
    if (figures_.generation && figures_.calendars && figures_.backend === "postgres") {
      const minutes = (figures_.generation.totalMs + figures_.calendars.totalMs) / 60_000;
      add(
        `generating ${label} estates with their calendars`,
        `<= ${TARGET_GENERATION_MINUTES} min`,
        `${minutes.toFixed(1)} min (estates ${(figures_.generation.totalMs / 60_000).toFixed(1)}, calendars ${(figures_.calendars.totalMs / 60_000).toFixed(1)})`,
        minutes <= TARGET_GENERATION_MINUTES,
      );
    }
    add(
      `date plan check, ${label}`,
      "no plan reads calendar_entries sequentially",
      `${figures_.dateSearch.planCheck.sequentialScans.length} of ${figures_.dateSearch.planCheck.statements} plans`,
      figures_.dateSearch.planCheck.sequentialScans.length === 0,
    );
    wholeCatalogueReadTargets(figures_, add);
    if (figures_.planCheck.isEnforced)
      add(
        `plan check, ${label}`,
        "no plan reads a tenth of a catalogue table",
        `${figures_.planCheck.fullReads.length} of ${figures_.planCheck.searches} searches (${figures_.planCheck.statements} statements; ${figures_.planCheck.sequentialScans.length} with a sequential scan stopped early)`,
        figures_.planCheck.fullReads.length === 0,
      );
  }
  return targets;
}

function printReport(figures: CatalogueBenchFigures, log: (line: string) => void) {
  log("");
  log("Catalogue at scale: targets");
  for (const target of figures.targets)
    log(
      `  ${target.isMet ? "met    " : "NOT MET"}  ${target.name}: ${target.value} (target ${target.target})`,
    );
  for (const backend of [figures.postgres, figures.pglite]) {
    if (!backend) continue;
    log("");
    log(`${backend.backend}, ${backend.estates.toLocaleString("en")} estates`);
    if (backend.generation)
      log(
        `  generation: ${(backend.generation.totalMs / 1000).toFixed(1)} s (${backend.generation.steps.map((s) => `${s.step} ${(s.ms / 1000).toFixed(1)} s`).join(", ")})`,
      );
    const row = (name: string, l: Latency) =>
      log(
        `  ${name.padEnd(14)} ${String(l.requests).padStart(6)} searches ${String(l.perSecond).padStart(5)}/s  p50 ${l.p50} ms  p95 ${l.p95} ms  p99 ${l.p99} ms  max ${l.max} ms`,
      );
    log(`  ${backend.search.concurrency} concurrent callers:`);
    row("all", backend.search.all);
    row("filters only", backend.search.filters);
    row("text", backend.search.text);
    log("  one caller (service time):");
    row("all", backend.serial.all);
    row("filters only", backend.serial.filters);
    row("text", backend.serial.text);
    log("  one caller, SQL alone (the index building or off):");
    row("all", backend.serialSql.all);
    row("filters only", backend.serialSql.filters);
    row("text", backend.serialSql.text);
    row("floor: by slug", backend.floor);
    const index = backend.factsIndex;
    log(
      `  facts index: ${index.estates.toLocaleString("en")} estates, ${index.lexemes} facts, ${index.words} words, ${(index.bytes / 2 ** 20).toFixed(1)} MB, built in ${index.buildMs} ms`,
    );
    log(
      `  slowest searches, one caller: ${backend.slowestSearches.map((s) => `${JSON.stringify(s.input)} ${s.ms} ms`).join("; ")}`,
    );
    const walk = backend.keysetWalk;
    log(
      `  keyset walk (${walk.filter}): pages 1-5 ${walk.firstPagesMs} ms, pages ${walk.pages - 4}-${walk.pages} ${walk.lastPagesMs} ms; page 1 ${walk.pageOneMs} ms, cursor near the end ${walk.farCursorMs} ms`,
    );
    log(
      `  ranked walk ("Ravengate"): ${walk.rankedPages} pages, first ${walk.rankedFirstMs} ms, last ${walk.rankedLastMs} ms`,
    );
    const castles = backend.castlesPage;
    log(
      `  /castles data: ${castles.statements} statement, ${castles.rowsReturned} rows returned, ${castles.rowsRead} rows read by the database, ${castles.ms} ms`,
    );
    if (backend.calendars)
      log(
        `  calendars: ${backend.calendars.claims.toLocaleString("en")} claims (${backend.calendars.stays.toLocaleString("en")} stays, ${backend.calendars.blocks.toLocaleString("en")} blocks), ${(backend.calendars.occupancy * 100).toFixed(1)}% of nights taken, ${(backend.calendars.totalMs / 1000).toFixed(1)} s (${backend.calendars.steps.map((s) => `${s.step} ${(s.ms / 1000).toFixed(1)} s`).join(", ")})`,
      );
    log(
      `  date search, one caller: p95 ${backend.dateSearch.serial.all.p95} ms (target ${TARGET_DATE_SEARCH_P95_MS} ms)`,
    );
    row("dates alone", backend.dateSearch.serial.dates);
    row("+ filters", backend.dateSearch.serial.filters);
    row("+ text", backend.dateSearch.serial.text);
    row("all", backend.dateSearch.serial.all);
    row(`all @${backend.dateSearch.concurrent.concurrency}`, backend.dateSearch.concurrent.all);
    log(
      `  slowest date searches, one caller: ${backend.dateSearch.slowest.map((s) => `${JSON.stringify(s.input)} ${s.ms} ms`).join("; ")}`,
    );
    const datePlans = backend.dateSearch.planCheck;
    log(
      `  date plans: ${datePlans.statements} statements, ${datePlans.sequentialScans.length} with a sequential scan of calendar_entries; slowest: ${datePlans.slowest.map((s) => `${s.filter} ${s.ms} ms (${s.rowsRead} rows read)`).join("; ")}`,
    );
    for (const scan of datePlans.sequentialScans) log(`  CALENDAR SCANNED: ${scan}`);
    if (backend.planCheck.isEnforced)
      for (const read of datePlans.fullReads)
        log(`  date plan reading a tenth of a table: ${read}`);
    printWholeCatalogueReads(backend, log);
    log(
      `  slowest plans: ${backend.planCheck.slowest.map((s) => `${s.filter} ${s.ms} ms (${s.rowsRead} rows read)`).join("; ")}`,
    );
    if (backend.planCheck.isEnforced) {
      for (const failure of backend.planCheck.fullReads) log(`  FULL READ: ${failure}`);
      for (const scan of backend.planCheck.sequentialScans)
        log(`  sequential scan stopped early: ${scan}`);
    } else
      log(
        `  plan check not enforced below ${PLAN_CHECK_MIN_ESTATES.toLocaleString("en")} estates (${backend.planCheck.fullReads.length} plans read a tenth of a table, ${backend.planCheck.sequentialScans.length} had a sequential scan)`,
      );
  }
}

/**
 * Runs the catalogue bench and returns its figures (also printed, and written as JSON under
 * bench/results/). bench:speed calls it for the search rows of its table.
 */
export async function benchCatalogueScale(
  options: CatalogueBenchOptions = {},
): Promise<CatalogueBenchFigures> {
  const log = options.log ?? ((line: string) => console.log(line));
  const settings = {
    postgresEstates: options.postgresEstates ?? DEFAULTS.postgresEstates,
    pgliteEstates: options.pgliteEstates ?? DEFAULTS.pgliteEstates,
    postgresUrl: options.postgresUrl ?? DEFAULTS.postgresUrl,
    seconds: options.seconds ?? DEFAULTS.seconds,
    concurrency: options.concurrency ?? DEFAULTS.concurrency,
    reuse: options.reuse ?? DEFAULTS.reuse,
  };
  const postgres = settings.postgresEstates > 0 ? await onPostgres(settings, log) : null;
  const pglite = settings.pgliteEstates > 0 ? await onPglite(settings, log) : null;
  const partial = {
    postgres,
    pglite,
    isPlanCheckPassed: [postgres, pglite].every(
      (b) =>
        !b ||
        // A sequential scan that the count's LIMIT stopped early is reported, not failed
        // (decision 0010); a plan that reads a tenth of a table fails, where it means something.
        ((!b.planCheck.isEnforced || b.planCheck.fullReads.length === 0) &&
          b.dateSearch.planCheck.sequentialScans.length === 0),
    ),
  };
  const figures: CatalogueBenchFigures = { ...partial, targets: targetsOf(partial) };
  printReport(figures, log);
  if (options.writeResults !== false) {
    const dir = join(ROOT, "bench/results");
    mkdirSync(dir, { recursive: true });
    const file = join(
      dir,
      `catalogue-scale-${new Date().toISOString().replace(/[:.]/g, "-")}.json`,
    );
    writeFileSync(
      file,
      `${JSON.stringify({ at: new Date().toISOString(), settings: { ...settings, postgresUrl: undefined }, ...figures }, null, 2)}\n`,
    );
    log(`\nwritten to ${file}`);
  }
  return figures;
}

if (import.meta.main) {
  const figures = await benchCatalogueScale();
  // The plan check is the one part that fails the command: a plan reading a tenth of a
  // catalogue table is a regression, whatever the machine's load.
  if (!figures.isPlanCheckPassed) process.exitCode = 1;
}
