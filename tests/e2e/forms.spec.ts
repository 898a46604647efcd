import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import frCommon from "#i18n/locales/fr/common.json" with { type: "json" };
import itCommon from "#i18n/locales/it/common.json" with { type: "json" };
import zhCommon from "#i18n/locales/zh/common.json" with { type: "json" };
import { decodeMail } from "../setup/mail-text.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { sharedServer } from "./harness.ts";

const MAIL_DIR = sharedServer().mailDir;

/** The .eml files written so far whose text contains `needle`. */
function mailsContaining(needle: string): string[] {
  let files: string[];
  try {
    files = readdirSync(MAIL_DIR).filter((file) => file.endsWith(".eml"));
  } catch {
    return [];
  }
  return files
    .map((file) => readFileSync(join(MAIL_DIR, file), "utf8"))
    .filter((text) => decodeMail(text).includes(needle));
}

function isoDate(daysAhead: number): string {
  const date = new Date();
  date.setDate(date.getDate() + daysAhead);
  const month = String(date.getMonth() + 1).padStart(2, "0");
  const day = String(date.getDate()).padStart(2, "0");
  return `${date.getFullYear()}-${month}-${day}`;
}

/**
 * Holds every browser request matching `pattern` until the returned function is called: the
 * form's code (so the page stays as the server sent it), the bot-check challenge (so the
 * widget cannot verify), or a form's POST (so the form stays in its sending state).
 */
async function hold(page: Page, pattern: RegExp): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** The paths of the POST requests the page sends from now on (API calls and native posts). */
function postsFrom(page: Page): string[] {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
  });
  return posts;
}

const CHALLENGE = /\/api\/bot-check\/challenge/;

/** Focuses a field so the ALTCHA widget solves its challenge, and waits until it has. */
async function solveBotCheck(page: Page) {
  // The widget loads after hydration; it starts solving at the next focus inside the form.
  await page.locator("altcha-widget .altcha").waitFor();
  await page.locator("#field-firstName").focus();
  const widget = page.locator("altcha-widget .altcha");
  try {
    await expect
      .poll(() => widget.getAttribute("data-state").catch(() => null), { timeout: 15_000 })
      .toBe("verified");
  } catch (error) {
    // What the widget shows says why (its error text), which the state alone does not.
    const shown = await widget.textContent().catch(() => null);
    throw new Error(`${(error as Error).message}\nThe bot check shows: ${shown}`, { cause: error });
  }
}

async function toastText(page: Page): Promise<string> {
  const toasts = page.getByTestId("toast");
  return (await toasts.count()) > 0 ? ((await toasts.first().textContent()) ?? "") : "";
}

describe("the general booking request", () => {
  const browser = useBrowser();

  it("answers a Submit pressed before the form has loaded, then sends and returns home (en)", async () => {
    const page = await browser.newPage();
    const posts = postsFrom(page);
    // The form's code is held back: the page stays as the server rendered it.
    const releaseFormCode = await hold(page, /\/assets\/booking-request-form-[\w-]+\.js$/);
    await page.goto("/booking-request");
    for (const section of [
      "Personal Information",
      "Booking Details",
      "Preferences",
      "Additional Information",
    ])
      expect(await page.getByRole("heading", { name: section }).count()).toBe(1);

    // The button does not wait for the bot check: pressing it on the empty form always answers.
    await page.fill("#field-lastName", "L");
    await page.locator('button[type="submit"]').click();
    // Nothing was sent, the guest is still on the form and keeps what they typed...
    expect(posts).toEqual([]);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/booking-request");
    expect(await page.inputValue("#field-lastName")).toBe("L");
    // ...and once the code is there, the Submit is answered.
    releaseFormCode();
    const summary = page.getByTestId("error-summary");
    await expect.poll(() => summary.isVisible()).toBe(true);
    const summaryText = (await summary.textContent()) ?? "";
    expect(summaryText).toContain("Please correct the following errors");
    expect(summaryText).toContain("First name: First name must be at least 2 characters");
    expect(summaryText).toContain("Last name: Last name must be at least 2 characters");
    expect(summaryText).toContain("Booking type: Please select at least one booking type");
    expect(summaryText).toContain("Please select at least one preferred region");
    expect(summaryText).toContain("Verification: Please verify you are not a robot");
    // The fields come first: their toast, and the focus on the first invalid field.
    await expect.poll(() => toastText(page)).toContain("Form Validation Error");
    expect(await toastText(page)).toContain("First name: First name must be at least 2 characters");
    expect(await toastText(page)).not.toContain("Verification Required");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe("field-firstName");
    expect(await page.locator("#field-firstName").getAttribute("aria-invalid")).toBe("true");
    expect(posts).toEqual([]);
    await solveBotCheck(page);

    // Past days are disabled in the picker.
    expect(await page.locator("#field-checkInDate").getAttribute("min")).toBe(isoDate(0));

    await page.fill("#field-firstName", "Ada");
    await page.fill("#field-lastName", "Lovelace <b>bold</b>");
    await page.fill("#field-email", "ada@example.com");
    await page.fill("#field-phoneNumber", "+44 20 7946 0000");
    await page.selectOption("#field-memberStatus", "gold");
    await page.selectOption("#field-countryOfResidence", "GB");
    await page.check("#field-bookingType-wedding");
    await page.check("#field-bookingType");
    await page.fill("#field-checkInDate", isoDate(30));
    await page.fill("#field-checkOutDate", isoDate(34));
    // An emptied number falls back to its minimum.
    await page.fill("#field-estimatedGuests", "");
    await page.locator("#field-estimatedGuests").blur();
    expect(await page.inputValue("#field-estimatedGuests")).toBe("1");
    await page.fill("#field-estimatedGuests", "12");
    await page.fill("#field-adults", "10");
    await page.fill("#field-children", "2");
    await page.fill("#field-bedroomsRequired", "6");
    await page.check("#field-preferredRegion");
    await page.check("#field-requestedServices-butler");
    await page.fill("#field-bookingGoal", "A wedding weekend for our two families.");
    await page.selectOption("#field-heardAboutCastellum", "press");
    await page.fill("#field-specialRequests", "<script>alert(1)</script> vegetarian menu");
    await expect.poll(() => page.getByTestId("error-summary").count()).toBe(0);

    await page.locator('button[type="submit"]').click();
    await expect.poll(() => toastText(page)).toContain("Booking Request Submitted");
    expect(await toastText(page)).toContain(
      "Thank you for your booking request. We'll be in touch soon!",
    );
    await page.waitForURL((url) => url.pathname === "/");

    // The confirmation mail arrives (a file by default) with a working status link.
    await expect
      .poll(() => mailsContaining("To: ada@example.com").length, { timeout: 30_000 })
      .toBe(1);
    const mail = decodeMail(mailsContaining("To: ada@example.com")[0]!);
    expect(mail).toMatch(
      /Subject: We received your booking request \(BR-[0-9A-Z]{4}-[0-9A-Z]{4}\)/,
    );
    expect(mail).toContain("must be approved first");
    const link = /https?:\/\/[^\s"<]+\/requests\/[A-Za-z0-9_-]{32}\?lang=en/.exec(mail)?.[0];
    expect(link).toBeTruthy();
    const status = await browser.newPage();
    await status.goto(new URL(link!).pathname + new URL(link!).search);
    expect(await status.getByTestId("request-status").textContent()).toContain("New");
    // Guest text is shown as text, never as markup.
    expect(await status.getByText("<script>alert(1)</script> vegetarian menu").count()).toBe(1);
    expect(await status.getByText("Lovelace <b>bold</b>", { exact: false }).count()).toBe(1);
    await expectNoAxeViolations(status, "status page");

    // Any other token opens nothing: the not-found page, with 404.
    const wrong = await browser.newPage();
    const response = await wrong.goto(`/requests/${"A".repeat(32)}`);
    expect(response?.status()).toBe(404);
    expect(await wrong.locator("h1").textContent()).toBe("404 Page Not Found");
  });

  it("speaks French: countries sorted in French, the errors of the empty form", async () => {
    const page = await browser.newPage({ locale: "fr-FR" });
    // The bot check cannot verify while its challenge is held back: pressing Submit focuses the
    // form, which starts the check, and a quick one finished before the form was checked.
    await hold(page, CHALLENGE);
    await page.goto("/booking-request?lang=fr");
    expect(await page.getByRole("heading", { name: "Informations personnelles" }).count()).toBe(1);
    const countries = await page.locator("#field-countryOfResidence option").allTextContents();
    expect(countries.length).toBe(196);
    const names = countries.slice(1);
    expect(names).toEqual([...names].sort(new Intl.Collator("fr").compare));
    expect(names).toContain("Royaume-Uni");
    // Submit on the empty form, with no bot check done.
    await page.locator('button[type="submit"]').click();
    const summary = page.getByTestId("error-summary");
    await expect.poll(() => summary.isVisible()).toBe(true);
    const summaryText = (await summary.textContent()) ?? "";
    expect(summaryText).toContain(frCommon.forms.errorSummaryTitle);
    expect(summaryText).toContain(frCommon.validation.firstNameMin);
    expect(summaryText).toContain(frCommon.validation.turnstileRequired);
    await expect.poll(() => toastText(page)).toContain(frCommon.forms.toast.validationTitle);
    expect(await toastText(page)).toContain(frCommon.validation.firstNameMin);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe("field-firstName");
  });
});

describe("the membership application", () => {
  const browser = useBrowser();

  async function fillMembership(page: Page, email = "grace@example.com") {
    await page.selectOption("#field-title", "dr");
    await page.fill("#field-firstName", "Grace");
    await page.fill("#field-lastName", "Hopper");
    await page.selectOption("#field-gender", "female");
    await page.fill("#field-email", email);
    await page.check("#field-interests");
    await page.check("#field-interests-travel");
    await page.fill(
      "#field-reasonToJoin",
      "I restore old buildings and would love to meet people who care for them as much as I do.",
    );
  }

  it("lists the fields in order, validates, confirms and returns home (en)", async () => {
    const page = await browser.newPage();
    await page.goto("/membership");
    const order = await page
      .locator("form [data-field]")
      .evaluateAll((els) => els.map((el) => el.getAttribute("data-field")));
    expect(order).toEqual([
      "title",
      "firstName",
      "lastName",
      "gender",
      "email",
      "otherClubMemberships",
      "linkedinProfile",
      "instagramHandle",
      "xHandle",
      "interests",
      "reasonToJoin",
      "turnstileToken",
    ]);
    expect(await page.locator("#field-title option").count()).toBe(7);
    expect(await page.locator("#field-gender option").count()).toBe(5);
    expect(await page.locator('input[name="interests"]').count()).toBe(18);
    await solveBotCheck(page);
    await page.fill("#field-reasonToJoin", "Too short");
    await page.locator('button[type="submit"]').click();
    await expect
      .poll(() => page.getByTestId("error-summary").textContent())
      .toContain("Please tell us in at least 50 characters why you would like to join");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("field-title");

    await fillMembership(page);
    await page.locator('button[type="submit"]').click();
    await expect
      .poll(() => page.getByTestId("membership-confirmation").textContent())
      .toContain("Application Submitted");
    await page.waitForURL((url) => url.pathname === "/");
  });

  it("asks for the bot check before sending, then sends (en)", async () => {
    const page = await browser.newPage();
    const posts = postsFrom(page);
    // The widget cannot verify while its challenge is held back.
    const releaseChallenge = await hold(page, CHALLENGE);
    await page.goto("/membership");
    await fillMembership(page, "no-token@example.com");
    await page.locator('button[type="submit"]').click();
    // Without a solved bot check: 'Verification Required', and nothing leaves the browser.
    await expect.poll(() => toastText(page)).toContain("Verification Required");
    expect(await toastText(page)).toContain(
      "Please complete the verification challenge to prove you're not a robot.",
    );
    expect(await page.getByTestId("error-summary").textContent()).toContain(
      "Verification: Please verify you are not a robot",
    );
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe("field-turnstileToken");
    expect(posts).toEqual([]);

    releaseChallenge();
    await solveBotCheck(page);
    await expect.poll(() => page.getByTestId("error-summary").count()).toBe(0);
    // While it is sent, the button says so and cannot be pressed again.
    const releaseSend = await hold(page, /\/api\/membership\/apply$/);
    const button = page.locator('button[type="submit"]');
    await button.click();
    await expect.poll(() => button.textContent()).toBe("Submitting...");
    expect(await button.isDisabled()).toBe(true);
    releaseSend();
    await expect
      .poll(() => page.getByTestId("membership-confirmation").textContent())
      .toContain("Application Submitted");
    expect(posts).toEqual(["/api/membership/apply"]);
    await expect
      .poll(() => mailsContaining("To: no-token@example.com").length, { timeout: 30_000 })
      .toBe(1);
  });

  it("gets over a bot-check challenge that failed to arrive, by itself", async () => {
    const page = await browser.newPage();
    // The first challenge answers 503, as a server restarting would; the next ones go through.
    let challenges = 0;
    await page.route(CHALLENGE, async (route) => {
      challenges += 1;
      if (challenges === 1) await route.fulfill({ status: 503, body: "" });
      else await route.continue();
    });
    await page.goto("/membership");
    await solveBotCheck(page);
    expect(challenges).toBe(2);
  });

  it("sends an application in Italian and confirms it in Italian", async () => {
    const page = await browser.newPage({ locale: "it-IT" });
    await page.goto("/membership?lang=it");
    await solveBotCheck(page);
    await fillMembership(page, "grazia.it@example.com");
    await page.locator('button[type="submit"]').click();
    const confirmation = page.getByTestId("membership-confirmation");
    await expect
      .poll(() => confirmation.textContent())
      .toContain(itCommon.forms.membership.successTitle);
    expect(await confirmation.textContent()).toContain(itCommon.forms.membership.successText);
    // The guest's confirmation mail, to this guest only, in Italian.
    await expect
      .poll(() => mailsContaining("To: grazia.it@example.com").length, { timeout: 30_000 })
      .toBe(1);
    const subject = itCommon.mail.confirmation.subject
      .replace("{{kind}}", itCommon.mail.kinds.membership)
      .replace(" ({{reference}})", "");
    expect(decodeMail(mailsContaining("To: grazia.it@example.com")[0]!)).toContain(
      `Subject: ${subject} (MA-`,
    );
  });
});

describe("the property booking page", () => {
  const browser = useBrowser();

  it("books a property with flexible dates and returns to it (en)", async () => {
    const page = await browser.newPage();
    await page.goto("/property/gordon-castle");
    await page.getByRole("link", { name: "Book this Property" }).click();
    await page.waitForURL(/\/booking\/gordon-castle/);
    await expect.poll(() => page.locator("h1").textContent()).toBe("Book Gordon Castle");
    expect(
      await page
        .getByText("Please note that all booking requests for castles must be approved.", {
          exact: false,
        })
        .count(),
    ).toBe(1);
    expect(await page.locator("#field-castellumStatus").inputValue()).toBe("caslHolder");
    expect(await page.locator("#field-paymentMethod").inputValue()).toBe("casl");
    // The flexibility field appears only in flexible mode.
    expect(await page.locator("#field-flexibilityDays").count()).toBe(0);
    // Chosen before the form has hydrated, the choice is read from the page when it does.
    await page.getByText("Flexible Dates").click();
    await expect
      .poll(() => page.getByText("How many days flexible are you with your dates?").count())
      .toBe(1);
    expect(await page.locator("#field-startDate").getAttribute("min")).toBe(isoDate(0));
    expect(await page.locator("#field-startDate").getAttribute("max")).toBeTruthy();

    await solveBotCheck(page);
    await page.fill("#field-firstName", "Isambard");
    await page.fill("#field-lastName", "Brunel");
    await page.fill("#field-email", "ikb@example.com");
    await page.fill("#field-phone", "+44 117 000 0000");
    await page.fill("#field-startDate", isoDate(60));
    await page.fill("#field-endDate", isoDate(65));
    await page.fill("#field-flexibilityDays", "3");
    await page.fill("#field-numberOfGuests", "8");
    await page.locator('button[type="submit"]').click();
    await expect.poll(() => toastText(page)).toContain("Booking request submitted");
    await page.waitForURL(/\/property\/gordon-castle$/);
    await expect
      .poll(() => mailsContaining("Gordon Castle").length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(2);
  });

  it("keeps a Submit pressed before any of the page's code has run, and answers it once it has", async () => {
    const page = await browser.newPage();
    const posts = postsFrom(page);
    // Every module held: the page is as the server sent it, with only its inline script.
    const releaseCode = await hold(page, /\/assets\/[\w.-]+\.js$/);
    await page.goto("/booking/gordon-castle");
    await page.fill("#field-lastName", "L");
    await page.locator('button[type="submit"]').click();
    // Not sent natively (a page load that would drop what was typed)...
    expect(posts).toEqual([]);
    expect(await page.inputValue("#field-lastName")).toBe("L");
    // ...but answered once the code has run: the form's errors, what was typed kept.
    releaseCode();
    const summary = page.getByTestId("error-summary");
    await expect.poll(() => summary.isVisible()).toBe(true);
    expect(await summary.textContent()).toContain("First name: First name is required");
    expect(await page.inputValue("#field-lastName")).toBe("L");
    expect(posts).toEqual([]);
  });

  it("speaks Chinese: field errors, then the bot check, then sends", async () => {
    const page = await browser.newPage({ locale: "zh-CN" });
    const posts = postsFrom(page);
    const releaseChallenge = await hold(page, CHALLENGE);
    await page.goto("/booking/gordon-castle?lang=zh");
    await page.locator('button[type="submit"]').click();
    const summary = page.getByTestId("error-summary");
    await expect.poll(() => summary.isVisible()).toBe(true);
    expect(await summary.textContent()).toContain(zhCommon.validation.firstNameRequired);
    await expect.poll(() => toastText(page)).toContain(zhCommon.forms.toast.validationTitle);

    await page.fill("#field-firstName", "伊桑巴德");
    await page.fill("#field-lastName", "布鲁内尔");
    await page.fill("#field-email", "ikb-zh@example.com");
    await page.fill("#field-phone", "+86 10 0000 0000");
    await page.fill("#field-startDate", isoDate(90));
    await page.fill("#field-endDate", isoDate(92));
    await page.locator('button[type="submit"]').click();
    await expect.poll(() => toastText(page)).toContain(zhCommon.forms.toast.verificationTitle);
    expect(await toastText(page)).toContain(zhCommon.forms.toast.verificationText);
    expect(posts).toEqual([]);

    releaseChallenge();
    await solveBotCheck(page);
    await page.locator('button[type="submit"]').click();
    await expect.poll(() => toastText(page)).toContain(zhCommon.forms.propertyBooking.successTitle);
    await page.waitForURL((url) => url.pathname === "/property/gordon-castle");
    expect(posts).toEqual(["/api/bookings"]);
    await expect
      .poll(() => mailsContaining("To: ikb-zh@example.com").length, { timeout: 30_000 })
      .toBe(1);
  });

  it("shows the not-found view for an unknown estate", async () => {
    const missing = await browser.newPage();
    const response = await missing.goto("/booking/no-such-estate");
    expect(response?.status()).toBe(404);
    expect(await missing.locator("h1").textContent()).toBe("Property Not Found");
    expect(
      await missing.getByText("The property you're looking for could not be found.").count(),
    ).toBe(1);
  });
});

describe("the form pages are accessible", () => {
  const browser = useBrowser();
  for (const language of ["en", "fr", "it", "zh"]) {
    it(`has no axe violations in ${language}`, async () => {
      const page = await browser.newPage();
      for (const path of ["/booking-request", "/membership", "/booking/gordon-castle"]) {
        await page.goto(`${path}?lang=${language}`);
        await page.locator("altcha-widget").waitFor();
        await expectNoAxeViolations(page, `${path} ${language}`);
      }
    });
  }
});
