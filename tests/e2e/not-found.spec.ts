import { describe, expect, it } from "vitest";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";

describe("not-found page and old addresses", () => {
  const browser = useBrowser();

  it("answers an unknown path with 404 and the spec's heading and text", async () => {
    const page = await browser.newPage();
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("404 Page Not Found");
    expect(await page.getByText("Did you forget to add the page to the router?").count()).toBe(1);
    await expectNoAxeViolations(page);
  });

  it("shows the not-found page in Italian for an Italian browser", async () => {
    const page = await browser.newPage({ locale: "it-IT" });
    const response = await page.goto("/nowhere");
    expect(response?.status()).toBe(404);
    expect(await page.getAttribute("html", "lang")).toBe("it");
    expect(await page.locator("h1").textContent()).not.toBe("404 Page Not Found");
  });

  it.each(["/bookings", "/properties", "/castle-network"])(
    "redirects %s to /castles with 301",
    async (path) => {
      const page = await browser.newPage();
      const response = await page.request.get(path, { maxRedirects: 0 });
      expect(response.status()).toBe(301);
      expect(response.headers().location).toBe("/castles");
      await page.goto(path);
      expect(new URL(page.url()).pathname).toBe("/castles");
    },
  );
});
