import { AxeBuilder } from "@axe-core/playwright";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, expect } from "vitest";
import { sharedServer } from "./harness.ts";

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

/**
 * One Chromium for the whole file, launched when a journey first asks for a page and closed
 * by the file's last hook (setup.ts): several describe blocks of a file each launched their
 * own before, a second or more each on a loaded machine.
 */
let launched: Promise<Browser> | undefined;

function fileBrowser(): Promise<Browser> {
  launched ??= chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  return launched;
}

/** Closes the file's Chromium, if one was launched (setup.ts, after the file's last test). */
export async function closeFileBrowser(): Promise<void> {
  const browser = launched;
  launched = undefined;
  await (await browser?.catch(() => undefined))?.close();
}

/** The file's Chromium; each journey gets a fresh context (cookies, storage). */
export function useBrowser() {
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  return {
    /** A new page in a new context, optionally with an Accept-Language. */
    async newPage(
      options: {
        locale?: string;
        viewport?: { width: number; height: number };
        /** Another server than the worker's shared one (a journey that runs its own). */
        baseURL?: string;
      } = {},
    ): Promise<Page> {
      const context = await (
        await fileBrowser()
      ).newContext({
        baseURL: options.baseURL ?? sharedServer().baseURL,
        locale: options.locale ?? "en-GB",
        viewport: options.viewport ?? { width: 1280, height: 900 },
      });
      contexts.push(context);
      return context.newPage();
    },
  };
}

/**
 * Waits until the page is still: React Router has no navigation, revalidation or fetcher under
 * way, and every finite CSS animation and transition has ended, including those that a render
 * after the data arrived started. Axe measures colour contrast as painted: half-way through a
 * dialog's fade-in, the text behind its backdrop (and the dialog's own text) is measured at a
 * blend no one sees once the fade has ended, and rows a revalidation re-renders under an open
 * dialog are measured before the dialog hides them again.
 */
export async function animationsSettled(page: Page) {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    type RouterState = {
      navigation: { state: string };
      revalidation: string;
      fetchers: Map<string, { state: string }>;
    };
    const router = (window as { __reactRouterDataRouter?: { state: RouterState } })
      .__reactRouterDataRouter;
    const routerBusy = () => {
      if (!router) return false;
      const { navigation, revalidation, fetchers } = router.state;
      return (
        navigation.state !== "idle" ||
        revalidation !== "idle" ||
        [...fetchers.values()].some((fetcher) => fetcher.state !== "idle")
      );
    };
    // Each round waits for what is running; a quiet round (two frames, nothing running) ends it.
    for (let round = 0; round < 50; round++) {
      await frame();
      await frame();
      const running = document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === "running" &&
            animation.effect?.getComputedTiming().iterations !== Infinity,
        );
      if (!running.length && !routerBusy()) return;
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
    }
  });
}

/** Fails with the list of axe violations (WCAG 2.x A and AA) on the page as it is now. */
export async function expectNoAxeViolations(page: Page, label = page.url()) {
  await animationsSettled(page);
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
