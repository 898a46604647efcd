import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { E2E_ADMIN_DOMAIN } from "./global-setup.ts";
import { dataTemplate } from "./harness.ts";
import { demoEstate } from "../factories/demo-estates.ts";
import { solveBotCheck, validPropertyBooking } from "../setup/intake.ts";
import { type RunningServer, startServerWithStaff } from "./server.ts";

/**
 * The security log page, on a server of its own (a fresh log): a stranger fails to
 * sign in and is refused a staff call from another page; the admin signs in, opens
 * /admin/security, filters to the refused calls, sees the row and downloads the CSV. The page
 * in English and Chinese at 1280 and 390 px, axe clean. Screenshots go to /tmp/shots-seclog.
 */
const ADMIN = { email: `seclog@${E2E_ADMIN_DOMAIN}`, password: "portcullis-autumn-lamp-58" };
const SHOTS = process.env.SECURITY_LOG_SHOTS_DIR ?? "/tmp/shots-seclog";
const JOURNEY_TIMEOUT_MS = 180_000;
const COLUMNS = ["When", "Event", "Who", "IP address", "Browser", "Details"];

describe("the security log page", () => {
  const browser = useBrowser();
  let server: RunningServer | undefined;

  beforeAll(async () => {
    server = await startServerWithStaff(
      "seclog",
      { ...ADMIN, isAdmin: true, displayName: "Security" },
      {
        ADMIN_EMAIL_DOMAIN: E2E_ADMIN_DOMAIN,
        STAFF_MFA_REQUIRED: "false",
      },
      dataTemplate("seeded"),
    );
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** Every cell of the first row is on screen, within the page's width. */
  async function expectFirstRowVisible(page: Page) {
    const width = page.viewportSize()!.width;
    const cells = page.getByTestId("security-events").locator("tbody tr").first().locator("td, th");
    expect(await cells.count()).toBe(COLUMNS.length);
    for (const cell of await cells.all()) {
      expect(await cell.isVisible()).toBe(true);
      const box = (await cell.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width + 1);
    }
  }

  it(
    "shows a refused call to the admin, filtered, and downloads it as CSV",
    async () => {
      // A stranger, in another browser: a wrong password, then a staff call refused.
      const stranger = await browser.newPage({ baseURL: server!.baseURL });
      await stranger.goto("/admin/login");
      await stranger.locator('input[name="email"]').fill(ADMIN.email);
      await stranger.locator('input[name="password"]').fill("not-the-password-at-all");
      await stranger.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect
        .poll(() => stranger.getByRole("alert").first().isVisible(), { timeout: 15_000 })
        .toBe(true);
      const refused = await stranger.request.get("/api/admin/security-events");
      expect(refused.status()).toBe(401);

      const page = await browser.newPage({ baseURL: server!.baseURL });
      await page.goto("/admin/login?redirectTo=/admin/security");
      await page.locator('input[name="email"]').fill(ADMIN.email);
      await page.locator('input[name="password"]').fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect
        .poll(() => new URL(page.url()).pathname, { timeout: 15_000 })
        .toBe("/admin/security");
      const table = page.getByTestId("security-events");
      await expect.poll(() => table.isVisible(), { timeout: 15_000 }).toBe(true);
      expect(
        await page.getByRole("navigation").getByRole("link", { name: "Security log" }).count(),
      ).toBe(1);
      await expectNoAxeViolations(page, "security log, en, 1280");

      // Only the refused calls: the filter goes into the URL.
      await page.getByLabel("Event").selectOption("access.refused");
      await page.getByRole("button", { name: "Apply filters" }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get("type")).toBe("access.refused");
      const rows = table.locator("tbody tr");
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
      expect(await rows.first().getAttribute("data-type")).toBe("access.refused");
      const text = (await rows.first().textContent()) ?? "";
      expect(text).toContain("Access refused");
      expect(text).toContain("Not signed in");
      expect(text).toContain("path: /api/admin/security-events");
      for (const name of COLUMNS)
        expect(await table.getByRole("columnheader", { name }).isVisible()).toBe(true);
      await expectFirstRowVisible(page);
      await expectNoAxeViolations(page, "security log, filtered, en, 1280");
      await page.screenshot({ path: join(SHOTS, "security-en-1280.png"), fullPage: true });

      // The CSV of what the filter selects.
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByTestId("security-export").click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^security-events-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync((await download.path())!, "utf8").replace(/^\uFEFF/, "");
      const exported = parse(csv, { columns: true }) as Record<string, string>[];
      expect(exported.map((row) => row.type)).toEqual(["access.refused"]);
      expect(JSON.parse(exported[0]!.data!)).toMatchObject({
        status: 401,
        path: "/api/admin/security-events",
      });

      // The export is in the log now.
      await page.goto("/admin/security?type=export");
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
      expect(await rows.first().textContent()).toContain(ADMIN.email);

      // A phone: each row a card, every value on screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/admin/security?type=access.refused");
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
      await expectFirstRowVisible(page);
      await expectNoAxeViolations(page, "security log, en, 390");
      await page.screenshot({ path: join(SHOTS, "security-en-390.png"), fullPage: true });

      // Chinese, both widths.
      await page.goto("/admin/security?type=access.refused&lang=zh");
      await expect
        .poll(() => page.getByRole("heading", { level: 1 }).textContent())
        .toBe("安全日志");
      await expect.poll(() => rows.first().textContent()).toContain("拒绝访问");
      await expectFirstRowVisible(page);
      await expectNoAxeViolations(page, "security log, zh, 390");
      await page.screenshot({ path: join(SHOTS, "security-zh-390.png"), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.reload();
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
      await expectFirstRowVisible(page);
      await expectNoAxeViolations(page, "security log, zh, 1280");
      await page.screenshot({ path: join(SHOTS, "security-zh-1280.png"), fullPage: true });
      await page.goto("/admin/security?lang=en");
    },
    JOURNEY_TIMEOUT_MS,
  );

  /** A guest's booking of a demo estate, sent through the API in `language`. */
  async function book(
    person: { firstName: string; lastName: string; email: string },
    language: string,
  ) {
    const baseURL = server!.baseURL;
    const response = await fetch(`${baseURL}/api/bookings`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": language, Origin: baseURL },
      body: JSON.stringify({
        ...validPropertyBooking({ ...person, propertyId: demoEstate("gordon-castle").id }),
        turnstileToken: await solveBotCheck(baseURL),
      }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as { id: string; reference: string };
  }

  async function lookUp(page: Page, email: string) {
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
    await page.getByTestId("privacy-email").fill(email);
    await page.getByTestId("privacy-look-up").click();
    await expect
      .poll(() => page.getByTestId("privacy-report").isVisible(), { timeout: 15_000 })
      .toBe(true);
  }

  async function expectWithinWidth(page: Page) {
    const width = page.viewportSize()!.width;
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
  }

  it(
    "looks up a guest, downloads their copy in their language and erases them after a count, each in the log",
    async () => {
      const french = {
        firstName: "Églantine",
        lastName: "Ravel",
        email: "eglantine.ravel@example.org",
      };
      const chinese = { firstName: "Mei", lastName: "Lin", email: "mei.lin@example.org" };
      const made = await book(french, "fr");
      await book(chinese, "zh");

      const page = await browser.newPage({ baseURL: server!.baseURL });
      await page.goto("/admin/login?redirectTo=/admin/privacy");
      await page.locator('input[name="email"]').fill(ADMIN.email);
      await page.locator('input[name="password"]').fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect
        .poll(() => new URL(page.url()).pathname, { timeout: 15_000 })
        .toBe("/admin/privacy");
      // The URL changes before the page behind it is drawn.
      await expect
        .poll(
          () => page.getByRole("navigation").getByRole("link", { name: "Guest data" }).count(),
          { timeout: 15_000 },
        )
        .toBe(1);

      await lookUp(page, french.email.toUpperCase());
      const summary = page.getByTestId("privacy-summary");
      await expect
        .poll(() => summary.textContent())
        .toMatch(/^1 request · 0 messages · \d+ mails? ·/);
      const requests = page.getByTestId("privacy-requests");
      expect(await requests.textContent()).toContain(made.reference);
      expect(await requests.textContent()).toContain("Églantine Ravel");
      // The copy is offered in the language the guest wrote in.
      expect(await page.getByTestId("privacy-copy-language").inputValue()).toBe("fr");
      await expectWithinWidth(page);
      await expectNoAxeViolations(page, "personal data, en, 1280");
      await page.screenshot({ path: join(SHOTS, "privacy-en-1280.png"), fullPage: true });

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByTestId("privacy-export").click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^personal-data-\d{4}-\d{2}-\d{2}\.html$/);
      const copy = readFileSync((await download.path())!, "utf8");
      expect(copy).toContain("Vos données personnelles conservées par Castellum");
      expect(copy).toContain(`Demande ${made.reference}`);
      expect(copy).toContain("Églantine Ravel");

      // Erasure: the reason, then the count of what goes, then the erasure.
      await page.getByLabel("Reason").fill("The guest asked by mail today");
      await page.getByTestId("privacy-erase").click();
      const dialog = page.getByRole("dialog");
      await expect.poll(() => dialog.isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await dialog.textContent()).toMatch(
        /This erases 1 request, 0 messages and \d+ mails?\./,
      );
      expect(await dialog.textContent()).toContain(made.reference);
      await expectNoAxeViolations(page, "personal data, confirm, en, 1280");
      await page.screenshot({ path: join(SHOTS, "privacy-confirm-en-1280.png") });
      await dialog.getByRole("button", { name: "Erase now" }).click();
      await expect
        .poll(() => page.getByTestId("privacy-erased").isVisible(), { timeout: 15_000 })
        .toBe(true);
      await expect
        .poll(() => summary.textContent())
        .toContain("Nothing is held about this address");

      // The look-ups, the copy and the erasure are in the security log.
      await page.goto("/admin/security?type=personal_data");
      const rows = page.getByTestId("security-events").locator("tbody tr");
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(4);
      const types = await rows.evaluateAll((cells) =>
        cells.map((row) => row.getAttribute("data-type")),
      );
      expect(types).toEqual([
        "personal_data.viewed",
        "personal_data.erased",
        "personal_data.exported",
        "personal_data.viewed",
      ]);

      // Chinese, on a phone and on a desk.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/admin/privacy?lang=zh");
      await expect
        .poll(() => page.getByRole("heading", { level: 1 }).textContent())
        .toBe("客人的个人资料");
      await lookUp(page, chinese.email);
      await expect.poll(() => summary.textContent()).toMatch(/^1 份申请/);
      expect(await page.getByTestId("privacy-copy-language").inputValue()).toBe("zh");
      await expectWithinWidth(page);
      await expectNoAxeViolations(page, "personal data, zh, 390");
      await page.screenshot({ path: join(SHOTS, "privacy-zh-390.png"), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
      await expectWithinWidth(page);
      await page.screenshot({ path: join(SHOTS, "privacy-zh-1280.png"), fullPage: true });
      await page.goto("/admin/privacy?lang=en");
    },
    JOURNEY_TIMEOUT_MS,
  );
});
