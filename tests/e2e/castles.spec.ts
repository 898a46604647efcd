import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { loadPropertyContent } from "#content/load-properties.ts";
import { CATALOGUE_PAGE_SIZE } from "#domain/catalogue/catalogue-filter.schema.ts";
import { addDays } from "#domain/calendar/nights.ts";
import { lastBookableDate, utcToday } from "#domain/requests/dates.ts";
import { FORM_LIMITS } from "#domain/requests/options.ts";
import frCommon from "#i18n/locales/fr/common.json" with { type: "json" };
import { expectNoAxeViolations, useBrowser } from "./browser.ts";

/** The demo catalogue the journeys' server was seeded with. */
const DEMO = loadPropertyContent(join(import.meta.dirname, "../../content/properties"));

describe("the castle network", () => {
  const browser = useBrowser();

  it("lists 40+ estates in English with the call-out, badges and card details", async () => {
    const page = await browser.newPage();
    const response = await page.goto("/castles");
    expect(response?.status()).toBe(200);
    expect(await page.getAttribute("html", "lang")).toBe("en");
    await expect.poll(() => page.locator("h1").textContent()).toBe("Our Castle Network");
    const cards = page.getByTestId("property-card");
    // A first page of cards, the rest on the next (keyset pages).
    expect(await cards.count()).toBe(CATALOGUE_PAGE_SIZE);
    expect(await page.getByTestId("results-status").textContent()).toBe(`${DEMO.length} estates`);
    const callout = page.getByRole("link", { name: "Make a Booking Request" });
    expect(await callout.getAttribute("href")).toBe("/booking-request");

    const gordon = cards.filter({ has: page.getByRole("heading", { name: "Gordon Castle" }) });
    expect(await gordon.getByTestId("members-badge").textContent()).toBe("Members");
    const gordonContent = DEMO.find((estate) => estate.content.en.name === "Gordon Castle");
    expect(await gordon.getByText(`${gordonContent?.bedrooms} Bedrooms`).count()).toBe(1);
    const href = await gordon.getByRole("link", { name: "Gordon Castle" }).getAttribute("href");
    expect(href).toMatch(/^\/property\/\d+$/);

    // The summary is clamped to three lines.
    const summary = cards.first().getByTestId("card-summary");
    const lines = await summary.evaluate((el) => {
      const style = getComputedStyle(el);
      return el.clientHeight / parseFloat(style.lineHeight);
    });
    expect(Math.round(lines)).toBeLessThanOrEqual(3);
  });

  it("cycles a hovered card's images every 800 ms and returns to the first on leave", async () => {
    const page = await browser.newPage();
    await page.goto("/castles");
    const card = page.getByTestId("property-card").nth(4);
    const gallery = card.getByTestId("card-gallery");
    expect(await gallery.getAttribute("data-active-image")).toBe("0");
    await card.scrollIntoViewIfNeeded();
    await card.hover();
    await expect.poll(() => gallery.getAttribute("data-active-image")).toBe("1");
    await expect.poll(() => gallery.getAttribute("data-active-image")).toBe("2");
    // The shown image is the active one: fully opaque after its 0.4 s fade.
    const visible = gallery.locator("img").nth(2);
    await expect.poll(() => visible.evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
    await page.mouse.move(5, 5);
    await expect.poll(() => gallery.getAttribute("data-active-image")).toBe("0");
  });

  it("switches to Chinese without leaving the page, and the choice survives a reload", async () => {
    const page = await browser.newPage();
    await page.goto("/castles");
    await page.getByTestId("language-menu").locator("summary").click();
    await page.getByRole("link", { name: "中文" }).first().click();
    await page.waitForURL(/\/castles\?lang=zh$/);
    await expect.poll(() => page.locator("h1").textContent()).toMatch(/\p{Script=Han}/u);
    expect(await page.getAttribute("html", "lang")).toBe("zh-Hans");
    const chineseTitle = await page.locator("h1").textContent();

    await page.reload();
    expect(await page.locator("h1").textContent()).toBe(chineseTitle);
    // The cookie carries the choice to pages opened without ?lang=.
    await page.goto("/castles");
    expect(await page.locator("h1").textContent()).toBe(chineseTitle);
    expect(await page.getByTestId("property-card").count()).toBe(CATALOGUE_PAGE_SIZE);
    await page.getByRole("link", { name: "下一页" }).click();
    // The second page: the next estates in catalogue order, named in Chinese.
    const secondPage = DEMO.slice(CATALOGUE_PAGE_SIZE, 2 * CATALOGUE_PAGE_SIZE);
    await expect
      .poll(() => page.getByTestId("property-card").locator("h2").allTextContents())
      .toEqual(secondPage.map((estate) => estate.content.zh.name));
  });

  it("renders the Chinese page on the server for a Chinese browser", async () => {
    const page = await browser.newPage({ locale: "zh-CN" });
    await page.goto("/castles");
    expect(await page.getAttribute("html", "lang")).toBe("zh-Hans");
    const alternates = await page
      .locator('link[rel="alternate"]')
      .evaluateAll((links) => links.map((l) => l.getAttribute("hreflang")));
    expect(alternates).toEqual(["en", "fr", "it", "zh-Hans", "x-default"]);
  });

  it.each(["en-GB", "zh-CN"])("has no axe violations (%s)", async (locale) => {
    const page = await browser.newPage({ locale });
    await page.goto("/castles");
    await page.waitForLoadState("networkidle");
    await expectNoAxeViolations(page);
  });

  it("opens the mobile menu on a phone", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto("/castles");
    await page.getByRole("button", { name: "Open menu" }).click();
    const close = page.getByRole("button", { name: "Close menu" });
    expect(await close.getAttribute("aria-expanded")).toBe("true");
    await page.getByRole("link", { name: "Home", exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === "/");
  });
});

describe("the castle network's loading and error states", () => {
  const browser = useBrowser();

  it("says 'Loading...' while the list reloads", async () => {
    const page = await browser.newPage();
    await page.goto("/castles");
    // The language link reloads the list through the router once the scripts have run.
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/castles\.data/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByTestId("language-menu").locator("summary").click();
    await page.getByRole("link", { name: "Français" }).first().click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Loading...");
    release();
    await expect.poll(() => page.locator("h1").textContent()).toBe("Notre réseau de châteaux");
  });

  it("says 'Failed to load properties' when the list cannot be loaded", async () => {
    const page = await browser.newPage();
    await page.goto("/");
    // Followed before the page's scripts have run (they wait for its first screen), the link
    // loads the whole page: the data request whose failure this is about is the router's.
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
    await page.route(/\/castles\.data/, (route) => route.fulfill({ status: 500, body: "" }));
    await page.getByRole("link", { name: "Book a Stay" }).click();
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toBe("Failed to load properties");
    expect(await page.locator("h1").textContent()).toBe("Our Castle Network");
  });

  it("refuses dates past the booking horizon in the browser, and carries good ones to the form", async () => {
    const page = await browser.newPage({ locale: "fr-FR" });
    await page.goto("/castles?lang=fr");
    // Typed before hydration, the dates would be replaced by the hydrated form's empty state.
    await page.waitForLoadState("networkidle");
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
    const dates = page.getByTestId("stay-dates");
    const checkIn = dates.getByLabel(frCommon.catalogueDates.checkIn, { exact: true });
    const checkOut = dates.getByLabel(frCommon.catalogueDates.checkOut, { exact: true });
    const last = lastBookableDate(FORM_LIMITS.bookingHorizonMonths);
    await checkIn.fill(addDays(last, -1));
    await checkOut.fill(addDays(last, 2));
    await page.getByRole("button", { name: frCommon.filters.apply }).click();
    // The booking form's own message, under the field, and the search is not sent.
    await expect.poll(() => checkOut.getAttribute("aria-invalid")).toBe("true");
    expect(await dates.textContent()).toContain(frCommon.validation.dateBeyondWindow);
    expect(new URL(page.url()).searchParams.has("checkIn")).toBe(false);

    const start = addDays(utcToday(), 50);
    const end = addDays(start, 4);
    await checkIn.fill(start);
    await checkOut.fill(end);
    await expect
      .poll(() => dates.textContent())
      .not.toContain(frCommon.validation.dateBeyondWindow);
    await page.getByRole("button", { name: frCommon.filters.apply }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("checkOut")).toBe(end);
    // The first result, its Book button, and the form starts with the dates.
    // The results of the dated search link with the dates (the list before it did not).
    const firstResult = page.locator('main ul a[href^="/property/"]').first();
    await expect.poll(() => firstResult.getAttribute("href")).toContain(`checkIn=${start}`);
    await firstResult.click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/property\//);
    expect(new URL(page.url()).searchParams.get("checkIn")).toBe(start);
    await page.locator('a[href^="/booking/"]').first().click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/booking\//);
    const startDate = page.locator('input[name="startDate"]');
    await expect.poll(() => startDate.inputValue()).toBe(start);
    expect(await page.locator('input[name="endDate"]').inputValue()).toBe(end);
  });
});
