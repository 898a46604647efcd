import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { E2E_ADMIN_DOMAIN } from "./global-setup.ts";
import { dataTemplate } from "./harness.ts";
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
});
