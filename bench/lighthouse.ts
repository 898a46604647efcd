/**
 * Lighthouse mobile scores for the main pages beside a blank page of the same stack, measured
 * in the same run (CHROME_PATH defaults to Debian's Chromium). One run is noisy on a shared
 * machine (whether the first paint lands before or after the scripts finish loading moves a
 * simulated FCP by a second, for the blank page too), so every page is measured in several
 * interleaved rounds (LIGHTHOUSE_RUNS, 3 by default) after a warm-up round, and each figure is
 * the median of its rounds; a round Lighthouse could not finish is measured once more.
 * `node bench/lighthouse.ts --all` (or `npm run bench:lighthouse -- --all`) measures every public
 * page, in English and Chinese, beside the blank page in the same run.
 */
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
import { PUBLIC_PAGES } from "#content/site.ts";
import { ensureBuilds, startBlank, startCastellum } from "./servers.ts";

export const CHROME_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The pages issue 3 measures, each in English and Chinese. */
export const LIGHTHOUSE_PATHS = [
  "/",
  "/castles",
  "/property/gordon-castle",
  "/faqs",
  "/tokenomics",
];

/** Every public page, one estate and its booking form (`--all`). */
export const ALL_LIGHTHOUSE_PATHS = [
  ...PUBLIC_PAGES,
  "/property/gordon-castle",
  "/booking/gordon-castle",
];

/** Rounds per page; each figure printed is their median. */
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One Lighthouse run's scores (0-100) and metrics (LCP and TBT in ms, CLS unitless). */
export interface LighthouseRow {
  label: string;
  url: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Where the time went, from the page's last round: what an unmet target is profiled by. */
  profile?: LighthouseProfile;
}

/** The LCP element, its phases (ms) and the longest main-thread tasks, from one round. */
export interface LighthouseProfile {
  lcpElement: string;
  lcpPhases: Record<string, number>;
  longTasks: { url: string; ms: number }[];
  bytes: number;
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

function profileOf(lhr: Lhr, origin: string): LighthouseProfile {
  type Table = { type?: string; items?: Record<string, unknown>[] };
  const lcp = lhr.audits["largest-contentful-paint-element"]?.details as
    { items?: Table[] } | undefined;
  const [elementTable, phaseTable] = lcp?.items ?? [];
  const node = elementTable?.items?.[0]?.node as
    { nodeLabel?: string; selector?: string } | undefined;
  const lcpPhases = Object.fromEntries(
    (phaseTable?.items ?? []).map((item) => [String(item.phase), Math.round(Number(item.timing))]),
  );
  const tasks = (lhr.audits["long-tasks"]?.details as Table | undefined)?.items ?? [];
  const short = (url: unknown) => String(url).replace(origin, "");
  return {
    lcpElement: (node?.nodeLabel ?? node?.selector ?? "?").slice(0, 40),
    lcpPhases,
    longTasks: tasks.slice(0, 3).map((task) => ({
      url: short(task.url).slice(0, 40),
      ms: Math.round(Number(task.duration)),
    })),
    bytes: Math.round(lhr.audits["total-byte-weight"]?.numericValue ?? 0),
  };
}

/**
 * Prints the table and returns its rows, the blank page first (bench:speed keeps them): each
 * score and metric the median of the page's rounds.
 */
export async function benchLighthouse(paths = LIGHTHOUSE_PATHS): Promise<LighthouseRow[]> {
  ensureBuilds();
  const app = await startCastellum();
  const blank = await startBlank();
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: CHROME_FLAGS,
  });
  try {
    const targets = [
      ["blank page", `${blank.url}/`],
      ...paths.flatMap((path) => [
        [`${path} (en)`, `${app.url}${path}?lang=en`],
        [`${path} (zh)`, `${app.url}${path}?lang=zh`],
      ]),
    ];
    // Warm the media cache so the runs measure serving, not the first encode.
    for (const [, url] of targets) await fetch(url ?? "");
    type Run = Omit<LighthouseRow, "label" | "url">;
    const origin = (url: string) => new URL(url).origin;
    const measure = async (url: string): Promise<Run | { failed: string }> => {
      const lhr = (await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error" }))
        ?.lhr;
      if (!lhr) throw new Error(`no Lighthouse result for ${url}`);
      // A run Lighthouse could not finish (a timeout on a busy machine, no paint seen) scores
      // 0 with no metrics: it is reported by its code and left out of the medians.
      if (lhr.runtimeError) return { failed: String(lhr.runtimeError.code ?? "unknown") };
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      return {
        performance: score("performance"),
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        seo: score("seo"),
        lcpMs: metric("largest-contentful-paint"),
        tbtMs: metric("total-blocking-time"),
        cls: metric("cumulative-layout-shift"),
        profile: profileOf(lhr, origin(url)),
      };
    };
    // A warm-up round (the browser's and the server's first visits), then interleaved rounds:
    // a busy moment on the machine then touches every page alike, not one page's figures.
    for (const [, url] of targets) await measure(String(url));
    const runs = new Map<string, Run[]>();
    const failures = new Map<string, string[]>();
    for (let round = 0; round < RUNS; round++)
      for (const [label, url] of targets) {
        let run = await measure(String(url));
        // Lighthouse sometimes loses the navigation's start in its trace on this busy machine
        // (NO_NAVSTART): such a round is measured once more, so the median keeps its rounds.
        if ("failed" in run) {
          failures.set(String(label), [...(failures.get(String(label)) ?? []), run.failed]);
          run = await measure(String(url));
        }
        if ("failed" in run) {
          failures.set(String(label), [...(failures.get(String(label)) ?? []), run.failed]);
          continue;
        }
        runs.set(String(label), [...(runs.get(String(label)) ?? []), run]);
      }
    console.log(
      `\nLighthouse mobile, median of ${RUNS} (performance / accessibility / best practices / SEO, LCP, TBT, CLS)`,
    );
    const rows: LighthouseRow[] = [];
    for (const [label, url] of targets) {
      const list = runs.get(String(label)) ?? [];
      const of = (key: Exclude<keyof Run, "profile">) => median(list.map((run) => run[key]));
      const row: LighthouseRow = {
        label: String(label),
        url: String(url),
        performance: of("performance"),
        accessibility: of("accessibility"),
        bestPractices: of("bestPractices"),
        seo: of("seo"),
        lcpMs: of("lcpMs"),
        tbtMs: of("tbtMs"),
        cls: of("cls"),
        profile: list.at(-1)?.profile,
      };
      rows.push(row);
      const failed = failures.get(String(label)) ?? [];
      const spread =
        list.map((run) => run.performance).join(",") +
        (failed.length ? `; not finished, each measured once more: ${failed.join(", ")}` : "");
      console.log(
        `  ${row.label.padEnd(34)} ${row.performance} / ${row.accessibility} / ${row.bestPractices} / ${row.seo}   LCP ${(row.lcpMs / 1000).toFixed(1)} s, TBT ${Math.round(row.tbtMs)} ms, CLS ${row.cls.toFixed(3)}   (performance per round: ${spread})`,
      );
    }
    console.log(
      "\nWhere the time went (each page's last round): the LCP element, its phases (TTFB, load delay, load time, render delay), the longest tasks, the bytes",
    );
    for (const row of rows) {
      const profile = row.profile;
      if (!profile) continue;
      const phases = Object.entries(profile.lcpPhases)
        .map(([phase, ms]) => `${phase} ${ms}`)
        .join(", ");
      const tasks = profile.longTasks.map((task) => `${task.ms} ms ${task.url}`).join("; ");
      console.log(
        `  ${row.label.padEnd(34)} ${profile.lcpElement}: ${phases} ms | ${tasks || "no long task"} | ${Math.round(profile.bytes / 1024)} KB`,
      );
    }
    return rows;
  } finally {
    chrome.kill();
    await Promise.all([app.stop(), blank.stop()]);
  }
}

if (import.meta.main)
  await benchLighthouse(process.argv.includes("--all") ? ALL_LIGHTHOUSE_PATHS : LIGHTHOUSE_PATHS);
