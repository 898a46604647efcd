/**
 * `npm run bench:feeds` (`node bench/hostile-feed.ts [--quick]`): how much the import of a
 * hostile iCal feed slows the public site. Target: the p95 of a public request while such a
 * feed is imported is within 2x of its p95 while the server is idle.
 *
 * The app runs in this process as the tests run it (createServices + createExpressApp on an
 * in-memory PGlite seeded with the demo catalogue, on a free loopback port), with the response
 * cache off (RESPONSE_CACHE_MB=0: every request does its work on the server's thread) and
 * private networks allowed for outbound fetches (the feed server is on 127.0.0.1). The public
 * request is GET /api/castles/{slug}/availability of the estate that imports the feed: a
 * guest's view of the very calendar being written. Requests are sent one after the other by a
 * client in the same process, so a request's time includes every stall of the event loop the
 * server and its database share.
 *
 * The hostile feed (from the security review): 3,000 VEVENTs, each `RRULE:FREQ=HOURLY;
 * COUNT=1000` starting a few days from now (about 490 KB), in two variants:
 * - transparent: every event `TRANSP:TRANSPARENT`. A series that holds no time is not expanded,
 *   so each read is the parse alone and ends synced with 0 busy times;
 * - opaque: the same events without TRANSP. Every event expands to 1,000 instances of busy
 *   time; with the default limits the busy-time cap (maxEvents, 5,000) is passed at the sixth
 *   event, before the instance budget (20,000) would be at the twenty-first, and the read ends
 *   in too_many_events (the detail printed under the table says which limit).
 *
 * The run is a number of rounds, each: requests with the server idle, requests while the
 * transparent feed is synced, idle again, requests while the opaque feed is synced. A variant's
 * block calls syncFeed (domain/calendar/feed-sync.ts) on its feed a few times back to back
 * (each call fetches and reads it again: the read on a worker thread, under its time cap) and
 * counts the requests that started while a sync was in flight. Idle and import alternate every
 * few seconds so that other work on the machine weighs on both alike; each row pools its blocks.
 *
 * Each row gives p50, p95 and max in ms, its p95 over the idle p95 of the same run, and how late
 * the event loop ran a 5 ms timer during its blocks (p99 and max): a request p95 that rises
 * while the loop's delay does not points at the two threads sharing the cores (the read's
 * worker and the server's thread), not at work on the server's thread. A variant's row also
 * gives its syncs (count, min / median / max time each, outcomes); a sync's time includes the
 * fetch from the feed server, which runs in this process too (serving a string: ~1 ms).
 *
 * --quick: fewer rounds (about 25 s instead of about 45 s on 2 cores). A measurement, not a
 * test: the exit code is 0 whether or not the target is met. Figures on a busy machine vary
 * from run to run; the load average is printed before and after. Results:
 * bench/results/hostile-feed-<time>.json and hostile-feed-latest.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { asc } from "drizzle-orm";
import pino from "pino";
import { loadPropertyContent } from "#content/load-properties.ts";
import { openDatabase } from "#db/client.ts";
import { properties } from "#db/schema/index.ts";
import { type SyncOutcome, syncFeed } from "#domain/calendar/feed-sync.ts";
import { addCalendarFeed } from "#domain/calendar/feeds.ts";
import { DEFAULT_IMPORT_LIMITS } from "#domain/calendar/ical-import.ts";
import { seedCatalogue } from "#domain/catalogue/seed-catalogue.ts";
import type { Deps } from "#domain/deps.ts";
import { createExpressApp } from "#server/app.ts";
import { createServices } from "#server/services.ts";
import { FeedServer } from "#tests/setup/feed-server.ts";
import { listenOnFreePort } from "#tests/setup/http.ts";
import { testServicesEnv } from "#tests/setup/intake.ts";

const ROOT = join(import.meta.dirname, "..");
const QUICK = process.argv.includes("--quick");
/** Requests before the first round, not counted (JIT, the database's caches). */
const WARM_UP_REQUESTS = 30;
/** Rounds of idle, transparent, idle, opaque. */
const ROUNDS = QUICK ? 4 : 10;
/** Requests of an idle block (two a round). */
const IDLE_BLOCK_REQUESTS = QUICK ? 40 : 50;
/** Syncs of a variant's block, back to back. */
const SYNCS_PER_BLOCK = 2;
const TARGET_RATIO = 2;
/** The event loop's delay: how late a timer of this interval runs. */
const LOOP_SAMPLE_MS = 5;

const EVENTS = 3000;
const RECURRENCE = "RRULE:FREQ=HOURLY;COUNT=1000";

// ---------------------------------------------------------------- the hostile feed

/** The review's feed: EVENTS hourly series of 1,000 instances each, a few days from now. */
function hostileFeed(transparent: boolean): string {
  const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10).replaceAll("-", "");
  const parts = ["BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Bench//EN\r\n"];
  for (let i = 0; i < EVENTS; i++)
    parts.push(
      "BEGIN:VEVENT\r\n",
      `UID:storm-${i}\r\n`,
      "DTSTAMP:20260601T000000Z\r\n",
      `DTSTART:${day}T000000Z\r\n`,
      `DTEND:${day}T003000Z\r\n`,
      `${RECURRENCE}\r\n`,
      transparent ? "TRANSP:TRANSPARENT\r\n" : "",
      "END:VEVENT\r\n",
    );
  parts.push("END:VCALENDAR\r\n");
  return parts.join("");
}

// ---------------------------------------------------------------- measuring

/** The value at `fraction` of sorted values (nearest rank). */
function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

const sortedCopy = (values: number[]) => [...values].sort((a, b) => a - b);

/** How late the event loop runs a LOOP_SAMPLE_MS timer, sampled while started. */
class LoopDelay {
  readonly samples: number[] = [];
  private timer: NodeJS.Timeout | undefined;

  start() {
    let last = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      this.samples.push(Math.max(0, now - last - LOOP_SAMPLE_MS));
      last = now;
    }, LOOP_SAMPLE_MS);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

interface SyncRecord {
  ms: number;
  outcome: string;
  detail?: string;
}

/** One row of the table: the requests of its blocks, the loop's delay, its syncs. */
class Row {
  readonly latencies: number[] = [];
  /** Answers other than 200 (counted in the latencies too). */
  non200 = 0;
  readonly loopDelay = new LoopDelay();
  readonly syncs: SyncRecord[] = [];

  readonly name: string;

  constructor(name: string) {
    this.name = name;
  }

  summary() {
    const sorted = sortedCopy(this.latencies);
    const delays = sortedCopy(this.loopDelay.samples);
    return {
      requests: sorted.length,
      non200: this.non200,
      p50: percentile(sorted, 0.5),
      p95: percentile(sorted, 0.95),
      max: sorted.at(-1) ?? Number.NaN,
      loopDelayP99: percentile(delays, 0.99),
      loopDelayMax: delays.at(-1) ?? Number.NaN,
    };
  }
}

/** One public request, its body read, recorded in `row`. */
async function timedRequest(url: string, row: Row): Promise<void> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  row.latencies.push(performance.now() - started);
  if (response.status !== 200) row.non200 += 1;
}

async function idleBlock(url: string, row: Row): Promise<void> {
  row.loopDelay.start();
  try {
    for (let i = 0; i < IDLE_BLOCK_REQUESTS; i++) await timedRequest(url, row);
  } finally {
    row.loopDelay.stop();
  }
}

function describeOutcome(outcome: SyncOutcome | null): Omit<SyncRecord, "ms"> {
  if (!outcome) return { outcome: "feed gone" };
  if (outcome.outcome === "synced") return { outcome: `synced, ${outcome.eventCount} busy times` };
  return { outcome: `failed: ${outcome.error.code}`, detail: outcome.error.detail };
}

/**
 * SYNCS_PER_BLOCK syncs back to back in the background while requests go one after the other;
 * every request starts while a sync is in flight.
 */
async function importBlock(
  url: string,
  row: Row,
  sync: () => Promise<SyncOutcome | null>,
): Promise<void> {
  let syncing = true;
  row.loopDelay.start();
  try {
    const syncs = (async () => {
      try {
        for (let i = 0; i < SYNCS_PER_BLOCK; i++) {
          const started = performance.now();
          let record: Omit<SyncRecord, "ms">;
          try {
            record = describeOutcome(await sync());
          } catch (error) {
            const detail = error instanceof Error ? error.message : String(error);
            record = { outcome: "threw", detail };
          }
          row.syncs.push({ ms: performance.now() - started, ...record });
        }
      } finally {
        syncing = false;
      }
    })();
    while (syncing) await timedRequest(url, row);
    await syncs;
  } finally {
    row.loopDelay.stop();
  }
}

// ---------------------------------------------------------------- report

const fixed = (value: number, digits = 1) =>
  Number.isFinite(value) ? value.toFixed(digits) : "n/a";

function syncSummary(syncs: SyncRecord[]) {
  if (syncs.length === 0) return { syncs: "", "sync ms min / med / max": "", "sync outcomes": "" };
  const times = sortedCopy(syncs.map((sync) => sync.ms));
  const outcomes = new Map<string, number>();
  for (const sync of syncs) outcomes.set(sync.outcome, (outcomes.get(sync.outcome) ?? 0) + 1);
  return {
    syncs: String(syncs.length),
    "sync ms min / med / max": [times[0]!, percentile(times, 0.5), times.at(-1)!]
      .map((ms) => fixed(ms, 0))
      .join(" / "),
    "sync outcomes": [...outcomes].map(([outcome, n]) => `${n}x ${outcome}`).join("; "),
  };
}

const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

// ---------------------------------------------------------------- run

const log = pino({ level: "error" });
const handle = await openDatabase({ memory: true });
await handle.migrate();
const deps: Deps = { db: handle.db, log };
await seedCatalogue(deps, loadPropertyContent(join(ROOT, "content/properties")));
const [estate] = await handle.db
  .select({ id: properties.id, slug: properties.slug })
  .from(properties)
  .orderBy(asc(properties.id))
  .limit(1);
if (!estate) throw new Error("no estate in the demo catalogue");

const servicesEnv = testServicesEnv({
  RESPONSE_CACHE_MB: 0,
  OUTBOUND_ALLOW_PRIVATE_NETWORKS: true,
});
const services = await createServices(deps, servicesEnv);
const app = createExpressApp({
  deps,
  env: { NODE_ENV: "test", PUBLIC_URL: servicesEnv.PUBLIC_URL },
  services,
});
const server = await listenOnFreePort(app);
const feedServer = new FeedServer();
await feedServer.start();

try {
  const publicPath = `/api/castles/${estate.slug}/availability`;
  const publicUrl = `${server.baseUrl}${publicPath}`;
  const config = services.calendarFeeds.config;
  // The bench's syncs are the only ones: the instance's own job (every minute) would sync a
  // feed due between its adding and its first block.
  await services.calendarFeeds.worker.stop();
  const variants = [];
  for (const [name, transparent] of [
    ["transparent", true],
    ["opaque", false],
  ] as const) {
    const path = `/storm-${name}.ics`;
    const text = hostileFeed(transparent);
    feedServer.serve(path, text);
    const feed = await addCalendarFeed(deps, config.outbound, {
      propertyId: estate.id,
      url: feedServer.url(path),
      createdBy: "bench",
      now: new Date(),
    });
    const sync = () => syncFeed(deps, config, feed.id, new Date());
    variants.push({ row: new Row(name), bytes: Buffer.byteLength(text), sync });
  }
  const idle = new Row("idle");

  const limits = DEFAULT_IMPORT_LIMITS;
  const loadBefore = loadAverage();
  console.log(
    `${cpus().length} cores (${cpus()[0]?.model ?? "?"}), load ${loadBefore}, Node ${process.version}${QUICK ? ", --quick" : ""}`,
  );
  console.log(
    `GET ${publicPath} (response cache off), one request at a time. Feed limits: ` +
      `${limits.maxEvents} busy times, ${limits.maxInstances} instances a feed, ` +
      `${limits.maxInstancesPerEvent} an event, ${limits.maxReadMs} ms a read. Feeds: ` +
      `${variants.map((v) => `${v.row.name} ${(v.bytes / 1024).toFixed(0)} KB`).join(", ")}. ` +
      `${ROUNDS} rounds of idle ${IDLE_BLOCK_REQUESTS} requests, then ${SYNCS_PER_BLOCK} syncs of a variant.`,
  );

  const warmUp = new Row("warm-up");
  for (let i = 0; i < WARM_UP_REQUESTS; i++) await timedRequest(publicUrl, warmUp);
  const started = performance.now();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const variant of variants) {
      await idleBlock(publicUrl, idle);
      await importBlock(publicUrl, variant.row, variant.sync);
    }
    const p95s = [idle, ...variants.map((v) => v.row)].map(
      (row) => `${row.name} ${fixed(row.summary().p95)}`,
    );
    console.log(`round ${round}/${ROUNDS}: p95 so far (ms) ${p95s.join(", ")}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const loadAfter = loadAverage();

  const idleSummary = idle.summary();
  const ratio = (p95: number) => p95 / idleSummary.p95;
  const columns = (row: Row) => {
    const summary = row.summary();
    return {
      variant: row === idle ? "idle" : `hostile, ${row.name}`,
      requests: summary.requests + (summary.non200 ? ` (${summary.non200} non-200)` : ""),
      "p50 ms": fixed(summary.p50),
      "p95 ms": fixed(summary.p95),
      "max ms": fixed(summary.max),
      "p95 / idle": fixed(ratio(summary.p95), 2),
      "loop delay p99 / max": `${fixed(summary.loopDelayP99)} / ${fixed(summary.loopDelayMax)} ms`,
      ...syncSummary(row.syncs),
    };
  };
  console.log(
    `\nGET ${publicPath}, ${fixed(seconds, 0)} s; hostile rows: requests made during a sync; load ${loadBefore} before, ${loadAfter} after`,
  );
  console.table([idle, ...variants.map((v) => v.row)].map(columns));
  for (const { row } of variants) {
    const detail = row.syncs.find((sync) => sync.detail)?.detail;
    if (detail) console.log(`${row.name}: ${detail}`);
  }
  for (const { row } of variants) {
    const value = ratio(row.summary().p95);
    console.log(
      `${row.name}: p95 ${fixed(row.summary().p95)} ms during the import vs ${fixed(idleSummary.p95)} ms idle = ` +
        `${fixed(value, 2)}x: target (<= ${TARGET_RATIO}x) ${value <= TARGET_RATIO ? "met" : "not met"}`,
    );
  }

  const dir = join(ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  const report = JSON.stringify(
    {
      at: new Date().toISOString(),
      quick: QUICK,
      machine: { cores: cpus().length, model: cpus()[0]?.model, node: process.version },
      load: { before: loadBefore, after: loadAfter },
      settings: {
        WARM_UP_REQUESTS,
        ROUNDS,
        IDLE_BLOCK_REQUESTS,
        SYNCS_PER_BLOCK,
        LOOP_SAMPLE_MS,
        EVENTS,
        RECURRENCE,
        limits,
      },
      request: `GET ${publicPath}`,
      seconds,
      targetRatio: TARGET_RATIO,
      idle: idleSummary,
      variants: variants.map(({ row, bytes }) => {
        const summary = row.summary();
        return {
          name: row.name,
          feedBytes: bytes,
          ...summary,
          p95Ratio: ratio(summary.p95),
          targetMet: ratio(summary.p95) <= TARGET_RATIO,
          syncs: row.syncs,
        };
      }),
    },
    null,
    2,
  );
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  writeFileSync(join(dir, `hostile-feed-${stamp}.json`), report);
  writeFileSync(join(dir, "hostile-feed-latest.json"), report);
  console.log(`results: bench/results/hostile-feed-${stamp}.json`);
} finally {
  await server.close();
  await feedServer.stop();
  await services.close();
  await handle.close();
}
