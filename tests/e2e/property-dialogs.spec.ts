import { describe, expect, it } from "vitest";
import { demoEstate } from "../factories/demo-estates.ts";
import { useBrowser } from "./browser.ts";

describe("property gallery, full-size image and share control", () => {
  const browser = useBrowser();

  it("opens the gallery and the full-size image with the keyboard and returns focus", async () => {
    const page = await browser.newPage();
    await page.goto("/property/gordon-castle");
    const viewAll = page.getByRole("button", { name: /^View All \d+ Images$/ });
    const total = Number((await viewAll.textContent())?.match(/\d+/)?.[0]);
    expect(total).toBeGreaterThan(4);
    await viewAll.focus();
    await page.keyboard.press("Enter");
    const gallery = page.getByTestId("gallery-dialog");
    await expect.poll(() => gallery.isVisible()).toBe(true);
    expect(await gallery.locator("li").count()).toBe(total);
    expect(await gallery.locator("figcaption").first().textContent()).toBe(`1 / ${total}`);
    // Focus stays inside the dialog.
    for (let i = 0; i < total + 3; i++) await page.keyboard.press("Tab");
    expect(
      await page.evaluate(
        () => !!document.activeElement?.closest('[data-testid="gallery-dialog"]'),
      ),
    ).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => gallery.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/View All/);

    // A grid image opens the gallery; an image there opens the full-size view; a click closes it.
    await page.getByTestId("property-images").locator("button").first().click();
    await page
      .getByTestId("gallery-dialog")
      .getByRole("button", { name: /image 3 of/ })
      .click();
    const fullSize = page.getByTestId("fullsize-dialog");
    await expect.poll(() => fullSize.isVisible()).toBe(true);
    expect(await fullSize.locator("img").getAttribute("alt")).toMatch(/image 3 of/);
    await fullSize.getByRole("button", { name: "Close the full-size image" }).click();
    await expect.poll(() => fullSize.count()).toBe(0);
    expect(await page.getByTestId("gallery-dialog").isVisible()).toBe(true);
  });

  it("links 'Book this Property' to the booking page by slug", async () => {
    const page = await browser.newPage();
    const gordon = demoEstate("gordon-castle");
    await page.goto(`/property/${gordon.id}?lang=it`);
    const book = page.locator(`a[href="/booking/${gordon.slug}#top"]`);
    expect(await book.count()).toBe(1);
  });

  it("opens each network's share pop-up with the page's title and URL, one notice at a time", async () => {
    const page = await browser.newPage();
    await page
      .context()
      .route(/x\.com|facebook\.com|linkedin\.com|wa\.me/, (route) =>
        route.fulfill({ status: 200, contentType: "text/html", body: "<title>share</title>" }),
      );
    await page.goto("/property/gordon-castle");
    const expected = {
      x: /^https:\/\/x\.com\/intent\/tweet\?text=Book\+a\+unique\+stay\+with\+Castellum%21\+Check\+out\+Gordon\+Castle/,
      facebook:
        /^https:\/\/www\.facebook\.com\/sharer\/sharer\.php\?u=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fproperty%2Fgordon-castle/,
      linkedin:
        /^https:\/\/www\.linkedin\.com\/shareArticle\?mini=true&url=http%3A%2F%2F127\.0\.0\.1/,
      whatsapp: /^https:\/\/wa\.me\/\?text=Book\+a\+unique\+stay/,
    };
    for (const [network, pattern] of Object.entries(expected)) {
      const [popup] = await Promise.all([
        page.waitForEvent("popup"),
        page.locator(`button[data-network="${network}"]`).click(),
      ]);
      expect(popup.url()).toMatch(pattern);
      await popup.close();
    }
    const toasts = page.getByTestId("toast");
    await expect.poll(() => toasts.count()).toBe(1);
    expect(await toasts.textContent()).toContain("Share window opened");
    // F8 moves focus to the notifications.
    await page.keyboard.press("F8");
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("OL");
  });

  it("says 'Share failed' when the pop-up is blocked", async () => {
    const page = await browser.newPage();
    await page.goto("/property/gordon-castle?lang=en");
    await page.evaluate(() => {
      window.open = () => null;
    });
    await page.locator('button[data-network="x"]').click();
    const toast = page.getByTestId("toast");
    await expect.poll(() => toast.getAttribute("data-variant")).toBe("destructive");
    expect(await toast.textContent()).toContain("Unable to share at this time");
  });
});
