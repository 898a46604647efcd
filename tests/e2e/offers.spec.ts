import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "#domain/calendar/nights.ts";
import { utcToday } from "#domain/requests/dates.ts";
import enCommon from "#i18n/locales/en/common.json" with { type: "json" };
import frCommon from "#i18n/locales/fr/common.json" with { type: "json" };
import zhCommon from "#i18n/locales/zh/common.json" with { type: "json" };
import enStaff from "#i18n/locales/en/staff.json" with { type: "json" };
import enOwner from "#i18n/locales/en/owner.json" with { type: "json" };
import { demoEstate } from "../factories/demo-estates.ts";
import { solveBotCheck, validPropertyBooking } from "../setup/intake.ts";
import {
  STAND_IN_SECRET_KEY,
  STAND_IN_WEBHOOK_SECRET,
  StripeStandIn,
} from "../setup/stripe-stand-in.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { E2E_ADMIN_DOMAIN } from "./global-setup.ts";
import { dataTemplate } from "./harness.ts";
import { claimEstateByMail } from "./owner-claim.ts";
import { type ServerWithData, startServerWithStaff } from "./server.ts";

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-offers";
const ESTATE = demoEstate("gordon-castle");
const ADMIN = { email: `offers@${E2E_ADMIN_DOMAIN}`, password: "portcullis-amber-tide-71" };
const HOUR = 3_600_000;
const JOURNEY_TIMEOUT_MS = 180_000;
const FR = frCommon.offers.page;
/** The server's test clock: an offset over the system time (server/clock-file.ts). */
const CLOCK_FILE = join(tmpdir(), `castellum-offers-clock-${process.pid}.json`);
const STAFF = enStaff.offers;

/**
 * The priced loop, end to end in a browser: a guest in French sends a property booking; staff
 * send the offer from the request's details; the guest gets it by mail, accepts it on their
 * status page and pays the deposit by card on the (stand-in) Stripe Checkout page, through the
 * official client; the notice confirms the booking; staff see it paid and find it in the inbox by
 * its money; the estate's owner finds it on the month's statement. Then, on the server's
 * test clock, an offer nobody answers expires and an unpaid deposit cancels its booking.
 */
describe("offers and payments", () => {
  const browser = useBrowser();
  const stripe = new StripeStandIn();
  let server: ServerWithData;
  let cookie = "";
  // The ECB's reference rates, served as the ECB serves its daily file.
  const ecb = createServer((_request, response) => {
    response.setHeader("Content-Type", "text/xml");
    response.end(readFileSync(new URL("../fixtures/ecb/eurofxref-daily.xml", import.meta.url)));
  });
  let stayCursor = 0;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    await stripe.start();
    await new Promise<void>((resolve) => ecb.listen(0, "127.0.0.1", resolve));
    const ecbPort = (ecb.address() as AddressInfo).port;
    server = await startServerWithStaff(
      "offers",
      { ...ADMIN, isAdmin: true, displayName: "Reservations" },
      {
        ADMIN_EMAIL_DOMAIN: E2E_ADMIN_DOMAIN,
        STRIPE_SECRET_KEY: STAND_IN_SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: STAND_IN_WEBHOOK_SECRET,
        STRIPE_API_URL: stripe.url,
        PAYMENT_BANK_DETAILS: "IBAN IT60 X054 2811 1010 0000 0123 456 · Castellum S.r.l.",
        CASL_WALLET_ADDRESS: "0x2222222222222222222222222222222222222222",
        LIFECYCLE_INTERVAL_SECONDS: "1",
        CLOCK_OFFSET_FILE: CLOCK_FILE,
        EXCHANGE_RATES_URL: `http://127.0.0.1:${ecbPort}/eurofxref-daily.xml`,
        OUTBOUND_ALLOW_PRIVATE_NETWORKS: "true",
      },
      dataTemplate("seeded"),
    );
    stripe.webhookUrl = `${server.baseURL}/api/payments/stripe`;
    const login = await fetch(`${server.baseURL}/api/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    cookie = login.headers
      .getSetCookie()
      .map((value) => value.split(";")[0])
      .join("; ");
  }, JOURNEY_TIMEOUT_MS);
  afterAll(async () => {
    rmSync(CLOCK_FILE, { force: true });
    await server?.stop();
    await stripe.stop();
    await new Promise<void>((resolve) => ecb.close(() => resolve()));
  });

  /** A property booking of a fresh week, sent as the form does, in `language`. */
  async function book(email: string, language: "fr" | "en" | "zh") {
    const start = addDays(utcToday(), 90 + 10 * stayCursor++);
    const token = await solveBotCheck(server.baseURL);
    const response = await fetch(`${server.baseURL}/api/bookings`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": language },
      body: JSON.stringify({
        ...validPropertyBooking({
          firstName: "Camille",
          lastName: "Durand",
          email,
          propertyId: ESTATE.id,
          dateMode: "exact",
          startDate: start,
          endDate: addDays(start, 7),
          numberOfGuests: 4,
        }),
        turnstileToken: token,
      }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const made = (await response.json()) as { id: string; reference: string };
    return { ...made, checkOut: addDays(start, 7) };
  }

  async function sendOfferByApi(id: string) {
    const response = await fetch(`${server.baseURL}/api/bookings/${id}/offers`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie, Origin: server.baseURL },
      body: JSON.stringify({}),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as { id: string; total: number; deposit: number };
  }

  /** The status link of the newest mail to `email` whose text holds `marker`. */
  async function linkIn(email: string, marker: string): Promise<string> {
    let link: string | undefined;
    await expect
      .poll(
        () => {
          const mail = server.mailsTo(email).findLast((text) => text.includes(marker));
          link = mail
            ? /https?:\/\/\S+\/requests\/[A-Za-z0-9_-]{32}[^\s"<]*/.exec(mail)?.[0]
            : undefined;
          return link;
        },
        { timeout: 60_000 },
      )
      .toBeDefined();
    return link as string;
  }

  const statusOf = (page: Page) => page.getByTestId("request-status").textContent();

  it(
    "takes a French guest from the offer to a confirmed stay paid by card; staff see it paid",
    async () => {
      const email = "camille.durand@example.fr";
      const request = await book(email, "fr");

      // Staff send the offer from the request's details.
      const desk = await browser.newPage({ baseURL: server.baseURL });
      const details = `/admin/booking-requests/bookings/${request.id}?kind=property_booking`;
      await desk.goto(`/admin/login?redirectTo=${encodeURIComponent(details)}`);
      await desk.locator('input[name="email"]').fill(ADMIN.email);
      await desk.locator('input[name="password"]').fill(ADMIN.password);
      await desk.getByRole("button", { name: "Sign in", exact: true }).click();
      const panel = desk.getByTestId("offer-panel");
      await panel.getByLabel(STAFF.send.note).fill("Nous serons ravis de vous accueillir.");
      // An extra charge beside the estate's quote, which the form shows it starts from.
      await panel.getByTestId("offer-quote-lines").waitFor();
      await panel.getByRole("button", { name: STAFF.send.addCharge }).click();
      const extra = panel.getByTestId("offer-extra");
      await extra.getByLabel(STAFF.send.chargeText).fill("Dîner du chef");
      await extra
        .getByLabel(STAFF.send.chargeAmount.replace(" ({{currency}})", ""), { exact: false })
        .fill("450");
      await panel.getByTestId("send-offer").click();
      await expect
        .poll(() => panel.getByTestId("staff-offer").getAttribute("data-offer-status"))
        .toBe("sent");
      await expectNoAxeViolations(desk, "staff offer sent");
      await desk.screenshot({ path: join(SHOTS, "staff-offer-en-1280.png"), fullPage: true });

      // The guest's mail, in French, leads to the offer.
      const link = await linkIn(email, "offre");
      const guest = await browser.newPage({ baseURL: server.baseURL, locale: "fr-FR" });
      await guest.goto(link);
      const offer = guest.getByTestId("guest-offer");
      await expect.poll(() => offer.getAttribute("data-offer-status")).toBe("sent");
      expect(await offer.innerText()).toContain("Nous serons ravis de vous accueillir.");
      expect(await offer.innerText()).toContain("Dîner du chef");
      await expectNoAxeViolations(guest, "offer sent, fr");
      await guest.screenshot({ path: join(SHOTS, "offer-fr-1280.png"), fullPage: true });

      await offer.getByRole("button", { name: FR.accept }).click();
      await expect
        .poll(() => statusOf(guest))
        .toBe(frCommon.requestStatus.statuses["Awaiting deposit"]);
      const pay = offer.getByTestId("offer-pay");
      await pay.waitFor();
      await expectNoAxeViolations(guest, "offer accepted, fr");
      await guest.screenshot({ path: join(SHOTS, "offer-accepted-fr-1280.png"), fullPage: true });

      // Card: the official client opens a Checkout session; the guest pays on its page.
      await pay.getByRole("button", { name: /carte/ }).click();
      await guest.waitForURL((url) => url.origin === stripe.url);
      await guest.getByRole("button", { name: "Pay" }).click();
      await guest.waitForURL((url) => url.origin === server.baseURL);
      await expect
        .poll(
          async () => {
            await guest.reload();
            return statusOf(guest);
          },
          { timeout: 30_000, interval: 500 },
        )
        .toBe(frCommon.requestStatus.statuses.Confirmed);
      const payments = guest.getByTestId("offer-payments");
      expect(await payments.innerText()).toContain(frCommon.offers.payment.methods.card);
      const receipt = await payments.getByTestId("receipt-link").getAttribute("href");
      const pdf = await fetch(new URL(receipt!, server.baseURL));
      expect(pdf.headers.get("content-type")).toBe("application/pdf");
      await expectNoAxeViolations(guest, "confirmed, fr");
      await guest.screenshot({ path: join(SHOTS, "confirmed-fr-1280.png"), fullPage: true });

      // Staff see the deposit in the ledger, reported by Stripe.
      await desk.reload();
      await expect.poll(() => panel.getByTestId("staff-ledger").innerText()).toContain("stripe");
      expect(await panel.getByTestId("staff-offer-paid").innerText()).toContain("Paid");
      // The guest is mailed a receipt.
      await expect
        .poll(() =>
          server.mailsTo(email).some((text) => text.includes("Reçu") || text.includes("reçu")),
        )
        .toBe(true);

      // The inbox shows the booking's balance still to come, and finds it by that state.
      await desk.goto("/admin/booking-requests?kind=property_booking&money=balance_due");
      const row = desk.getByTestId("money-line").first();
      await row.waitFor();
      expect(await row.getAttribute("data-state")).toBe("balance_due");
      expect(await desk.locator("main").innerText()).toContain(request.reference);
      await expectNoAxeViolations(desk, "inbox by money state");
      await desk.screenshot({ path: join(SHOTS, "inbox-money-en-1280.png"), fullPage: true });

      // The estate's owner signs in with a code by mail and finds the stay on the statement of
      // the month it ends, in English on a desk and in Chinese on a phone.
      const ownerPage = await browser.newPage({ baseURL: server.baseURL });
      await claimEstateByMail(ownerPage, {
        email: ESTATE.email,
        mailsTo: (address) => server.mailsTo(address),
        texts: enOwner.verify,
        start: "/onboard/verify?lang=en",
      });
      const month = request.checkOut.slice(0, 7);
      for (const view of [
        { language: "en", width: 1280 },
        { language: "zh", width: 390 },
      ] as const) {
        await ownerPage.setViewportSize({ width: view.width, height: 900 });
        await ownerPage.goto(`/admin/dashboard?tab=requests&lang=${view.language}`);
        const statement = ownerPage.getByTestId("owner-statement");
        // Typed once the page has hydrated, so the statement is asked for that month.
        await ownerPage.waitForFunction(() => "__reactRouterDataRouter" in window);
        const line = statement.getByTestId("statement-line").filter({ hasText: request.reference });
        await expect
          .poll(async () => {
            await statement.locator('input[type="month"]').fill(month);
            return line.count();
          })
          .toBe(1);
        expect(await statement.getByTestId("statement-line").count()).toBe(2);
        expect(
          await ownerPage.evaluate(() => document.documentElement.scrollWidth),
        ).toBeLessThanOrEqual(view.width);
        await expectNoAxeViolations(ownerPage, `owner statement, ${view.language}`);
        await ownerPage.screenshot({
          path: join(SHOTS, `statement-${view.language}-${view.width}.png`),
          fullPage: true,
        });
      }
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "adds the estimate in the guest's currency, approximately, in English and Chinese",
    async () => {
      const start = addDays(utcToday(), 60);
      for (const view of [
        { language: "en", width: 1280, locale: "en-GB" },
        { language: "zh", width: 390, locale: "zh-CN" },
      ] as const) {
        const page = await browser.newPage({
          baseURL: server.baseURL,
          locale: view.locale,
          viewport: { width: view.width, height: 900 },
        });
        await page.goto(`/booking/${ESTATE.slug}?lang=${view.language}`);
        await page.waitForFunction(() => "__reactRouterDataRouter" in window);
        await page.fill("#field-startDate", start);
        await page.fill("#field-endDate", addDays(start, 4));
        const estimate = page.getByTestId("stay-estimate");
        const approximate = estimate.getByTestId("stay-estimate-approximate");
        // Paid in dollars: the pounds' total, and about as much in dollars.
        await page.locator('select[name="paymentMethod"]').selectOption("usd");
        await expect.poll(() => approximate.textContent()).toMatch(/≈\s*(US)?\$/);
        // In $CASL there is no reference rate, so no line.
        await page.locator('select[name="paymentMethod"]').selectOption("casl");
        await expect.poll(() => approximate.count()).toBe(0);
        await page.locator('select[name="paymentMethod"]').selectOption("usd");
        await approximate.waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          view.width,
        );
        await expectNoAxeViolations(page, `estimate in dollars, ${view.language}`);
        await estimate.screenshot({
          path: join(SHOTS, `estimate-usd-${view.language}-${view.width}.png`),
        });
      }
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "shows the offer in English and Chinese on a phone, nothing wider than the screen",
    async () => {
      for (const language of ["en", "zh"] as const) {
        const email = `guest-${language}@example.org`;
        const request = await book(email, language);
        await sendOfferByApi(request.id);
        const link = await linkIn(email, "/requests/");
        const page = await browser.newPage({
          baseURL: server.baseURL,
          locale: language === "zh" ? "zh-CN" : "en-GB",
          viewport: { width: 390, height: 844 },
        });
        await page.goto(link);
        const offer = page.getByTestId("guest-offer");
        await expect.poll(() => offer.getAttribute("data-offer-status")).toBe("sent");
        const texts = language === "zh" ? zhCommon.offers.page : enCommon.offers.page;
        await offer.getByRole("button", { name: texts.accept }).click();
        await offer.getByTestId("offer-pay").waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          390,
        );
        await expectNoAxeViolations(page, `offer accepted, ${language}, phone`);
        await page.screenshot({
          path: join(SHOTS, `offer-accepted-${language}-390.png`),
          fullPage: true,
        });
      }
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "expires an unanswered offer and cancels a booking whose deposit never came, each once, on the test clock",
    async () => {
      const quiet = await book("quiet@example.org", "en");
      await sendOfferByApi(quiet.id);
      const unpaid = await book("unpaid@example.org", "en");
      const offer = await sendOfferByApi(unpaid.id);
      const unpaidLink = await linkIn("unpaid@example.org", "/requests/");
      const token = new URL(unpaidLink).pathname.split("/").at(-1)!;
      const accepted = await fetch(
        `${server.baseURL}/api/requests/${token}/offers/${offer.id}/accept`,
        {
          method: "POST",
          headers: { Origin: server.baseURL },
        },
      );
      expect(accepted.status).toBe(200);

      // Three days and an hour later: past the offer's 72 hours and the deposit's.
      writeFileSync(CLOCK_FILE, JSON.stringify({ offsetMs: 73 * HOUR }));
      const quietLink = await linkIn("quiet@example.org", "/requests/");
      const page = await browser.newPage({ baseURL: server.baseURL });
      await expect
        .poll(
          async () => {
            await page.goto(quietLink);
            return statusOf(page);
          },
          { timeout: 60_000, interval: 500 },
        )
        .toBe(enCommon.requestStatus.statuses["In progress"]);
      expect(await page.getByTestId("guest-offer").getAttribute("data-offer-status")).toBe(
        "expired",
      );
      await expect
        .poll(
          async () => {
            await page.goto(unpaidLink);
            return statusOf(page);
          },
          { timeout: 60_000, interval: 500 },
        )
        .toBe(enCommon.requestStatus.statuses.Cancelled);
      await expectNoAxeViolations(page, "cancelled, en");

      // One mail each for the guest, whatever the number of runs since.
      const expired = enCommon.offers.mail.guest.expired.subject.split("}}").at(-1)!;
      const cancelled = enCommon.offers.mail.guest.cancelled.subject.split("}}").at(-1)!;
      await expect
        .poll(
          () => server.mailsTo("quiet@example.org").filter((text) => text.includes(expired)).length,
        )
        .toBe(1);
      await expect
        .poll(
          () =>
            server.mailsTo("unpaid@example.org").filter((text) => text.includes(cancelled)).length,
        )
        .toBe(1);
      rmSync(CLOCK_FILE, { force: true });
    },
    JOURNEY_TIMEOUT_MS,
  );
});
