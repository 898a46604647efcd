import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowser } from "./browser.ts";
import { sharedServer } from "./harness.ts";

const BASE_URL = sharedServer().baseURL;
const STRICT = "default-src 'none'; frame-ancestors 'none'";

/**
 * Records every Content-Security-Policy violation the page reports (the document's
 * `securitypolicyviolation` events, and Chromium's console errors, which also cover workers).
 * The listener is installed by the browser itself before any of the page's scripts run.
 */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text()))
      fromConsole.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`);
    });
  });
  return async () => {
    const fromEvents = await page.evaluate(
      () => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [],
    );
    return [...fromEvents, ...fromConsole];
  };
}

/** Waits until the page's scripts have run: React Router's hydrated router exists. */
async function waitForHydration(page: Page) {
  await page.waitForFunction(() => "__reactRouterDataRouter" in window);
}

describe("the Content-Security-Policy in Chromium", () => {
  const browser = useBrowser();

  it("lets a public page hydrate, rendered and then from the response cache", async () => {
    const policies: string[] = [];
    for (let visit = 0; visit < 2; visit += 1) {
      // A new browser each time (its own HTTP cache): the second visit must reach the server,
      // not revalidate the first one's copy (a 304 carries no policy of its own).
      const page = await browser.newPage();
      const violations = await watchViolations(page);
      const response = await page.goto("/castles");
      expect(response?.status()).toBe(200);
      policies.push((await response?.headerValue("content-security-policy")) ?? "");
      await waitForHydration(page);
      expect(await violations()).toEqual([]);
    }
    // The second visit is answered from the cache: the scripts are allowed by their hashes.
    expect(policies[1]).toMatch(/'sha256-/);
    expect(policies[1]).not.toMatch(/'nonce-/);
    for (const policy of policies) expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });

  it("lets the bot check solve its challenge in its workers on a form page", async () => {
    const page = await browser.newPage();
    const violations = await watchViolations(page);
    await page.goto("/booking-request");
    await waitForHydration(page);
    await page.locator("altcha-widget .altcha").waitFor();
    await page.locator("#field-firstName").focus();
    await expect
      .poll(
        () =>
          page
            .locator("altcha-widget .altcha")
            .getAttribute("data-state")
            .catch(() => null),
        { timeout: 15_000 },
      )
      .toBe("verified");
    expect(await violations()).toEqual([]);
  });

  it("lets the staff sign-in run and answer a wrong password", async () => {
    const page = await browser.newPage();
    const violations = await watchViolations(page);
    await page.goto("/admin/login");
    await waitForHydration(page);
    await page.locator('input[name="email"]').fill("nobody@castellum.example");
    await page.locator('input[name="password"]').fill("not-the-password-at-all");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("alert").first().waitFor();
    expect(await violations()).toEqual([]);
  });

  it("lets the owner's verify page send a code", async () => {
    const page = await browser.newPage();
    const violations = await watchViolations(page);
    await page.goto("/onboard/verify");
    await waitForHydration(page);
    const main = page.getByRole("main");
    await main
      .getByLabel("Email address", { exact: true })
      .fill("amministrazione@villa-delle-zagare.example");
    await page.getByRole("button", { name: "Verify Email" }).click();
    await main.getByLabel("Verification code", { exact: true }).waitFor();
    expect(await violations()).toEqual([]);
  });
});

describe("the security headers of the production server", () => {
  it("sends static files nosniff and the strict policy", async () => {
    const html = await (await fetch(`${BASE_URL}/`)).text();
    // A public page names its modules on its deferred script (server/deferred-loading.ts).
    const script = /(\/assets\/[^"\s]+\.js)/.exec(html)?.[1];
    expect(script).toBeDefined();
    for (const path of [script!, "/favicon.svg"]) {
      const response = await fetch(`${BASE_URL}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("content-security-policy")).toBe(STRICT);
    }
  });

  it("sends no HSTS over plain HTTP", async () => {
    const response = await fetch(`${BASE_URL}/castles`);
    expect(response.headers.get("strict-transport-security")).toBeNull();
    expect(response.headers.get("cross-origin-opener-policy")).toBe("same-origin");
  });
});
