/**
 * `npm run bench:speed`: issue 11's figures from one run on this machine, each beside its
 * floor measured in the same run (the machine is small and shared, so only ratios compare):
 *
 * - req/s and p50/p95/p99 of GET /api/castles?lang=fr, SSR /castles, SSR /property/gordon-castle
 *   and the blank React Router page (bench/blank), each against a minimal node:http server
 *   sending the same bytes from memory (captured from the server under test with the same
 *   request headers, so compressed the same way). Castellum runs twice: cold, with the response
 *   cache off (RESPONSE_CACHE_MB=0, every request renders), and warm, with the cache as
 *   configured, after a warm-up. Only one server is under load at a time, in alternating
 *   turns (the static server's beside the real one's); autocannon runs in this process.
 * - first-load JS per route against the blank page (bench/js-size.ts);
 * - Lighthouse mobile against the blank page (bench/lighthouse.ts), unless --no-lighthouse;
 * - catalogue search at scale (bench/catalogue-scale.ts, when present): PGlite with 10,000
 *   estates unless --no-search, and PostgreSQL with 1,000,000 with --search when
 *   BENCH_DATABASE_URL or TEST_DATABASE_URL names a server.
 *
 * It ends with the report, targets first, and writes it as JSON (bench/results/speed-<time>.json
 * and latest.json, to compare runs) and Markdown (.md). Figures, never pass/fail: the exit code
 * is 0 unless a part failed to run.
 *
 * Options: --no-lighthouse, --search, --no-search, --build (rebuild both apps first).
 * Environment: BENCH_SPEED_SECONDS (6, per measurement), BENCH_SPEED_WARM_UP_SECONDS (2),
 * BENCH_SPEED_CONNECTIONS (10), BENCH_SPEED_ROUNDS (3 turns per measurement),
 * BENCH_SPEED_ENCODING (the Accept-Encoding sent: "gzip, deflate, br" as a browser, or
 * "identity" for uncompressed answers).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import type {
  benchCatalogueScale as BenchCatalogueScale,
  CatalogueBenchFigures,
} from "./catalogue-scale.ts";
import { benchJsSize } from "./js-size.ts";
import { benchLighthouse, type LighthouseRow } from "./lighthouse.ts";
import { type CapturedResponse, captureResponse, startStaticServer } from "./static-server.ts";
import { ensureBuilds, ROOT, type RunningServer, startBlank, startCastellum } from "./servers.ts";

const { values: flags } = parseArgs({
  options: {
    "no-lighthouse": { type: "boolean", default: false },
    search: { type: "boolean", default: false },
    "no-search": { type: "boolean", default: false },
    build: { type: "boolean", default: false },
  },
});
const SECONDS = Number(process.env.BENCH_SPEED_SECONDS ?? 6);
const WARM_UP_SECONDS = Number(process.env.BENCH_SPEED_WARM_UP_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_SPEED_CONNECTIONS ?? 10);
/** Each measurement is split into this many turns, alternating server and static server. */
const ROUNDS = Number(process.env.BENCH_SPEED_ROUNDS ?? 3);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
/** What a browser sends; Castellum picks the encoding, the static server repeats it. */
const ACCEPT_ENCODING = process.env.BENCH_SPEED_ENCODING ?? "gzip, deflate, br";
const RESULTS_DIR = join(ROOT, "bench/results");
/** Issue 22: pages whose largest paint is an image or a large block, LCP within 0.3 s of blank. */
const PAINT_IMAGE_PAGES = ["/", "/castles", "/property/gordon-castle", "/tokenomics"];

interface Route {
  id: "api" | "castles" | "property" | "blank";
  label: string;
  path: string;
  accept: string;
  /** The least share of the static server's req/s that issue 11 asks for. */
  target?: number;
}

const HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const ROUTES: Route[] = [
  {
    id: "api",
    label: "GET /api/castles?lang=fr",
    path: "/api/castles?lang=fr",
    accept: "application/json",
    target: 0.5,
  },
  { id: "castles", label: "SSR /castles", path: "/castles", accept: HTML, target: 0.2 },
  {
    id: "property",
    label: "SSR /property/gordon-castle",
    path: "/property/gordon-castle",
    accept: HTML,
    target: 0.2,
  },
];
const BLANK_ROUTE: Route = {
  id: "blank",
  label: "blank React Router SSR page",
  path: "/",
  accept: HTML,
};

const headersFor = (route: Route) => ({
  accept: route.accept,
  "accept-encoding": ACCEPT_ENCODING,
  "accept-language": "en",
});

// ---------------------------------------------------------------- load

interface Measure {
  requestsPerSec: number;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Mean bytes per response on the wire (headers and body), to check both sides sent alike. */
  bytesPerResponse: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;

/** What one or more autocannon runs against the same path saw, before it becomes a Measure. */
interface Samples {
  /** Every response's time in ms (autocannon's own summary has no p95). */
  times: number[];
  bytes: number;
  seconds: number;
  non2xx: number;
  errors: number;
}

const noSamples = (): Samples => ({ times: [], bytes: 0, seconds: 0, non2xx: 0, errors: 0 });

/** autocannon against one path for `seconds`, adding what it saw to `into`. */
async function loadTest(base: string, route: Route, seconds: number, into = noSamples()) {
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${base}${route.path}`,
        connections: CONNECTIONS,
        duration: seconds,
        headers: headersFor(route),
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on("response", (_client, _status, resBytes, responseTime) => {
      into.times.push(responseTime);
      into.bytes += resBytes;
    });
  });
  into.seconds += result.duration;
  into.non2xx += result.non2xx;
  into.errors += result.errors + result.timeouts;
  return into;
}

function measureOf(samples: Samples): Measure {
  const times = [...samples.times].sort((a, b) => a - b);
  return {
    requestsPerSec: times.length / samples.seconds,
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    p99: percentile(times, 0.99),
    requests: times.length,
    non2xx: samples.non2xx,
    errors: samples.errors,
    bytesPerResponse: times.length ? samples.bytes / times.length : 0,
  };
}

/**
 * The servers this process has running, stopped on SIGINT or SIGTERM too (a `timeout` or an
 * interrupted run would otherwise leave them listening).
 */
const running = new Set<RunningServer>();
const track = <T extends RunningServer>(server: T) => (running.add(server), server);
const untrack = <T extends RunningServer>(server: T) => (running.delete(server), server);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void Promise.all([...running].map((server) => server.stop())).finally(() => process.exit(130));
  });
}

interface ThroughputRow {
  route: Route["id"];
  label: string;
  /** cold: response cache off; warm: cache on, after warm-up; none: the blank app has no cache. */
  cache: "cold" | "warm" | "none";
  status: number;
  contentEncoding: string;
  bodyBytes: number;
  /** Headers that tell how the answer was made (X-Cache, ETag, Cache-Control). */
  headers: Record<string, string>;
  /** The first request to each path after the server started (the true cold start). */
  firstRequestMs: number;
  server: Measure;
  static: Measure;
  ratio: number;
}

const KEPT_HEADERS = /^(cache-control|etag|vary|age|x-cache|content-type)$/;

/**
 * Starts a server, times each path's first answer, warms each path up and captures what it
 * sends; starts the static server with those bytes; then loads the two in turns of
 * SECONDS / ROUNDS each (only one under load at a time), so a burst of other work on this
 * shared machine falls on both sides alike.
 */
async function measureAgainstStatic(
  start: () => Promise<RunningServer & { dataDir?: string }>,
  routes: Route[],
  cache: ThroughputRow["cache"],
): Promise<ThroughputRow[]> {
  const server = track(await start());
  let statics: RunningServer | undefined;
  const rows: ThroughputRow[] = [];
  try {
    const first = new Map<string, number>();
    for (const route of routes) {
      const started = performance.now();
      await captureResponse(server.url, route.path, headersFor(route));
      first.set(route.id, performance.now() - started);
    }
    const captured: CapturedResponse[] = [];
    for (const route of routes) {
      await loadTest(server.url, route, WARM_UP_SECONDS);
      captured.push(await captureResponse(server.url, route.path, headersFor(route)));
    }
    statics = track(await startStaticServer(captured));
    for (const [index, route] of routes.entries()) {
      progress(`${route.label} (${cache}): server and static same bytes, ${ROUNDS} turns each`);
      await loadTest(statics.url, route, WARM_UP_SECONDS);
      const serverSamples = noSamples();
      const staticSamples = noSamples();
      for (let round = 0; round < ROUNDS; round++) {
        await loadTest(server.url, route, SECONDS / ROUNDS, serverSamples);
        await loadTest(statics.url, route, SECONDS / ROUNDS, staticSamples);
      }
      const response = captured[index]!;
      const serverMeasure = measureOf(serverSamples);
      const staticMeasure = measureOf(staticSamples);
      rows.push({
        route: route.id,
        label: route.label,
        cache,
        status: response.status,
        contentEncoding: String(response.headers["content-encoding"] ?? "identity"),
        bodyBytes: response.body.length,
        headers: Object.fromEntries(
          Object.entries(response.headers)
            .filter(([name]) => KEPT_HEADERS.test(name))
            .map(([name, value]) => [name, String(value)]),
        ),
        firstRequestMs: first.get(route.id) ?? NaN,
        server: serverMeasure,
        static: staticMeasure,
        ratio: serverMeasure.requestsPerSec / staticMeasure.requestsPerSec,
      });
    }
  } finally {
    await Promise.all([untrack(server).stop(), statics && untrack(statics).stop()]);
    if (server.dataDir) rmSync(server.dataDir, { recursive: true, force: true });
  }
  return rows;
}

async function benchThroughput(): Promise<ThroughputRow[]> {
  if (process.env.RESPONSE_CACHE_MB === "0") {
    progress("warning: RESPONSE_CACHE_MB=0 in the environment, so the warm runs have no cache");
  }
  const cold = await measureAgainstStatic(
    () => startCastellum(undefined, { RESPONSE_CACHE_MB: "0" }),
    ROUTES,
    "cold",
  );
  const warm = await measureAgainstStatic(() => startCastellum(), ROUTES, "warm");
  const blank = await measureAgainstStatic(startBlank, [BLANK_ROUTE], "none");
  return [...cold, ...warm, ...blank];
}

// ---------------------------------------------------------------- search at scale

interface SearchSection {
  status: "measured" | "not available" | "skipped" | "failed";
  note?: string;
  /** What benchCatalogueScale returned. */
  figures?: CatalogueBenchFigures;
}

/**
 * bench/catalogue-scale.ts (written beside this one) is loaded only when present, so that
 * bench:speed runs without it: PGlite with 10,000 estates always, PostgreSQL with 1,000,000
 * (minutes to generate, unless BENCH_CATALOGUE_REUSE=1 kept it) only with --search.
 */
async function benchSearch(): Promise<SearchSection> {
  if (flags["no-search"]) return { status: "skipped", note: "--no-search" };
  if (!existsSync(join(import.meta.dirname, "catalogue-scale.ts"))) {
    return { status: "not available", note: "bench/catalogue-scale.ts is absent" };
  }
  const specifier = "./catalogue-scale.ts";
  const scale = (await import(specifier)) as { benchCatalogueScale?: typeof BenchCatalogueScale };
  if (typeof scale.benchCatalogueScale !== "function") {
    return {
      status: "not available",
      note: "bench/catalogue-scale.ts exports no benchCatalogueScale",
    };
  }
  const onPostgres = flags.search && Boolean(POSTGRES_URL);
  const figures = await scale.benchCatalogueScale({
    ...(onPostgres ? { postgresUrl: POSTGRES_URL } : { postgresEstates: 0 }),
    writeResults: false,
  });
  const note = onPostgres
    ? undefined
    : flags.search
      ? "--search without BENCH_DATABASE_URL or TEST_DATABASE_URL: PGlite only"
      : "PostgreSQL with 1,000,000 estates runs with --search";
  return { status: "measured", note, figures };
}

// ---------------------------------------------------------------- targets and report

interface Target {
  name: string;
  target: string;
  measured: string;
  /** null: not measured in this run. */
  met: boolean | null;
}

interface Results {
  date: string;
  machine: {
    cpus: number;
    model: string;
    memoryGb: number;
    node: string;
    /** 1, 5 and 15 minute load averages: other work on the machine makes figures noisy. */
    loadAverageAtStart: number[];
    loadAverageAtEnd: number[];
  };
  git: { commit: string; dirty: boolean };
  build: { builtAt: string; changedDuringRun: boolean };
  options: {
    seconds: number;
    warmUpSeconds: number;
    connections: number;
    acceptEncoding: string;
    lighthouse: boolean;
    search: boolean;
    postgresSearch: boolean;
  };
  targets: Target[];
  throughput: ThroughputRow[] | { error: string };
  js: Awaited<ReturnType<typeof benchJsSize>> | { error: string };
  lighthouse: LighthouseRow[] | { error: string } | "skipped";
  search: SearchSection;
}

const FORM_PAGES = ["/booking-request", "/membership"];
const FORM_PAGE_JS_KB = 150;

function computeTargets(results: Omit<Results, "targets">): Target[] {
  const targets: Target[] = [];
  const throughput = Array.isArray(results.throughput) ? results.throughput : [];
  for (const route of ROUTES) {
    const warm = throughput.find((row) => row.route === route.id && row.cache === "warm");
    const cold = throughput.find((row) => row.route === route.id && row.cache === "cold");
    const invalid = [warm, cold].map(invalidity).find(Boolean);
    targets.push({
      name: `${route.label} req/s vs static same bytes (warm)`,
      target: `>= ${route.target}x`,
      measured: invalid
        ? `invalid: ${invalid}`
        : warm
          ? `${ratio(warm.ratio)} (cold ${cold ? ratio(cold.ratio) : "?"})`
          : "not measured",
      met: warm && !invalid ? warm.ratio >= route.target! : null,
    });
  }

  const js = "routes" in results.js ? results.js : undefined;
  const worstJs = js?.routes.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  targets.push({
    name: "first-load JS gz vs blank page (worst route)",
    target: "<= 1.4x",
    measured: worstJs ? `${ratio(worstJs.ratio)} (${worstJs.route})` : "not measured",
    met: worstJs ? worstJs.ratio <= 1.4 : null,
  });
  const forms = js?.routes.filter((row) => FORM_PAGES.includes(row.route)) ?? [];
  const worstForm = forms.length ? forms.reduce((a, b) => (b.gzip > a.gzip ? b : a)) : undefined;
  targets.push({
    name: `first-load JS gz of ${FORM_PAGES.join(", ")}`,
    target: `<= ${FORM_PAGE_JS_KB} KB`,
    measured: worstForm ? `${kb(worstForm.gzip)} (${worstForm.route})` : "not measured",
    met: worstForm ? worstForm.gzip <= FORM_PAGE_JS_KB * 1024 : null,
  });

  const lighthouse = Array.isArray(results.lighthouse) ? results.lighthouse : [];
  const blank = lighthouse.find((row) => row.label === "blank page");
  const pages = lighthouse.filter((row) => row !== blank);
  const worstOf = (key: keyof LighthouseRow, direction: 1 | -1) =>
    pages.length
      ? pages.reduce((a, b) => ((Number(b[key]) - Number(a[key])) * direction > 0 ? b : a))
      : undefined;
  const slowest = worstOf("performance", -1);
  targets.push({
    name: "Lighthouse mobile performance (worst page)",
    target: `>= blank - 2${blank ? ` = ${blank.performance - 2}` : ""}`,
    measured: slowest ? `${slowest.performance} (${slowest.label})` : "not measured",
    met: slowest && blank ? slowest.performance >= blank.performance - 2 : null,
  });
  const lcp = worstOf("lcpMs", 1);
  targets.push({
    name: "LCP (worst page)",
    target: "<= 2.5 s",
    measured: lcp ? `${(lcp.lcpMs / 1000).toFixed(2)} s (${lcp.label})` : "not measured",
    met: lcp ? lcp.lcpMs <= 2500 : null,
  });
  const cls = worstOf("cls", 1);
  targets.push({
    name: "CLS (worst page)",
    target: "<= 0.05",
    measured: cls ? `${cls.cls.toFixed(3)} (${cls.label})` : "not measured",
    met: cls ? cls.cls <= 0.05 : null,
  });

  // Issue 22's first-paint targets, each beside the blank page of the same run.
  const pathOf = (row: LighthouseRow) => row.label.replace(/ \((?:en|zh)\)$/, "");
  const overBlank = (row: LighthouseRow) => (blank ? row.lcpMs - blank.lcpMs : NaN);
  for (const [group, limitMs] of [
    ["image pages", 300],
    ["text pages", 200],
  ] as const) {
    const rows = pages.filter(
      (row) => PAINT_IMAGE_PAGES.includes(pathOf(row)) === (group === "image pages"),
    );
    const worst = rows.length
      ? rows.reduce((a, b) => (overBlank(b) > overBlank(a) ? b : a))
      : undefined;
    targets.push({
      name: `LCP over the blank page's, ${group} (${group === "image pages" ? PAINT_IMAGE_PAGES.join(", ") : "the rest"}), worst`,
      target: `<= +${(limitMs / 1000).toFixed(1)} s`,
      measured:
        worst && blank
          ? `+${(overBlank(worst) / 1000).toFixed(2)} s (${worst.label}: ${(worst.lcpMs / 1000).toFixed(2)} s, blank ${(blank.lcpMs / 1000).toFixed(2)} s)`
          : "not measured",
      met: worst && blank ? overBlank(worst) <= limitMs : null,
    });
  }
  targets.push({
    name: "Lighthouse mobile performance, every page in en and zh (issue 22)",
    target: `>= blank - 3${blank ? ` = ${blank.performance - 3}` : ""}`,
    measured: slowest ? `${slowest.performance} (${slowest.label})` : "not measured",
    met: slowest && blank ? slowest.performance >= blank.performance - 3 : null,
  });

  const scale = results.search.figures;
  // The search at scale (issues 11 and 22), as bench/catalogue-scale.ts judges it.
  if (!scale)
    targets.push({
      name: "search at scale (bench:catalogue)",
      target: "issue 22's",
      measured: results.search.status,
      met: null,
    });
  for (const target of scale?.targets ?? []) {
    targets.push({
      name: target.name,
      target: target.target,
      measured: target.value,
      met: target.isMet,
    });
  }
  return targets;
}

/** Why a row's figures do not count: the server did not answer 200 throughout. */
function invalidity(row: ThroughputRow | undefined): string | undefined {
  if (!row) return undefined;
  if (row.status !== 200) return `${row.cache} run answered ${row.status}`;
  if (row.server.non2xx || row.server.errors) {
    return `${row.cache} run had ${row.server.non2xx} non-2xx and ${row.server.errors} errors`;
  }
  return undefined;
}

const loads = (values: number[]) => values.map((n) => n.toFixed(2)).join(" ");
const ratio = (value: number) => `${value < 0.1 ? value.toFixed(3) : value.toFixed(2)}x`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0));
const int = (value: number) => Math.round(value).toLocaleString("en");

/** A Markdown table with padded columns (readable as text, pasteable into the README). */
function table(head: string[], rows: string[][]): string {
  const widths = head.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

function report(results: Results): string {
  const parts: string[] = [];
  const { machine, options } = results;
  parts.push(
    `# bench:speed, ${results.date}\n\n` +
      `${machine.cpus} x ${machine.model}, ${machine.memoryGb} GB, Node ${machine.node}, ` +
      `load ${loads(machine.loadAverageAtStart)} at start, ${loads(machine.loadAverageAtEnd)} at end; ` +
      `commit ${results.git.commit.slice(0, 10)}${results.git.dirty ? " (uncommitted changes)" : ""}, ` +
      `build of ${results.build.builtAt}.\n` +
      `autocannon ${options.connections} connections, ${options.seconds} s per run after ` +
      `${options.warmUpSeconds} s of warm-up; Accept-Encoding: ${options.acceptEncoding}.` +
      (results.build.changedDuringRun
        ? "\n\n**Warning: build/ changed during the run (a rebuild); figures may mix two builds.**"
        : ""),
  );
  parts.push(
    "## Targets (issue 11)\n\n" +
      table(
        ["target", "wanted", "measured", ""],
        results.targets.map((t) => [
          t.name,
          t.target,
          t.measured,
          t.met === null ? "not measured" : t.met ? "met" : "NOT MET",
        ]),
      ),
  );

  if (Array.isArray(results.throughput)) {
    parts.push(
      "## Requests per second against a static server sending the same bytes\n\n" +
        "cold: response cache off (RESPONSE_CACHE_MB=0), every request renders; warm: cache " +
        "on, after warm-up. Latencies in ms (p50 / p95 / p99).\n\n" +
        table(
          [
            "route",
            "cache",
            "body",
            "static req/s",
            "server req/s",
            "ratio",
            "server latency",
            "static latency",
            "first request",
          ],
          results.throughput.map((row) => [
            row.label,
            row.cache,
            [
              `${kb(row.bodyBytes)} ${row.contentEncoding}`,
              row.headers["x-cache"],
              row.status === 200 ? undefined : `status ${row.status}`,
            ]
              .filter(Boolean)
              .join(", "),
            int(row.static.requestsPerSec),
            `${int(row.server.requestsPerSec)}${row.server.non2xx || row.server.errors ? ` (${row.server.non2xx} non-2xx, ${row.server.errors} errors)` : ""}`,
            ratio(row.ratio),
            `${ms(row.server.p50)} / ${ms(row.server.p95)} / ${ms(row.server.p99)}`,
            `${ms(row.static.p50)} / ${ms(row.static.p95)} / ${ms(row.static.p99)}`,
            `${ms(row.firstRequestMs)} ms`,
          ]),
        ),
    );
  } else {
    parts.push(`## Requests per second\n\nfailed: ${results.throughput.error}`);
  }

  if ("routes" in results.js) {
    const { baseline, routes } = results.js;
    parts.push(
      "## First-load JavaScript (gzip -9) against the blank page\n\n" +
        table(
          ["route", "gz", "files", "x blank"],
          [
            ["blank page of the same stack", kb(baseline.gzip), String(baseline.files), "1.00x"],
            ...routes.map((row) => [row.route, kb(row.gzip), String(row.files), ratio(row.ratio)]),
          ],
        ),
    );
  } else {
    parts.push(`## First-load JavaScript\n\nfailed: ${results.js.error}`);
  }

  if (Array.isArray(results.lighthouse)) {
    parts.push(
      "## Lighthouse mobile against the blank page\n\n" +
        table(
          ["page", "perf", "a11y", "best pr.", "SEO", "LCP", "TBT", "CLS"],
          results.lighthouse.map((row) => [
            row.label,
            String(row.performance),
            String(row.accessibility),
            String(row.bestPractices),
            String(row.seo),
            `${(row.lcpMs / 1000).toFixed(2)} s`,
            `${int(row.tbtMs)} ms`,
            row.cls.toFixed(3),
          ]),
        ),
    );
  } else {
    parts.push(
      `## Lighthouse\n\n${results.lighthouse === "skipped" ? "skipped (--no-lighthouse)" : `failed: ${results.lighthouse.error}`}`,
    );
  }

  const search = results.search;
  const backends = [search.figures?.postgres, search.figures?.pglite].filter(
    (figures) => figures != null,
  );
  parts.push(
    "## Catalogue search at scale (bench/catalogue-scale.ts, in process, no HTTP)\n\n" +
      `${search.status}${search.note ? `: ${search.note}` : ""}` +
      (backends.length
        ? "\n\n" +
          table(
            ["backend", "estates", "searches", "concurrency", "req/s", "p50", "p95", "p99"],
            backends.flatMap((figures) =>
              (["all", "filters", "text"] as const).map((kind) => {
                const latency = figures.search[kind];
                return [
                  figures.backend,
                  int(figures.estates),
                  kind,
                  String(figures.search.concurrency),
                  int(latency.perSecond),
                  `${ms(latency.p50)} ms`,
                  `${ms(latency.p95)} ms`,
                  `${ms(latency.p99)} ms`,
                ];
              }),
            ),
          )
        : ""),
  );
  return `${parts.join("\n\n")}\n`;
}

// ---------------------------------------------------------------- run

function progress(message: string) {
  console.log(`bench:speed: ${message}`);
}

const errorOf = (error: unknown) => {
  process.exitCode = 1;
  console.error(error);
  return { error: error instanceof Error ? error.message : String(error) };
};

function gitState() {
  try {
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT }).toString().trim();
    const dirty = execFileSync("git", ["status", "--porcelain"], { cwd: ROOT }).length > 0;
    return { commit, dirty };
  } catch {
    return { commit: "unknown", dirty: true };
  }
}

try {
  if (flags.build) {
    execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
    rmSync(join(ROOT, "bench/blank/build"), { recursive: true, force: true });
  }
  ensureBuilds();
} catch (error) {
  console.error(
    "bench:speed needs the production builds (build/ and bench/blank/build/), and building them failed.\n" +
      "Run `npm run build` (and `npx react-router build bench/blank`) and look at its errors.",
  );
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const date = new Date().toISOString();
const machineAtStart = {
  cpus: cpus().length,
  model: cpus()[0]?.model.trim() ?? "unknown",
  memoryGb: Math.round(totalmem() / 1024 ** 3),
  node: process.version,
  loadAverageAtStart: loadavg(),
};
const BUILD_ENTRY = join(ROOT, "build/server/index.js");
/** The build's entry names its hashed chunks, so a rebuild changes it (and its time). */
const buildStamp = () =>
  existsSync(BUILD_ENTRY)
    ? `${statSync(BUILD_ENTRY).mtime.toISOString()} ${readFileSync(BUILD_ENTRY, "utf8")}`
    : "missing";
const buildAtStart = buildStamp();
if (machineAtStart.loadAverageAtStart[0]! > machineAtStart.cpus) {
  progress(
    `warning: load average ${loads(machineAtStart.loadAverageAtStart)} on ${machineAtStart.cpus} cores; ` +
      "other work will make the figures noisy (the ratios less so: both sides share it)",
  );
}
progress(
  `${ROUTES.length} routes with the cache off and on, and the blank page, each beside a static ` +
    `server, ${SECONDS} s each; then first-load JS` +
    `${flags["no-lighthouse"] ? "" : ", Lighthouse"}${flags["no-search"] ? "" : ", search"}`,
);

const throughput = await benchThroughput().catch(errorOf);
progress("first-load JS");
const js = await benchJsSize().catch(errorOf);
let lighthouse: Results["lighthouse"] = "skipped";
if (!flags["no-lighthouse"]) {
  progress("Lighthouse");
  lighthouse = await benchLighthouse().catch(errorOf);
}
progress("catalogue search");
const search = await benchSearch().catch((error: unknown): SearchSection => ({
  status: "failed",
  note: errorOf(error).error,
}));

const partial: Omit<Results, "targets"> = {
  date,
  machine: { ...machineAtStart, loadAverageAtEnd: loadavg() },
  git: gitState(),
  build: { builtAt: buildAtStart.split(" ")[0]!, changedDuringRun: buildStamp() !== buildAtStart },
  options: {
    seconds: SECONDS,
    warmUpSeconds: WARM_UP_SECONDS,
    connections: CONNECTIONS,
    acceptEncoding: ACCEPT_ENCODING,
    lighthouse: !flags["no-lighthouse"],
    search: !flags["no-search"],
    postgresSearch: flags.search && Boolean(POSTGRES_URL),
  },
  throughput,
  js,
  lighthouse,
  search,
};
const results: Results = { ...partial, targets: computeTargets(partial) };
const text = report(results);
console.log(`\n${text}`);

mkdirSync(RESULTS_DIR, { recursive: true });
const stamp = date.replace(/[:.]/g, "-");
const json = `${JSON.stringify(results, null, 2)}\n`;
for (const name of [`speed-${stamp}`, "latest"]) {
  writeFileSync(join(RESULTS_DIR, `${name}.json`), json);
  writeFileSync(join(RESULTS_DIR, `${name}.md`), text);
}
console.log(`Saved bench/results/speed-${stamp}.json (and .md, latest.json, latest.md).`);
