import { get } from "node:http";
import { rmSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowser } from "./browser.ts";
import { dataTemplate, sharedServer } from "./harness.ts";
import { copyDataDir, startServer } from "./server.ts";

/** The pages whose first paint is measured, and a text page. */
const PAGES = ["/", "/castles", "/property/gordon-castle", "/tokenomics", "/faqs"];
const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];
const STYLESHEET = /\/assets\/[^/]+\.css$/;

/**
 * Every element of the first screen as "tag x,y w×h", in document order, cut at the screen's
 * bottom edge: what a person sees laid out before scrolling. Any rule the inlined part lacks
 * for that screen moves or resizes one of them.
 */
async function firstScreen(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.body.querySelectorAll("*")].flatMap((element) => {
      const box = element.getBoundingClientRect();
      const bottom = Math.min(box.bottom, window.innerHeight);
      if (box.top >= window.innerHeight || box.width === 0 || box.height === 0) return [];
      const at = [box.x, box.y, box.width, bottom - box.y].map((n) => Math.round(n));
      return [`${element.tagName.toLowerCase()} ${at[0]},${at[1]} ${at[2]}×${at[3]}`];
    }),
  );
}

describe("the first paint of a public page", () => {
  const browser = useBrowser();

  for (const language of ["en", "zh"])
    it(`lays out the first screen from the inlined rules alone, as the whole stylesheet does (${language})`, async () => {
      for (const viewport of VIEWPORTS) {
        const page = await browser.newPage({ viewport });
        await page.emulateMedia({ reducedMotion: "reduce" });
        // Both loads draw in the fallback face: the comparison is of the stylesheet alone.
        await page.route(/\.woff2$/, (route) => route.abort());
        for (const path of PAGES) {
          const url = `${path}?lang=${language}`;
          await page.goto(url, { waitUntil: "networkidle" });
          await expect.poll(() => page.locator("link[data-swap-media]").count()).toBe(1);
          await page.waitForFunction(() =>
            [...document.querySelectorAll("link[data-swap-media]")].every(
              (link) => (link as HTMLLinkElement).media === "all",
            ),
          );
          const whole = await firstScreen(page);

          // The same page with its stylesheet never arriving: only the inlined rules apply.
          await page.route(STYLESHEET, (route) => route.abort());
          await page.goto(url, { waitUntil: "networkidle" });
          const inlinedOnly = await firstScreen(page);
          await page.unroute(STYLESHEET);

          expect(inlinedOnly, `${url} at ${viewport.width} px`).toEqual(whole);
        }
      }
    });

  it("applies the whole stylesheet once it has loaded, with the page's policy in force", async () => {
    const page = await browser.newPage();
    const blocked: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto("/property/gordon-castle");
    const link = page.locator("link[data-swap-media]");
    await expect.poll(() => link.evaluate((l) => (l as HTMLLinkElement).media)).toBe("all");
    // The loaded sheet is the whole one, and applies to the screen beside the inlined part.
    const sheets = await page.evaluate(() =>
      [...document.styleSheets].map((sheet) => ({
        inline: sheet.href === null,
        media: sheet.media.mediaText,
        rules: sheet.cssRules.length,
      })),
    );
    const [inlined, whole] = [sheets.filter((s) => s.inline), sheets.filter((s) => !s.inline)];
    expect(inlined).toHaveLength(1);
    expect(whole).toHaveLength(1);
    expect(whole[0]!.media).toBe("all");
    expect(whole[0]!.rules).toBeGreaterThan(inlined[0]!.rules);
    expect(blocked).toEqual([]);
  });

  it("keeps the ordinary stylesheet on staff pages, and names it early there only", async () => {
    const page = await browser.newPage();
    for (const path of ["/", "/", "/faqs?lang=zh", "/admin/login"]) {
      const answer = await page.request.get(path);
      const html = await answer.text();
      const href = html.match(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/)?.[1];
      expect(href, path).toMatch(STYLESHEET);
      const isStaff = path.startsWith("/admin");
      // A staff page needs its stylesheet to paint: the answer names it (from the response
      // cache too: the second "/" is a stored copy). A public page paints from its inlined
      // rules and fetches the whole stylesheet after its first screen: nothing names it early.
      expect(answer.headers().link, path).toBe(
        isStaff ? `<${href}>; rel=preload; as=style` : undefined,
      );
      // The inlined rules, then the deferred stylesheet, held; the staff pages' link as it was.
      const deferred =
        /<style>[^]+?<\/style><link[^>]*media="print" data-swap-media="all" disabled/;
      expect(deferred.test(html), path).toBe(!isStaff);
      expect(/<link[^>]*data-swap-media/.test(html), path).toBe(!isStaff);
    }
  });

  it("fetches the largest image before the scripts and the stylesheet, which follow its paint", async () => {
    for (const language of ["en", "zh"]) {
      const page = await browser.newPage();
      const requested: string[] = [];
      page.on("request", (request) => requested.push(new URL(request.url()).pathname));
      await page.goto(`/property/gordon-castle?lang=${language}`);
      // The page hydrates, its scripts started by the root's inline script.
      await page.waitForFunction(() => "__reactRouterDataRouter" in window);
      const firstPhoto = requested.findIndex((path) => /\/media\/gordon-castle-1-/.test(path));
      const firstScript = requested.findIndex((path) => /^\/assets\/.+\.js$/.test(path));
      const stylesheet = requested.findIndex((path) => STYLESHEET.test(path));
      expect(firstPhoto, language).toBeGreaterThanOrEqual(0);
      expect(firstScript, language).toBeGreaterThan(firstPhoto);
      expect(stylesheet, language).toBeGreaterThan(firstPhoto);
      // The photo is announced at the top of the head, at high priority, in the <picture>'s
      // first format; the route's modules are not announced in the HTML at all.
      const html = await (
        await page.request.get(`/property/gordon-castle?lang=${language}`)
      ).text();
      const head = html.slice(0, html.indexOf("<body"));
      expect(head).toMatch(
        /^<!DOCTYPE html><html[^>]*><head><meta charSet="utf-8"\/><meta name="viewport"[^>]*\/>(?:<link rel="preload" as="image" href="\/brand\/crest.svg"\/>)?<link rel="preload" as="image" type="image\/avif" fetchPriority="high" imageSrcSet="\/media\/gordon-castle-1-/,
      );
      expect(html).not.toContain('rel="modulepreload"');
      await page.close();
    }
  });
});

describe("103 Early Hints", () => {
  /** The informational answers before the page, and the page's own status. */
  function getWithHints(url: string) {
    return new Promise<{ hints: { status: number; link: unknown }[]; status: number }>(
      (resolve, reject) => {
        const hints: { status: number; link: unknown }[] = [];
        const request = get(url, (answer) => {
          answer.resume();
          answer.on("end", () => resolve({ hints, status: answer.statusCode ?? 0 }));
        });
        request.on("information", (info) =>
          hints.push({ status: info.statusCode, link: info.headers.link }),
        );
        request.on("error", reject);
      },
    );
  }

  it("name a staff page's stylesheet before the page when EARLY_HINTS is on, and not otherwise", async () => {
    // On: a server of the journey's own. Off: the worker's shared server, which leaves it unset.
    const dataDir = copyDataDir("hints", dataTemplate("seeded"));
    try {
      const server = await startServer({ DATA_DIR: dataDir, EARLY_HINTS: "true" });
      try {
        const [on, off] = await Promise.all(
          [server.baseURL, sharedServer().baseURL].map((url) => getWithHints(`${url}/admin/login`)),
        );
        expect(on!.status).toBe(200);
        expect(on!.hints.map((hint) => hint.status)).toEqual([103]);
        expect(on!.hints[0]!.link).toMatch(/^<\/assets\/[^/]+\.css>; rel=preload; as=style$/);
        expect(off).toEqual({ hints: [], status: 200 });
        // A public page paints without its stylesheet (its rules are inlined): no hint.
        expect(await getWithHints(`${server.baseURL}/castles`)).toEqual({ hints: [], status: 200 });
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
