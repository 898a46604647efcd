import { describe, expect, it } from "vitest";
import { formatMoney } from "#domain/pricing/money.ts";
import frCommon from "#i18n/locales/fr/common.json" with { type: "json" };
import zhCommon from "#i18n/locales/zh/common.json" with { type: "json" };
import { demoEstate } from "../factories/demo-estates.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";

const GORDON = demoEstate("gordon-castle").content;
/** The seed's rates for Gordon Castle (domain/pricing/estate-rates.ts `demoRates`). */
const NIGHTLY = GORDON.startingPrice!.amount * 100;
const CLEANING = Math.round((NIGHTLY * 0.25) / 1_000) * 1_000;
const EXTRA_GUEST = Math.round((NIGHTLY * 0.04) / 500) * 500;
const INCLUDED = Math.ceil(GORDON.guestCapacity * 0.75);

/** Four nights in April of next year: outside every demo season, inside the booking window. */
const YEAR = new Date().getUTCFullYear() + 1;
const CHECK_IN = `${YEAR}-04-10`;
const CHECK_OUT = `${YEAR}-04-14`;

describe("prices on the public pages", () => {
  const browser = useBrowser();

  it("shows the estate's lowest nightly price on its page", async () => {
    const page = await browser.newPage();
    await page.goto("/property/gordon-castle");
    await expect
      .poll(() => page.getByTestId("from-price").textContent())
      .toBe(`From ${formatMoney(NIGHTLY, "GBP", "en", { wholeWhenRound: true })} a night`);
  });

  it("estimates the chosen stay line by line in French, and follows the guests", async () => {
    const page = await browser.newPage({ locale: "fr-FR" });
    await page.goto("/booking/gordon-castle?lang=fr");
    const estimate = page.getByTestId("stay-estimate");
    await expect
      .poll(() => estimate.textContent())
      .toContain(frCommon.pricing.estimate.chooseDates);
    await page.fill("#field-startDate", CHECK_IN);
    await page.fill("#field-endDate", CHECK_OUT);
    const money = (amount: number) => formatMoney(amount, "GBP", "fr");
    const total = 4 * NIGHTLY + CLEANING;
    await expect.poll(() => estimate.locator("dl").innerText()).toContain(money(total));
    const text = await estimate.innerText();
    expect(text).toContain(frCommon.pricing.estimate.title);
    expect(text).toContain(frCommon.pricing.lines.nights);
    expect(text).toContain(frCommon.pricing.lines.cleaning);
    expect(text).not.toContain(frCommon.pricing.lines.extra_guests);
    expect(text).toContain(frCommon.pricing.estimate.note);

    // Two guests beyond those included: a line of their nights, and a new total.
    await page.fill("#field-numberOfGuests", String(INCLUDED + 2));
    const withGuests = total + 2 * 4 * EXTRA_GUEST;
    await expect.poll(() => estimate.locator("dl").innerText()).toContain(money(withGuests));
    expect(await estimate.innerText()).toContain(
      frCommon.pricing.lines.extra_guests.split(" (")[0],
    );
    await expectNoAxeViolations(page);
  });

  it("says when the stay is shorter than the estate's minimum, in Chinese on a phone", async () => {
    const page = await browser.newPage({ locale: "zh-CN", viewport: { width: 390, height: 844 } });
    await page.goto("/booking/gordon-castle?lang=zh");
    await page.fill("#field-startDate", CHECK_IN);
    await page.fill("#field-endDate", `${YEAR}-04-11`);
    const estimate = page.getByTestId("stay-estimate");
    await expect.poll(() => estimate.getByRole("alert").textContent()).toContain("2 晚");
    expect(await estimate.innerText()).toContain(zhCommon.pricing.estimate.title);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await expectNoAxeViolations(page);
  });
});
