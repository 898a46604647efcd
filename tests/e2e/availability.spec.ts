import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#db/client.ts";
import { calendarEntries } from "#db/schema/index.ts";
import { addDays, toDateRange } from "#domain/calendar/nights.ts";
import { localIsoDate } from "#domain/requests/dates.ts";
import enCommon from "#i18n/locales/en/common.json" with { type: "json" };
import zhCommon from "#i18n/locales/zh/common.json" with { type: "json" };
import { demoEstate } from "../factories/demo-estates.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { dataTemplate } from "./harness.ts";
import { copyDataDir, ROOT, type RunningServer, startServer } from "./server.ts";

/**
 * Guests see an estate's taken nights, on a server of its own whose
 * calendar holds a block: the property page's months, the booking form refusing the nights
 * in the browser, picking dates in the calendar, by keyboard, in English and Chinese.
 */
const ESTATE = demoEstate("gordon-castle");
/** The browser's today: the journeys run where the server runs. */
const TODAY = localIsoDate();
const day = (n: number) => addDays(TODAY, n);
/** The block's nights: days 20, 21 and 22 from today. */
const BLOCK = { start: day(20), end: day(23) };

let dataDir = "";
let server: RunningServer | undefined;

const cell = (page: Page, date: string) => page.locator(`[role="gridcell"][data-date="${date}"]`);
const focusedDate = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.date ?? null);

/** A long date as the page's Intl writes it. */
const longDate = (date: string, tag: string) =>
  new Intl.DateTimeFormat(tag, { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(`${date}T00:00:00Z`),
  );

describe("guests see availability", () => {
  const browser = useBrowser();
  let baseURL = "";

  beforeAll(async () => {
    dataDir = copyDataDir("availability", dataTemplate("seeded"));
    const database = await openDatabase({ dataDir }, join(ROOT, "db/migrations"));
    try {
      await database.db.insert(calendarEntries).values({
        id: randomUUID(),
        propertyId: ESTATE.id,
        nights: toDateRange(BLOCK),
        source: "block",
        kind: "private_event",
        note: "The Duke's private party",
        createdBy: "staff:e2e",
      });
    } finally {
      await database.close();
    }
    server = await startServer({ DATA_DIR: dataDir });
    baseURL = server.baseURL;
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("shows the taken nights on the property page, each read out, and moves by keyboard", async () => {
    const page = await browser.newPage({ baseURL });
    await page.goto(`/property/${ESTATE.slug}?lang=en`);
    const section = page.getByRole("region", { name: enCommon.availability.title });
    await section.waitFor();
    expect(await page.getByRole("grid").count()).toBe(12);
    // Monday first: English calendars follow en-GB, as the staff overview counts weeks.
    expect(await page.getByRole("grid").first().locator("th").first().textContent()).toContain(
      "Monday",
    );
    for (const date of [BLOCK.start, day(21), day(22)]) {
      expect(await cell(page, date).getAttribute("data-tone")).toBe("unavailable");
      expect(await cell(page, date).getAttribute("aria-label")).toMatch(/, unavailable$/);
    }
    // The check-out day is free for the next arrival.
    expect(await cell(page, BLOCK.end).getAttribute("aria-label")).toMatch(/, available$/);
    // Nothing private reaches the page.
    expect(await page.content()).not.toContain("private party");
    await expectNoAxeViolations(page, "property page (en)");

    // One day in the tab order; arrows, Home/End and PageDown move it, across the months.
    const first = page.locator('[role="gridcell"][tabindex="0"]');
    expect(await first.count()).toBe(1);
    expect(await first.getAttribute("data-date")).toBe(TODAY);
    await first.focus();
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => focusedDate(page)).toBe(day(7));
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => focusedDate(page)).toBe(day(6));
    await page.keyboard.press("PageDown");
    const nextMonth = await focusedDate(page);
    expect(nextMonth?.slice(0, 7)).not.toBe(day(6).slice(0, 7));
    expect(await page.locator('[role="gridcell"][tabindex="0"]').count()).toBe(1);
    await page.keyboard.press("Home");
    const home = await focusedDate(page);
    expect(new Date(`${home}T00:00:00Z`).getUTCDay() === 1 || home?.endsWith("-01")).toBe(true);
  });

  it("refuses taken nights in the form at once, in English, and sends nothing", async () => {
    const page = await browser.newPage({ baseURL });
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
    });
    await page.goto(`/booking/${ESTATE.slug}?lang=en`);
    // The form (and its calendar) is live once the bot check's widget has loaded.
    await page.locator("altcha-widget .altcha").waitFor();
    await page.fill("#field-startDate", day(18));
    await page.fill("#field-endDate", day(25));
    const error = page.locator("#field-startDate-error");
    await expect
      .poll(() => error.textContent())
      .toBe(
        `The night of ${longDate(BLOCK.start, "en")} is not available. Please choose other dates.`,
      );
    await page.fill("#field-firstName", "Isambard");
    await page.fill("#field-lastName", "Brunel");
    await page.fill("#field-email", "ikb@example.com");
    await page.fill("#field-phone", "+44 117 000 0000");
    await page.locator('button[type="submit"]').click();
    await expect
      .poll(() => page.getByTestId("toast").first().textContent())
      .toContain(enCommon.forms.toast.validationTitle);
    expect(posts).toEqual([]);
    // The nights drawn as the guest's, the taken ones marked as in the way.
    expect(await cell(page, day(21)).getAttribute("data-tone")).toBe("conflict");
    await expectNoAxeViolations(page, "booking page with taken nights (en)");

    // Leaving on the block's first day is fine: the error goes.
    await page.fill("#field-endDate", BLOCK.start);
    await expect.poll(() => error.count()).toBe(0);
  });

  it("lets a guest pick the dates in the calendar, in Chinese on a phone", async () => {
    const page = await browser.newPage({
      baseURL,
      locale: "zh-CN",
      viewport: { width: 390, height: 844 },
    });
    await page.goto(`/booking/${ESTATE.slug}?lang=zh`);
    await page.locator("altcha-widget .altcha").waitFor();
    const grid = page.getByRole("grid").first();
    // Monday first, as zh-CN starts the week.
    expect(await grid.locator("th").first().textContent()).toContain("星期一");

    // An arrival, then a departure past the block: refused at once, naming its first night
    // in Chinese.
    await cell(page, day(18)).scrollIntoViewIfNeeded();
    await cell(page, day(18)).click();
    await cell(page, day(22)).click();
    expect(await page.inputValue("#field-startDate")).toBe(day(18));
    expect(await page.inputValue("#field-endDate")).toBe(day(22));
    await expect
      .poll(() => page.locator("#field-startDate-error").textContent())
      .toBe(zhCommon.validation.nightsUnavailable.replace("{{date}}", longDate(BLOCK.start, "zh")));
    expect(await cell(page, day(21)).getAttribute("data-tone")).toBe("conflict");

    // A new arrival on the block's check-out day, then the departure, by keyboard.
    await cell(page, BLOCK.end).click();
    expect(await page.inputValue("#field-endDate")).toBe("");
    await expect.poll(() => page.locator("#field-startDate-error").count()).toBe(0);
    // Each key once the focus has moved: a key pressed while the grid re-renders is lost.
    await expect.poll(() => focusedDate(page)).toBe(BLOCK.end);
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => focusedDate(page)).toBe(addDays(BLOCK.end, 1));
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => focusedDate(page)).toBe(addDays(BLOCK.end, 2));
    await page.keyboard.press("Enter");
    expect(await page.inputValue("#field-startDate")).toBe(BLOCK.end);
    expect(await page.inputValue("#field-endDate")).toBe(addDays(BLOCK.end, 2));
    expect(await cell(page, addDays(BLOCK.end, 1)).getAttribute("data-tone")).toBe("range");
    const region = page.getByRole("region", { name: zhCommon.availability.title });
    expect(await region.getByRole("status").textContent()).toContain("共 2 晚");
    await expectNoAxeViolations(page, "booking page, dates picked (zh, phone)");
  });
});
