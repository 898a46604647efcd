/**
 * Lighthouse mobile scores for the main pages beside a blank page of the same stack, measured
 * in the same run (CHROME_PATH defaults to Debian's Chromium).
 */
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
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
}

/** Prints the table and returns its rows, the blank page first (bench:speed keeps them). */
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
    console.log(
      "\nLighthouse mobile (performance / accessibility / best practices / SEO, LCP, TBT, CLS)",
    );
    const rows: LighthouseRow[] = [];
    for (const [label, url] of targets) {
      await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error" });
      const result = await lighthouse(url, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
      });
      const lhr = result?.lhr;
      if (!lhr) throw new Error(`no Lighthouse result for ${url}`);
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const audit = (id: string) => lhr.audits[id]?.displayValue ?? "?";
      const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      rows.push({
        label: String(label),
        url: String(url),
        performance: score("performance"),
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        seo: score("seo"),
        lcpMs: metric("largest-contentful-paint"),
        tbtMs: metric("total-blocking-time"),
        cls: metric("cumulative-layout-shift"),
      });
      console.log(
        `  ${String(label).padEnd(34)} ${score("performance")} / ${score("accessibility")} / ${score("best-practices")} / ${score("seo")}   LCP ${audit("largest-contentful-paint")}, TBT ${audit("total-blocking-time")}, CLS ${audit("cumulative-layout-shift")}`,
      );
    }
    return rows;
  } finally {
    chrome.kill();
    await Promise.all([app.stop(), blank.stop()]);
  }
}

if (import.meta.main) await benchLighthouse();
