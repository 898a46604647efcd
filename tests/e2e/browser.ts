import { AxeBuilder } from "@axe-core/playwright";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject } from "vitest";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Flags for this machine's closed network (DESIGN.md). */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** One Chromium for the file; each journey gets a fresh context (cookies, storage). */
export function useBrowser() {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
  });
  return {
    baseURL: inject("baseURL"),
    /** A new page in a new context, optionally with an Accept-Language. */
    async newPage(
      options: {
        locale?: string;
        viewport?: { width: number; height: number };
        /** Another server than the shared one (a journey that runs its own). */
        baseURL?: string;
      } = {},
    ): Promise<Page> {
      if (!browser) throw new Error("browser not started");
      const context = await browser.newContext({
        baseURL: options.baseURL ?? inject("baseURL"),
        locale: options.locale ?? "en-GB",
        viewport: options.viewport ?? { width: 1280, height: 900 },
      });
      contexts.push(context);
      return context.newPage();
    },
  };
}

/** Fails with the list of axe violations (WCAG 2.x A and AA) on the page as it is now. */
export async function expectNoAxeViolations(page: Page, label = page.url()) {
  // Only violations are read: listing every passing node (a page of month grids has hundreds
  // of day cells) costs axe most of its time. A page without frames is checked in place
  // (legacy mode): the frame-by-frame run serialises all its results through a second page,
  // which took 40 s for the property page's twelve months where this takes a few.
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .options({ resultTypes: ["violations"] })
    .setLegacyMode(page.frames().length === 1)
    .analyze();
  const summary = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join(", ")}`,
  );
  expect(summary, label).toEqual([]);
}
