import { describe, expect, it } from "vitest";
import { useBrowser } from "./browser.ts";

describe("content pages", () => {
  const browser = useBrowser();

  it.each(["en", "it"])(
    "FAQ: 15 questions, at most one open, the open one closes (%s)",
    async (language) => {
      const page = await browser.newPage();
      await page.goto(`/faqs?lang=${language}`);
      const items = page.getByTestId("faq").locator("details");
      const triggers = items.locator("summary");
      expect(await triggers.count()).toBe(15);
      const open = () => items.evaluateAll((all) => all.map((d) => (d as HTMLDetailsElement).open));
      await triggers.nth(0).click();
      expect((await open()).filter(Boolean)).toHaveLength(1);
      // With the keyboard: the next one opens and the first closes.
      await triggers.nth(3).focus();
      await page.keyboard.press("Enter");
      const state = await open();
      expect(state[0]).toBe(false);
      expect(state[3]).toBe(true);
      expect(await items.nth(3).locator("p").isVisible()).toBe(true);
      await triggers.nth(3).click();
      expect((await open()).every((v) => !v)).toBe(true);
    },
  );

  it("FAQ states the supply the tokenomics page shows", async () => {
    const page = await browser.newPage();
    await page.goto("/tokenomics");
    const supply = await page.getByTestId("token-facts").locator("dd").first().textContent();
    expect(supply).toBe("10 billion $CASL");
    await page.goto("/faqs");
    const basics = page.getByTestId("faq").locator("summary").nth(2);
    await basics.click();
    expect(await page.getByTestId("faq").textContent()).toContain("10 billion");
  });

  it.each(["en", "zh"])(
    "team: 8 members with portraits and links in a new tab (%s)",
    async (language) => {
      const page = await browser.newPage();
      await page.goto(`/team?lang=${language}`);
      const members = page.getByTestId("team").locator("> li");
      expect(await members.count()).toBe(8);
      const portraits = members.locator("img");
      await portraits.first().evaluate((img: HTMLImageElement) => img.decode());
      expect(
        await portraits.first().evaluate((img: HTMLImageElement) => img.naturalWidth),
      ).toBeGreaterThan(0);
      const links = members.locator("a");
      expect(await links.count()).toBeGreaterThanOrEqual(8);
      expect(
        await links.evaluateAll((as) =>
          as.every(
            (a) =>
              a.getAttribute("target") === "_blank" && a.getAttribute("rel")?.includes("noopener"),
          ),
        ),
      ).toBe(true);
    },
  );

  it.each(["en", "fr"])("contact: two cards opening in a new tab (%s)", async (language) => {
    const page = await browser.newPage();
    await page.goto(`/contact?lang=${language}`);
    const cards = page.getByTestId("contact-cards").locator("a");
    expect(
      await cards.evaluateAll((as) =>
        as.map((a) => [a.getAttribute("href"), a.getAttribute("target")]),
      ),
    ).toEqual([
      ["https://x.com/castellum", "_blank"],
      ["https://t.me/castellum", "_blank"],
    ]);
  });

  it.each(["en", "zh"])("roadmap: Q2 2025 to Q1 2026 (%s)", async (language) => {
    const page = await browser.newPage();
    await page.goto(`/roadmap?lang=${language}`);
    const quarters = await page.getByTestId("roadmap").locator("h2").allTextContents();
    expect(quarters).toHaveLength(4);
    expect(quarters[0]).toMatch(/2025/);
    expect(quarters[3]).toMatch(/2026/);
  });

  it.each(["en", "it"])(
    "token sale: eight phases and the participate link (%s)",
    async (language) => {
      const page = await browser.newPage();
      await page.goto(`/tokensale?lang=${language}`);
      expect(await page.getByTestId("sale-phases").locator("tbody tr").count()).toBe(8);
      expect(
        await page
          .locator('a[href="https://launch.castellum.example/casl"][target="_blank"]')
          .count(),
      ).toBeGreaterThanOrEqual(1);
    },
  );

  it.each([
    ["en", "en"],
    ["fr", "fr"],
    ["zh", "en"],
  ])("whitepaper (%s) downloads the site's own PDF (%s)", async (language, pdfLanguage) => {
    const page = await browser.newPage();
    await page.goto(`/whitepaper?lang=${language}`);
    const href = await page.getByTestId("whitepaper-download").getAttribute("href");
    expect(href).toBe(`/whitepaper.pdf?lang=${pdfLanguage}`);
    const pdf = await page.request.get(href ?? "");
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
  });

  it.each(["en", "zh"])("tokenomics: charts with text equivalents (%s)", async (language) => {
    const page = await browser.newPage();
    await page.goto(`/tokenomics?lang=${language}`);
    const charts = page.locator('svg[role="img"]');
    expect(await charts.count()).toBeGreaterThanOrEqual(3);
    expect(
      await charts.evaluateAll((svgs) => svgs.every((svg) => svg.getAttribute("aria-labelledby"))),
    ).toBe(true);
    expect(await page.locator("details table").count()).toBeGreaterThanOrEqual(3);
    expect(
      await page
        .locator("table")
        .filter({ has: page.locator("tbody tr") })
        .count(),
    ).toBeGreaterThanOrEqual(4);
  });
});

describe("catalogue search and filters", () => {
  const browser = useBrowser();

  it("filters by region through the form, keeping the state in the URL", async () => {
    const page = await browser.newPage();
    await page.goto("/castles");
    await page.getByLabel("Region").selectOption("uk");
    await page.getByRole("button", { name: "Show estates" }).click();
    await page.waitForURL(/region=uk/);
    const cards = page.getByTestId("property-card");
    await expect.poll(() => cards.count()).toBe(6);
    expect(await page.getByTestId("results-status").textContent()).toBe("6 estates match");
    await page.reload();
    expect(await cards.count()).toBe(6);
    expect(await page.getByLabel("Region").inputValue()).toBe("uk");
  });

  it("searches Chinese text in Chinese", async () => {
    const page = await browser.newPage();
    await page.goto("/castles?lang=zh");
    await page.locator('input[name="q"]').fill("城堡");
    await page.locator('input[name="q"]').press("Enter");
    await page.waitForURL(/q=/);
    const cards = page.getByTestId("property-card");
    await expect.poll(() => cards.count()).toBeGreaterThan(3);
    expect(await cards.first().locator("h2").textContent()).toMatch(/\p{Script=Han}/u);
  });

  it.each(["en", "fr"])(
    "says so in the visitor's language when nothing matches (%s)",
    async (language) => {
      const page = await browser.newPage();
      await page.goto(`/castles?lang=${language}&q=zxqvbnm`);
      const empty = page.getByTestId("no-results");
      expect(await empty.isVisible()).toBe(true);
      const text = await empty.textContent();
      expect(language === "en" ? text : "").toMatch(
        language === "en" ? /No estate matches your search/ : /.*/,
      );
      if (language === "fr") expect(text).not.toMatch(/No estate matches/);
    },
  );

  it("pages by 24 once the results exceed a page", async () => {
    const page = await browser.newPage();
    await page.goto("/castles");
    expect(await page.getByTestId("property-card").count()).toBe(24);
    await page.getByRole("link", { name: "Next" }).click();
    await page.waitForURL(/after=\d+/);
    await expect.poll(() => page.getByTestId("property-card").count()).toBe(18);
    await page.getByRole("link", { name: "Previous" }).click();
    await page.waitForURL(/before=\d+/);
    await expect.poll(() => page.getByTestId("property-card").count()).toBe(24);
  });
});
