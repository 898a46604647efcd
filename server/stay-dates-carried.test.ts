import { expect, it } from "vitest";
import { addDays } from "#domain/calendar/nights.ts";
import { lastBookableDate, utcToday } from "#domain/requests/dates.ts";
import { FORM_LIMITS } from "#domain/requests/options.ts";
import { translate } from "#i18n/translate.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { readJson } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { servePages } from "#tests/setup/pages.ts";

const CHECK_IN = addDays(utcToday(), 40);
const CHECK_OUT = addDays(CHECK_IN, 3);
const DATES = `checkIn=${CHECK_IN}&checkOut=${CHECK_OUT}`;
const LAST = lastBookableDate(FORM_LIMITS.bookingHorizonMonths);
const ESTATE = demoEstate("hazelford-manor");

/** The attributes of the first `<input name=…>` of a page. */
const inputOf = (html: string, name: string) =>
  new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? "";

/**
 * The dates a guest searches for on /castles: refused past the booking horizon with the booking
 * form's own message, and otherwise carried to the estate's page and on to its booking form.
 */
describeEachBackend("the stay's dates from /castles to the booking form", (database) => {
  const site = servePages(() => database().deps);
  const page = async (path: string) => {
    const answer = await fetch(`${site.url()}${path}`);
    expect(answer.status, path).toBe(200);
    return answer.text();
  };

  it("refuses dates past the booking horizon with the booking form's message", async () => {
    const beyond = `checkIn=${addDays(LAST, -1)}&checkOut=${addDays(LAST, 2)}`;
    const api = await fetch(`${site.url()}/api/castles?${beyond}&lang=it`);
    expect(api.status).toBe(400);
    expect(await readJson(api)).toEqual({
      message: translate("it", "validation.dateBeyondWindow"),
      code: "invalid_filter",
    });
    const html = await page(`/castles?${beyond}&lang=zh`);
    expect(inputOf(html, "checkOut")).toContain('aria-invalid="true"');
    expect(html).toContain(translate("zh", "validation.dateBeyondWindow"));
    // The pickers stop at the horizon, so the browser refuses a later date before sending it.
    expect(inputOf(html, "checkIn")).toContain(`max="${LAST}"`);
    expect(inputOf(html, "checkOut")).toContain(`max="${LAST}"`);
    // Ending on the horizon's last day is a stay the form accepts too.
    const lastStay = await fetch(
      `${site.url()}/api/castles?checkIn=${addDays(LAST, -2)}&checkOut=${LAST}&limit=1`,
    );
    expect(lastStay.status).toBe(200);
  });

  it("carries the dates from the results to the estate's page and on to its booking form", async () => {
    const results = await page(`/castles?${DATES}&region=uk`);
    const dates = DATES.replace("&", "&amp;");
    expect(results).toContain(`href="/property/${ESTATE.id}?${dates}"`);
    const estate = await page(`/property/${ESTATE.id}?${DATES}`);
    expect(estate).toContain(`href="/booking/${ESTATE.slug}?${dates}#top"`);
    const form = await page(`/booking/${ESTATE.slug}?${DATES}`);
    expect(inputOf(form, "startDate")).toContain(`value="${CHECK_IN}"`);
    expect(inputOf(form, "endDate")).toContain(`value="${CHECK_OUT}"`);
  });

  it("drops carried dates that are broken, and links without them", async () => {
    const broken = `checkIn=${CHECK_IN}&checkOut=${addDays(LAST, 5)}`;
    const estate = await page(`/property/${ESTATE.slug}?${broken}`);
    expect(estate).toContain(`href="/booking/${ESTATE.slug}#top"`);
    const form = await page(`/booking/${ESTATE.slug}?${broken}`);
    expect(inputOf(form, "startDate")).not.toContain(`value="${CHECK_IN}"`);
    const plain = await page(`/castles?region=uk`);
    expect(plain).toContain(`href="/property/${ESTATE.id}"`);
  });
});
