import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TAB_IDS } from "#app/components/owner/owner-tab-ids.ts";
import { addDays } from "#domain/calendar/nights.ts";
import { utcToday } from "#domain/requests/dates.ts";
import enOwner from "#i18n/locales/en/owner.json" with { type: "json" };
import frOwner from "#i18n/locales/fr/owner.json" with { type: "json" };
import zhOwner from "#i18n/locales/zh/owner.json" with { type: "json" };
import { demoEstate } from "../factories/demo-estates.ts";
import { decodeMail } from "../setup/mail-text.ts";
import {
  submitGuestForm,
  validBookingRequest,
  validMembership,
  validPropertyBooking,
} from "../setup/intake.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { E2E_ADMIN_DOMAIN } from "./global-setup.ts";
import { dataTemplate } from "./harness.ts";
import { copyDataDir, createStaffAccounts, type RunningServer, startServer } from "./server.ts";

/**
 * Every staff page and every owner tab on a 390 px phone, in French and Chinese (the longest
 * words and the widest glyphs): nothing makes the document wider than the screen, so nothing
 * is cut off or needs sideways scrolling. One server and one browser for the file; the pages
 * are visited in sequence. Along the way: a Chinese guest's booking reads in French with the
 * estate's French name, and the staff calendar's imported-calendars table has a whole caption.
 */
const WIDTH = 390;
const ESTATE = demoEstate("gordon-castle");
const ADMIN = { email: `narrow@${E2E_ADMIN_DOMAIN}`, password: "portcullis-autumn-lantern-61" };
const SESSION_COOKIE = "__Host-castellum_session";
const LANGUAGES = ["fr", "zh"] as const;
/** Some forty pages in two languages on a shared two-core machine. */
const JOURNEY_TIMEOUT_MS = 300_000;

let dataDir = "";
let server: RunningServer | undefined;
let baseURL = "";
const ids = { bookingRequest: "", propertyBooking: "", membership: "" };
const stayStart = addDays(utcToday(), 45);
const stayEnd = addDays(stayStart, 3);

async function api(path: string, init: { method?: string; cookie?: string; body?: unknown } = {}) {
  return fetch(`${baseURL}${path}`, {
    method: init.method ?? "GET",
    headers: {
      "Content-Type": "application/json",
      Origin: baseURL,
      ...(init.cookie ? { Cookie: init.cookie } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/** The newest mail filed for `address` in the outbox directory, decoded. */
function newestMailTo(address: string): string | undefined {
  const mailDir = join(dataDir, "mail");
  if (!existsSync(mailDir)) return undefined;
  return readdirSync(mailDir)
    .filter((file) => file.endsWith(".eml"))
    .map((file) => decodeMail(readFileSync(join(mailDir, file), "utf8")))
    .filter((text) => text.toLowerCase().includes(`to: ${address.toLowerCase()}`))
    .at(-1);
}

/**
 * How wide the document is, and when wider than the screen, the elements whose right edge
 * passes it (deepest first), so a failure names what to fix.
 */
async function overflowOf(page: Page): Promise<{ width: number; culprits: string[] }> {
  return page.evaluate((limit) => {
    const width = document.documentElement.scrollWidth;
    if (width <= limit) return { width, culprits: [] };
    const culprits = [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > limit + 0.5)
      .filter(
        (element) =>
          ![...element.children].some((c) => c.getBoundingClientRect().right > limit + 0.5),
      )
      .slice(0, 5)
      .map((element) => {
        const name = element.tagName.toLowerCase();
        const slot = element.getAttribute("data-slot") ?? element.getAttribute("data-testid");
        const text = (element.textContent ?? "").trim().slice(0, 40);
        return `${name}${slot ? `[${slot}]` : ""} right=${Math.round(element.getBoundingClientRect().right)} "${text}"`;
      });
    return { width, culprits };
  }, WIDTH);
}

/** Opens `path` in `lang`, waits for `ready`, and notes the page if it is wider than the screen. */
async function visit(
  page: Page,
  path: string,
  lang: string,
  wide: string[],
  ready?: (page: Page) => Promise<unknown>,
) {
  const url = `${path}${path.includes("?") ? "&" : "?"}lang=${lang}`;
  const response = await page.goto(url);
  expect(response?.status(), url).toBeLessThan(400);
  await page.waitForLoadState("networkidle");
  await ready?.(page);
  const { width, culprits } = await overflowOf(page);
  if (width > WIDTH) wide.push(`${url}: ${width} px wide; ${culprits.join("; ")}`);
}

async function signInStaff(page: Page) {
  await page.goto("/admin/login?lang=en");
  await page.locator('input[name="email"]').fill(ADMIN.email);
  await page.locator('input[name="password"]').fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect.poll(() => new URL(page.url()).pathname).not.toBe("/admin/login");
}

describe("narrow screens", () => {
  const browser = useBrowser();

  beforeAll(async () => {
    dataDir = copyDataDir("narrow", dataTemplate("seeded"));
    mkdirSync(join(dataDir, "mail"), { recursive: true });
    await createStaffAccounts(dataDir, [{ ...ADMIN, isAdmin: true, displayName: "Narrow desk" }]);
    server = await startServer({
      DATA_DIR: dataDir,
      ADMIN_EMAIL_DOMAIN: E2E_ADMIN_DOMAIN,
      // The imported calendar's address is on this machine (nothing answers there).
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: "true",
    });
    baseURL = server.baseURL;

    // One request of each kind; the booking comes from a Chinese guest, with long words.
    ids.bookingRequest = (
      await submitGuestForm(baseURL, "/booking-requests", validBookingRequest(), "fr")
    ).id;
    ids.propertyBooking = (
      await submitGuestForm(
        baseURL,
        "/bookings",
        validPropertyBooking({
          propertyId: ESTATE.id,
          dateMode: "exact",
          startDate: stayStart,
          endDate: stayEnd,
          numberOfGuests: 4,
          email: "very.long.address.of.a.guest.from.abroad@example.org",
        }),
        "zh",
      )
    ).id;
    ids.membership = (
      await submitGuestForm(baseURL, "/membership/apply", validMembership(), "zh")
    ).id;

    const login = await api("/api/admin/login", { method: "POST", body: ADMIN });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .find((value) => value.startsWith(`${SESSION_COOKIE}=`))!
      .split(";")[0]!;
    // Staff settle the booking's nights (its history then names the estate), and import a
    // calendar with a long address, so the calendar's imports table has a row.
    const settled = await api(`/api/bookings/${ids.propertyBooking}/stay`, {
      method: "PUT",
      cookie,
      body: { propertyId: ESTATE.id, start: stayStart, end: stayEnd, version: 1 },
    });
    expect(settled.status, await settled.clone().text()).toBe(200);
    const feed = await api(`/api/admin/estates/${ESTATE.id}/calendar-feeds`, {
      method: "POST",
      cookie,
      body: {
        url: "http://127.0.0.1:9/export/ical/a-very-long-private-token-0123456789abcdef0123456789abcdef.ics",
      },
    });
    expect(feed.status, await feed.clone().text()).toBe(201);
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    `staff pages stay within ${WIDTH} px in French and Chinese`,
    async () => {
      const page = await browser.newPage({ baseURL, viewport: { width: WIDTH, height: 844 } });
      const wide: string[] = [];
      for (const lang of LANGUAGES) {
        await visit(page, "/admin/login", lang, wide);
        await visit(page, "/admin/forgot-password", lang, wide);
      }
      await signInStaff(page);
      const details = (page: Page) => page.getByTestId("request-details").waitFor();
      const calendar = (page: Page) =>
        page.locator('[data-slot="feeds-panel"]').getByRole("table").waitFor();
      for (const lang of LANGUAGES) {
        for (const path of [
          "/admin/booking-requests",
          "/admin/booking-requests?kind=property_booking",
          "/admin/booking-requests?kind=membership",
          "/admin/mail",
          "/admin/webhooks",
          "/admin/accounts",
          "/admin/account",
          "/admin/account/security",
          "/admin/account/passkeys",
          "/admin/security",
          "/admin/estates",
          `/admin/estates/${ESTATE.id}`,
          ...TAB_IDS.map((tab) => `/admin/dashboard?estate=${ESTATE.id}&tab=${tab}`),
        ])
          await visit(page, path, lang, wide);
        await visit(
          page,
          `/admin/booking-requests/booking-requests/${ids.bookingRequest}`,
          lang,
          wide,
          details,
        );
        await visit(
          page,
          `/admin/booking-requests/bookings/${ids.propertyBooking}?kind=property_booking`,
          lang,
          wide,
          details,
        );
        await visit(
          page,
          `/admin/booking-requests/applications/${ids.membership}?kind=membership`,
          lang,
          wide,
          details,
        );
        // The calendar around the stay: its block panel and its iCal address below the months.
        await visit(
          page,
          `/admin/estates/${ESTATE.id}/calendar?from=${stayStart}`,
          lang,
          wide,
          calendar,
        );
      }
      expect(wide).toEqual([]);
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "the staff calendar's tables have whole captions, and pass axe on a phone",
    async () => {
      const page = await browser.newPage({ baseURL, viewport: { width: WIDTH, height: 844 } });
      await signInStaff(page);
      await page.goto(`/admin/estates/${ESTATE.id}/calendar?from=${stayStart}&lang=en`);
      const table = page.locator('[data-slot="feeds-panel"]').getByRole("table");
      await table.waitFor();
      // The caption names the table for a screen reader, whole: no sentence that stops short.
      const caption = (await table.locator("caption").textContent()) ?? "";
      expect(caption).toBe(enOwner.calendarFeeds.imports.caption);
      expect(caption).not.toMatch(/['’]s$/);
      expect(await page.getByRole("table", { name: caption }).count()).toBe(1);
      await expectNoAxeViolations(page, "staff calendar at 390 px (en)");
      await page.goto(`/admin/estates/${ESTATE.id}/calendar?from=${stayStart}&lang=zh`);
      await page.getByRole("table", { name: zhOwner.calendarFeeds.imports.caption }).waitFor();
      await expectNoAxeViolations(page, "staff calendar at 390 px (zh)");
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "a Chinese guest's booking reads in French with the estate's French name",
    async () => {
      const page = await browser.newPage({ baseURL });
      await signInStaff(page);
      const french = ESTATE.content.content.fr.name;
      const chinese = ESTATE.content.content.zh.name;
      await page.goto(`/admin/booking-requests?kind=property_booking&lang=fr`);
      const row = page.getByRole("row").filter({ hasText: "very.long.address" });
      expect(await row.textContent()).toContain(french);
      await page.goto(`/admin/booking-requests/bookings/${ids.propertyBooking}?lang=fr`);
      const dialog = page.getByTestId("request-details");
      await dialog.waitFor();
      const text = (await dialog.textContent()) ?? "";
      expect(text).not.toContain(chinese);
      expect(await dialog.getByTestId("stay").textContent()).toContain(french);
      expect(await dialog.getByTestId("status-history").textContent()).toContain(french);
      // In Chinese, the same estate is named in Chinese.
      await page.goto(`/admin/booking-requests/bookings/${ids.propertyBooking}?lang=zh`);
      await page.getByTestId("stay").waitFor();
      expect(await page.getByTestId("stay").textContent()).toContain(chinese);
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    `the owner's pages and tabs stay within ${WIDTH} px in French and Chinese`,
    async () => {
      const page = await browser.newPage({
        baseURL,
        locale: "fr-FR",
        viewport: { width: WIDTH, height: 844 },
      });
      const wide: string[] = [];
      for (const lang of LANGUAGES) await visit(page, "/onboard/verify", lang, wide);
      // The owner proves the email on record and claims the estate (the code is in the outbox).
      await page.goto("/onboard/verify?lang=fr");
      const main = page.getByRole("main");
      await main.getByLabel(frOwner.verify.emailLabel, { exact: true }).fill(ESTATE.email);
      await page.getByRole("button", { name: frOwner.verify.submitEmail, exact: true }).click();
      await main.getByLabel(frOwner.verify.codeLabel, { exact: true }).waitFor();
      await expect
        .poll(() => newestMailTo(ESTATE.email) ?? "", { timeout: 30_000 })
        .toMatch(/\d{6}/);
      const mail = newestMailTo(ESTATE.email)!;
      const code = /\b(\d{6})\b/.exec(
        mail
          .split(/\r?\n\r?\n/)
          .slice(1)
          .join("\n"),
      )?.[1];
      await main.getByLabel(frOwner.verify.codeLabel, { exact: true }).fill(code ?? "");
      await page.getByRole("button", { name: frOwner.verify.submitCode, exact: true }).click();
      await page.getByRole("button", { name: frOwner.verify.submitClaim, exact: true }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/dashboard");

      for (const lang of LANGUAGES)
        for (const tab of TAB_IDS)
          await visit(
            page,
            tab === "calendar"
              ? `/admin/dashboard?tab=calendar&from=${stayStart}`
              : `/admin/dashboard?tab=${tab}`,
            lang,
            wide,
            tab === "calendar"
              ? (page) => page.locator('[data-slot="feeds-panel"]').waitFor()
              : undefined,
          );
      expect(wide).toEqual([]);
      await page.goto(`/admin/dashboard?tab=calendar&from=${stayStart}&lang=zh`);
      await page.locator('[data-slot="feeds-panel"]').waitFor();
      await expectNoAxeViolations(page, "owner calendar tab at 390 px (zh)");
    },
    JOURNEY_TIMEOUT_MS,
  );
});
