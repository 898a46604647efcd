import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useBrowser } from "./browser.ts";
import { E2E_ADMIN_DOMAIN } from "./global-setup.ts";
import { dataTemplate } from "./harness.ts";
import { type RunningServer, startServerWithStaff } from "./server.ts";

/**
 * The sign-in's return address and the staff language, in a browser, on a server of its own: the
 * sign-in refuses a return address that only normalises to another site, a `?lang=` page
 * leaves the account's language alone, and the staff header's language menu stores it.
 */
const ADMIN = { email: `polyglot@${E2E_ADMIN_DOMAIN}`, password: "belfry-harbour-quill-58" };

describe("the staff area's return address and language", () => {
  const browser = useBrowser();
  let server: RunningServer | undefined;

  beforeAll(async () => {
    server = await startServerWithStaff(
      "security-fixes",
      { ...ADMIN, isAdmin: true, displayName: "Polyglot", language: "en" },
      {
        ADMIN_EMAIL_DOMAIN: E2E_ADMIN_DOMAIN,
        // A password alone signs in here: the second factor has journeys of its own.
        STAFF_MFA_REQUIRED: "false",
      },
      dataTemplate("seeded"),
    );
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** The account's stored language, as `GET /api/admin/me` gives it to the signed-in page. */
  async function storedLanguage(page: Page): Promise<string> {
    const answer = await page.request.get("/api/admin/me");
    return ((await answer.json()) as { user: { language: string } }).user.language;
  }

  it("signs in to the inbox, not to /.//evil.example, and stores a language only when chosen", async () => {
    const page = await browser.newPage({ baseURL: server!.baseURL });
    await page.goto("/admin/login?redirectTo=/.//evil.example");
    await page.locator('input[name="email"]').fill(ADMIN.email);
    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/booking-requests");
    expect(new URL(page.url()).origin).toBe(server!.baseURL);

    // A GET with ?lang= shows the page in Chinese and stores nothing.
    await page.goto("/admin/booking-requests?lang=zh");
    expect(await page.locator("html").getAttribute("lang")).toMatch(/^zh/);
    expect(await storedLanguage(page)).toBe("en");

    // The header's language menu stores the choice for the account.
    await page.getByTestId("language-menu").locator("summary").click();
    await page.getByRole("link", { name: "Français" }).click();
    await expect.poll(() => page.locator("html").getAttribute("lang")).toMatch(/^fr/);
    await expect.poll(() => storedLanguage(page)).toBe("fr");
  }, 120_000);
});
