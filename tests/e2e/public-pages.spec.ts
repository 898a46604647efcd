import { describe, expect, it } from "vitest";
import { z } from "zod";
import { demoEstate } from "../factories/demo-estates.ts";
import { PUBLIC_PAGES, SITE } from "#content/site.ts";
import { LANGUAGES } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";

const GORDON = demoEstate("gordon-castle").content;

/** Text as the browser reads it from the server's HTML (React escapes these five). */
const unescapeHtml = (text: string | undefined) =>
  text
    ?.replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

// The sitemap's pages plus one estate: the public routes, from one list.
const PUBLIC_ROUTES = [...PUBLIC_PAGES, "/property/gordon-castle"];

describe("every public page", () => {
  const browser = useBrowser();

  async function expectEveryRouteClean(
    language: string,
    viewport?: { width: number; height: number },
  ) {
    const page = await browser.newPage({ viewport });
    for (const route of PUBLIC_ROUTES) {
      const response = await page.goto(`${route}?lang=${language}`);
      expect(response?.status(), route).toBe(200);
      // Cards and sections fade in; check them as they finally are.
      await page.emulateMedia({ reducedMotion: "reduce" });
      await page.waitForLoadState("networkidle");
      await expectNoAxeViolations(page, `${route} (${viewport?.width ?? 1280} px)`);
    }
  }

  for (const language of LANGUAGES)
    it(`has no axe violations in ${language}`, () => expectEveryRouteClean(language));

  // On a phone, wide tables scroll sideways: their regions must take the keyboard focus.
  for (const language of ["en", "zh"])
    it(`has no axe violations on a phone in ${language}`, () =>
      expectEveryRouteClean(language, { width: 390, height: 844 }));

  it("renders title, description, canonical, Open Graph and Twitter tags on the server", async () => {
    const page = await browser.newPage();
    const html = await (await page.request.get("/property/gordon-castle?lang=fr")).text();
    const meta = (attr: string, name: string) =>
      unescapeHtml(html.match(new RegExp(`<meta ${attr}="${name}" content="([^"]*)"`))?.[1]);
    const french = GORDON.content.fr;
    expect(unescapeHtml(html.match(/<title>([^<]*)<\/title>/)?.[1])).toBe(
      translate("fr", "property.metaTitle", { brand: SITE.brand, name: french.name }),
    );
    expect(meta("property", "og:title")).toBe(
      translate("fr", "property.shareTitle", { brand: SITE.brand, name: french.name }),
    );
    expect(meta("property", "og:title")).not.toMatch(/beautiful|magnifique/);
    expect(meta("property", "og:image")).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/media\/gordon-castle-1-[0-9a-f]+\/1200\.jpg$/,
    );
    expect(meta("property", "og:locale")).toBe("fr_FR");
    expect(meta("name", "twitter:card")).toBe("summary_large_image");
    expect(meta("name", "description")).toBe(french.summary);
    expect(html).toMatch(
      /<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/property\/gordon-castle\?lang=fr"\/>/,
    );
    const jsonLd = z
      .object({ "@type": z.unknown(), name: z.unknown() })
      .parse(
        JSON.parse(html.match(/<script type="application\/ld\+json">(.*?)<\/script>/)?.[1] ?? "{}"),
      );
    expect(jsonLd["@type"]).toBe("LodgingBusiness");
    expect(jsonLd.name).toBe("Gordon Castle");

    const english = await (await page.request.get("/property/gordon-castle?lang=en")).text();
    expect(english).toContain(
      "<title>Book a unique stay with Castellum! Check out Gordon Castle - beautiful!</title>",
    );
    expect(english).toContain(
      'content="Book a unique stay with Castellum! Check out Gordon Castle"',
    );
  });

  it("updates the title on client navigation and restores it on leaving", async () => {
    const page = await browser.newPage();
    await page.goto("/castles");
    // Hydrated, so the click is a client-side navigation.
    await page.waitForLoadState("networkidle");
    const listTitle = await page.title();
    await page.getByRole("link", { name: "Gordon Castle" }).click();
    await expect
      .poll(() => page.title())
      .toBe("Book a unique stay with Castellum! Check out Gordon Castle - beautiful!");
    await page.goBack();
    await expect.poll(() => page.title()).toBe(listTitle);
  });

  it("serves a sitemap of every page in every language, robots.txt and a manifest", async () => {
    const page = await browser.newPage();
    // An index over files of at most 50,000 URLs: the demo catalogue fits in the first.
    const index = await (await page.request.get("/sitemap.xml")).text();
    expect(index).toContain("<sitemapindex");
    expect(index.match(/<loc>[^<]*<\/loc>/g)).toEqual([
      expect.stringMatching(/^<loc>http:\/\/127\.0\.0\.1:\d+\/sitemap-1\.xml<\/loc>$/),
    ]);
    const sitemap = await (await page.request.get("/sitemap-1.xml")).text();
    expect(sitemap).toContain("<urlset");
    for (const language of ["fr", "it", "zh"])
      expect(sitemap).toContain(`/property/gordon-castle?lang=${language}</loc>`);
    expect(sitemap).toMatch(/\/tokenomics<\/loc>/);
    // The public pages and the 42 demo estates, each in the four languages.
    expect(sitemap.match(/<url>/g)?.length).toBe((PUBLIC_PAGES.length + 42) * 4);
    expect(sitemap).toMatch(/\/booking-request<\/loc>/);
    expect(sitemap).toMatch(/\/privacy\?lang=zh<\/loc>/);
    const robots = await (await page.request.get("/robots.txt")).text();
    expect(robots).toMatch(/Sitemap: http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml/);
    const manifest = z
      .object({ name: z.unknown() })
      .parse(await (await page.request.get("/manifest.webmanifest")).json());
    expect(manifest.name).toBe("Castellum");
  });
});

describe("home", () => {
  const browser = useBrowser();

  it.each(["en", "zh"])(
    "links its buttons and the four featured estates (%s)",
    async (language) => {
      const page = await browser.newPage();
      await page.goto(`/?lang=${language}`);
      const hero = page.locator("section").first();
      const hrefs = await hero
        .locator("a")
        .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
      expect(hrefs).toEqual(["/castles", "/tokensale", "/whitepaper"]);
      const featured = page.getByTestId("featured").locator("h2 a");
      expect(await featured.count()).toBe(4);
      expect(
        (await featured.evaluateAll((links) => links.map((a) => a.getAttribute("href")))).every(
          (h) => /^\/property\/\d+$/.test(h ?? ""),
        ),
      ).toBe(true);
      expect(await page.getByTestId("token-utility").locator("li").count()).toBe(4);
      expect(await page.getByTestId("member-benefits").locator("li").count()).toBe(8);
    },
  );

  it("names the four featured estates of the spec and staggers the cards by 0.1 s", async () => {
    const page = await browser.newPage();
    await page.goto("/");
    const names = await page.getByTestId("featured").locator("h2").allTextContents();
    expect(names).toEqual(["Venetian Countryside", "Padua", "Carlton Towers", "Gordon Castle"]);
    const delays = await page
      .getByTestId("member-benefits")
      .locator("li")
      .evaluateAll((items) => items.map((li) => getComputedStyle(li).animationDelay));
    expect(delays.slice(0, 3)).toEqual(["0s", "0.1s", "0.2s"]);
  });
});
