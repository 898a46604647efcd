/**
 * First-load JavaScript per route: every module script and modulepreload the server-rendered
 * HTML asks for (at once, or after the first screen), gzipped, beside the blank page of the
 * same stack.
 */
import { gzipSync } from "node:zlib";
import { PUBLIC_PAGES } from "#content/site.ts";
import { ensureBuilds, startBlank, startCastellum } from "./servers.ts";

async function firstLoadJs(
  base: string,
  path: string,
): Promise<{ files: number; raw: number; gzip: number }> {
  const html = await (
    await fetch(`${base}${path}`, { headers: { "Accept-Language": "en" } })
  ).text();
  const urls = new Set<string>();
  for (const match of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g))
    urls.add(match[1] ?? "");
  // A public page lists its modules on its deferred module script instead (they load after its
  // first screen, server/deferred-loading.ts): the same first load, later.
  for (const match of html.matchAll(/data-modulepreload="([^"]*)"/g))
    for (const url of (match[1] ?? "").split(" ").filter(Boolean)) urls.add(url);
  for (const match of html.matchAll(/import\s*\(?\s*"([^"]+\.js)"/g)) urls.add(match[1] ?? "");
  for (const match of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) urls.add(match[1] ?? "");
  let raw = 0;
  let gzip = 0;
  for (const url of urls) {
    const bytes = Buffer.from(await (await fetch(new URL(url, base))).arrayBuffer());
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  // Inline scripts (the hydration data and the manifest) travel with the HTML.
  return { files: urls.size, raw, gzip };
}

/** Every public page (the sitemap's list), one estate, its booking form, and the not-found page. */
export const ROUTES = [
  ...PUBLIC_PAGES,
  "/property/gordon-castle",
  "/booking/gordon-castle",
  "/no-such-page",
];

/** One route's first-load JavaScript; `ratio` is gzip bytes over the blank page's. */
export interface JsSizeRow {
  route: string;
  files: number;
  raw: number;
  gzip: number;
  ratio: number;
}

/** Prints the table and returns its figures (bench:speed keeps them). */
export async function benchJsSize(): Promise<{
  baseline: { files: number; raw: number; gzip: number };
  routes: JsSizeRow[];
}> {
  ensureBuilds();
  const app = await startCastellum();
  const blank = await startBlank();
  try {
    const baseline = await firstLoadJs(blank.url, "/");
    console.log("\nFirst-load JavaScript per route (gzip -9)");
    console.log(
      `  ${"blank page of the same stack".padEnd(34)} ${(baseline.gzip / 1024).toFixed(1).padStart(6)} KB  (${baseline.files} files)`,
    );
    const routes: JsSizeRow[] = [];
    for (const route of ROUTES) {
      const size = await firstLoadJs(app.url, route);
      routes.push({ route, ...size, ratio: size.gzip / baseline.gzip });
      console.log(
        `  ${route.padEnd(34)} ${(size.gzip / 1024).toFixed(1).padStart(6)} KB  (${size.files} files, ×${(size.gzip / baseline.gzip).toFixed(2)} blank)`,
      );
    }
    return { baseline, routes };
  } finally {
    await Promise.all([app.stop(), blank.stop()]);
  }
}

if (import.meta.main) await benchJsSize();
