import { describe, expect, it } from "vitest";
import { demoEstate } from "../factories/demo-estates.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";

const GORDON = demoEstate("gordon-castle").content;

describe("a property page", () => {
  const browser = useBrowser();

  it("opens from its card by id and shows the estate", async () => {
    const page = await browser.newPage();
    await page.goto("/castles");
    await page.getByRole("link", { name: "Gordon Castle" }).click();
    await page.waitForURL(/\/property\/\d+$/);
    await expect.poll(() => page.locator("h1").textContent()).toBe("Gordon Castle");
    expect(await page.getByTestId("members-badge").count()).toBe(1);
    expect(await page.getByText(`${GORDON.bedrooms} Bedrooms`, { exact: true }).count()).toBe(1);
    expect(await page.getByText(GORDON.content.en.location, { exact: true }).count()).toBe(1);
    for (const heading of ["Amenities", "Activities", "Historical Significance"]) {
      expect(await page.getByRole("heading", { name: heading }).count()).toBe(1);
    }
    expect(await page.getByRole("link", { name: "Back to All Properties" }).count()).toBe(2);
  });

  it("resolves the slug form, shows 4 images (first 2 eager) and links canonically to the slug", async () => {
    const page = await browser.newPage();
    const response = await page.goto("/property/gordon-castle");
    expect(response?.status()).toBe(200);
    const images = page.getByTestId("property-images").locator("img");
    expect(await images.count()).toBe(4);
    expect(await images.evaluateAll((els) => els.map((el) => el.getAttribute("loading")))).toEqual([
      "eager",
      "eager",
      "lazy",
      "lazy",
    ]);
    expect(await images.first().getAttribute("fetchpriority")).toBe("high");
    const canonical = await page.locator('link[rel="canonical"]').getAttribute("href");
    expect(canonical).toMatch(/\/property\/gordon-castle$/);
    // Every image has its intrinsic size, so nothing shifts while it loads.
    expect(
      await images.evaluateAll((els) =>
        els.every((el) => el.getAttribute("width") && el.getAttribute("height")),
      ),
    ).toBe(true);
    await images.first().evaluate((img: HTMLImageElement) => img.decode());
    expect(
      await images.first().evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBeGreaterThan(0);
  });

  it("hides an image that fails to load", async () => {
    const page = await browser.newPage();
    await page.route(/\/media\/gordon-castle-2-/, (route) =>
      route.fulfill({ status: 500, body: "" }),
    );
    await page.goto("/property/gordon-castle");
    await expect.poll(() => page.getByTestId("property-images").locator("img").count()).toBe(3);
  });

  it("says 'Property not found' with HTTP 404 for an unknown estate", async () => {
    const page = await browser.newPage();
    const response = await page.goto("/property/no-such-castle");
    expect(response?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Property not found");
    const back = page.getByRole("link", { name: "Back to All Properties" });
    expect(await back.count()).toBe(1);
    expect(await back.getAttribute("href")).toBe("/castles");
  });

  it.each([
    ["en-GB", "/property/gordon-castle"],
    ["zh-CN", "/property/tuscany"],
  ])("has no axe violations (%s, %s)", async (locale, path) => {
    const page = await browser.newPage({ locale });
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    await expectNoAxeViolations(page);
  });
});
