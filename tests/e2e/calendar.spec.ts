import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TAB_IDS } from "#app/components/owner/owner-tab-ids.ts";
import { addDays } from "#domain/calendar/nights.ts";
import { utcToday } from "#domain/requests/dates.ts";
import enOwner from "#i18n/locales/en/owner.json" with { type: "json" };
import zhOwner from "#i18n/locales/zh/owner.json" with { type: "json" };
import { demoEstate } from "../factories/demo-estates.ts";
import { allDayCalendar, FeedServer } from "../setup/feed-server.ts";
import { decodeMail } from "../setup/mail-text.ts";
import { solveBotCheck, validPropertyBooking } from "../setup/intake.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { E2E_ADMIN_DOMAIN } from "./global-setup.ts";
import { dataTemplate } from "./harness.ts";
import { copyDataDir, createStaffAccounts, type RunningServer, startServer } from "./server.ts";

/**
 * The estate calendars, on a server of their own: staff open an
 * estate's calendar around a confirmed stay, block nights, are refused a block over the stay
 * with the stay named, and remove their block; the owner finds the same nights on the Calendar
 * tab of their dashboard, in Chinese, without the guest's name. A block over a pending request
 * is kept, and the form names the request (with its guest for staff).
 */
const ESTATE = demoEstate("gordon-castle");
const ADMIN = { email: `calendar@${E2E_ADMIN_DOMAIN}`, password: "battlement-winter-rain-58" };
const SESSION_COOKIE = "__Host-castellum_session";
const EN = enOwner.calendar;
/** Each journey loads a dozen pages and runs axe four times on a shared two-core machine. */
const JOURNEY_TIMEOUT_MS = 180_000;
const ZH = zhOwner.calendar;
const RATES = enOwner.rates;
/** Next year: its spring is inside the booking window and outside the demo seasons. */
const NEXT_YEAR = new Date().getUTCFullYear() + 1;

let dataDir = "";
const feeds = new FeedServer();
let server: RunningServer | undefined;
let baseURL = "";
/** The confirmed stay's nights: two months on, four nights. */
const stayStart = addDays(utcToday(), 60);
const stayEnd = addDays(stayStart, 4);
const guest = { firstName: "Ottilie", lastName: "Marchbanks", email: "ottilie@example.org" };
let reference = "";
/** A request still pending on nights the owner's block will lie over. */
const pendingGuest = { firstName: "Wenzel", lastName: "Oberhauser", email: "wenzel@example.org" };
let pendingReference = "";

function cookieOf(response: Response, name: string): string {
  const header = response.headers.getSetCookie().find((value) => value.startsWith(`${name}=`));
  if (!header) throw new Error(`no ${name} cookie`);
  return header.split(";")[0]!;
}

async function api(path: string, init: { method?: string; cookie?: string; body?: unknown } = {}) {
  const response = await fetch(`${baseURL}${path}`, {
    method: init.method ?? "GET",
    headers: {
      "Content-Type": "application/json",
      Origin: baseURL,
      ...(init.cookie ? { Cookie: init.cookie } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return response;
}

/** The newest mail filed for `address` in the outbox directory (no SMTP here), decoded. */
function newestMailTo(address: string): string | undefined {
  const mailDir = join(dataDir, "mail");
  if (!existsSync(mailDir)) return undefined;
  return readdirSync(mailDir)
    .filter((file) => file.endsWith(".eml"))
    .map((file) => decodeMail(readFileSync(join(mailDir, file), "utf8")))
    .filter((text) => text.toLowerCase().includes(`to: ${address.toLowerCase()}`))
    .at(-1);
}

/** A guest's booking of the estate on [start, end), its nights settled by staff: still New. */
async function bookPending(
  cookie: string,
  person: { firstName: string; lastName: string; email: string },
  start: string,
  end: string,
): Promise<{ id: string; reference: string }> {
  const token = await solveBotCheck(baseURL);
  const booked = await api("/api/bookings", {
    method: "POST",
    body: {
      ...validPropertyBooking({
        ...person,
        propertyId: ESTATE.id,
        dateMode: "exact",
        startDate: start,
        endDate: end,
        numberOfGuests: 2,
      }),
      turnstileToken: token,
    },
  });
  expect(booked.status, await booked.clone().text()).toBe(201);
  const request = (await booked.json()) as { id: string; reference: string };
  const settled = await api(`/api/bookings/${request.id}/stay`, {
    method: "PUT",
    cookie,
    body: { propertyId: ESTATE.id, start, end, version: 1 },
  });
  expect(settled.status, await settled.clone().text()).toBe(200);
  return request;
}

async function toastText(page: Page): Promise<string> {
  const toasts = page.getByTestId("toast");
  return (await toasts.count()) > 0 ? ((await toasts.first().textContent()) ?? "") : "";
}

/** What a screen reader hears for a day of the month grids. */
const dayLabel = (page: Page, date: string) =>
  page.locator(`[data-date="${date}"]`).getAttribute("aria-label");

describe("estate calendars", () => {
  const browser = useBrowser();
  let staffCookie = "";

  beforeAll(async () => {
    dataDir = copyDataDir("calendar", dataTemplate("seeded"));
    await createStaffAccounts(dataDir, [{ ...ADMIN, isAdmin: true, displayName: "Calendar desk" }]);
    await feeds.start();
    server = await startServer({
      DATA_DIR: dataDir,
      ADMIN_EMAIL_DOMAIN: E2E_ADMIN_DOMAIN,
      // The imported calendar is served on loopback.
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: "true",
    });
    baseURL = server.baseURL;

    // A guest books the estate; staff confirm it, and the stay takes its nights.
    const token = await solveBotCheck(baseURL);
    const booked = await api("/api/bookings", {
      method: "POST",
      body: {
        ...validPropertyBooking({
          ...guest,
          propertyId: ESTATE.id,
          dateMode: "exact",
          startDate: stayStart,
          endDate: stayEnd,
          numberOfGuests: 5,
        }),
        turnstileToken: token,
      },
    });
    expect(booked.status, await booked.clone().text()).toBe(201);
    const { id, reference: bookedReference } = (await booked.json()) as {
      id: string;
      reference: string;
    };
    reference = bookedReference;
    const login = await api("/api/admin/login", { method: "POST", body: ADMIN });
    expect(login.status).toBe(200);
    const cookie = cookieOf(login, SESSION_COOKIE);
    // Staff settle its nights on the estate (as for any request), then confirm it.
    const settled = await api(`/api/bookings/${id}/stay`, {
      method: "PUT",
      cookie,
      body: { propertyId: ESTATE.id, start: stayStart, end: stayEnd, version: 1 },
    });
    expect(settled.status, await settled.clone().text()).toBe(200);
    const { version } = (await settled.json()) as { version: number };
    const confirmed = await api(`/api/bookings/${id}`, {
      method: "PATCH",
      cookie,
      body: { status: "Confirmed", version },
    });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    staffCookie = cookie;
    pendingReference = (
      await bookPending(cookie, pendingGuest, addDays(stayEnd, 12), addDays(stayEnd, 14))
    ).reference;
  });

  afterAll(async () => {
    await server?.stop();
    await feeds.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // Feeds are read in a worker thread, whose file the production server must find: the suites
  // run the source, where it always is.
  it("the production server reads an imported calendar and takes its nights", async () => {
    const start = addDays(stayEnd, 30);
    feeds.serve("/other-site.ics", allDayCalendar([["elsewhere-1", start, addDays(start, 3)]]));
    const added = await api(`/api/admin/estates/${ESTATE.id}/calendar-feeds`, {
      method: "POST",
      cookie: staffCookie,
      body: { url: feeds.url("/other-site.ics") },
    });
    expect(added.status, await added.clone().text()).toBe(201);
    const { id } = (await added.json()) as { id: string };
    const synced = await api(`/api/admin/estates/${ESTATE.id}/calendar-feeds/${id}/sync`, {
      method: "POST",
      cookie: staffCookie,
    });
    expect(synced.status, await synced.clone().text()).toBe(200);
    expect(await synced.json()).toMatchObject({ lastError: null, nightsClosed: 3 });
    expect(feeds.hits("/other-site.ics")).toBeGreaterThan(0);
  });

  it(
    "staff open the calendar around the stay, block nights, are refused a block over the stay, and remove theirs",
    async () => {
      const page = await browser.newPage({ baseURL });
      await page.goto(`/admin/login?redirectTo=/admin/estates/${ESTATE.id}`);
      await page.locator('input[name="email"]').fill(ADMIN.email);
      await page.locator('input[name="password"]').fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/admin/estates/${ESTATE.id}`);
      await page.getByTestId("open-calendar").click();
      await expect
        .poll(() => new URL(page.url()).pathname)
        .toBe(`/admin/estates/${ESTATE.id}/calendar`);
      // Around the stay's first night, as a request's details link here.
      await page.goto(`/admin/estates/${ESTATE.id}/calendar?from=${stayStart}`);
      await page.getByRole("heading", { level: 1, name: new RegExp(ESTATE.name) }).waitFor();
      const entries = page.getByTestId("calendar-entries");
      const stayRow = entries.locator('[data-type="stay"]');
      await expect.poll(() => stayRow.textContent()).toContain(reference);
      expect(await stayRow.textContent()).toContain(`${guest.firstName} ${guest.lastName}`);
      expect(await dayLabel(page, stayStart)).toContain(`confirmed stay ${reference}`);
      // The check-out day is free for the next arrival.
      expect(await dayLabel(page, stayEnd)).toContain(EN.day.free);
      expect(
        await stayRow.getByRole("link", { name: new RegExp(reference) }).getAttribute("href"),
      ).toMatch(/^\/admin\/booking-requests\/bookings\//);
      await expectNoAxeViolations(page, "staff calendar (en)");

      // Block the two nights after the stay, by keyboard.
      const form = page.getByTestId("block-form");
      await form.getByLabel(EN.add.start).fill(stayEnd);
      await form.getByLabel(EN.add.end).fill(addDays(stayEnd, 2));
      await form.getByLabel(EN.add.kind).selectOption("maintenance");
      await form.getByLabel(EN.add.note).fill("Chimney sweep");
      await form.getByLabel(EN.add.note).focus();
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      await expect.poll(() => toastText(page)).toContain("Nights blocked");
      const blockRow = entries.locator('[data-type="block"]');
      await expect.poll(() => blockRow.textContent()).toContain("Chimney sweep");
      expect(await dayLabel(page, stayEnd)).toContain("blocked (Maintenance)");

      // A block over the stay is refused, naming the stay.
      await form.getByLabel(EN.add.start).fill(addDays(stayStart, 1));
      await form.getByLabel(EN.add.end).fill(addDays(stayStart, 3));
      await form.getByRole("button", { name: EN.add.submit }).click();
      const collision = page.getByTestId("block-collision");
      await expect.poll(() => collision.textContent()).toContain(reference);
      expect(await collision.textContent()).toContain(EN.add.collisionTitle);
      expect(await blockRow.count()).toBe(1);
      await expectNoAxeViolations(page, "staff calendar, collision (en)");

      // Remove the block behind the confirmation.
      await blockRow.getByTestId("remove-block").click();
      const dialog = page.getByRole("dialog", { name: EN.remove.confirmTitle });
      await dialog.waitFor();
      await expectNoAxeViolations(page, "remove block dialog (en)");
      await dialog.getByRole("button", { name: EN.remove.confirm }).click();
      await expect.poll(() => blockRow.count()).toBe(0);
      expect(await dayLabel(page, stayEnd)).toContain(EN.day.free);

      // Staff block again, for the owner to find.
      await form.getByLabel(EN.add.start).fill(addDays(stayEnd, 3));
      await form.getByLabel(EN.add.end).fill(addDays(stayEnd, 5));
      await form.getByLabel(EN.add.kind).selectOption("private_event");
      await form.getByRole("button", { name: EN.add.submit }).click();
      await expect.poll(() => blockRow.count()).toBe(1);
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "staff set the estate's rates on its page, the public quote follows, and an earlier revision comes back",
    async () => {
      const page = await browser.newPage({ baseURL });
      await page.goto(`/admin/login?redirectTo=/admin/estates/${ESTATE.id}`);
      await page.locator('input[name="email"]').fill(ADMIN.email);
      await page.locator('input[name="password"]').fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/admin/estates/${ESTATE.id}`);
      const panel = page.getByTestId("rates-panel");
      // The demo catalogue's rates: the estate's starting price a night.
      const seedNightly = (ESTATE.content.startingPrice!.amount * 100) / 100;
      const nightly = panel.getByLabel(RATES.nightly, { exact: true }).first();
      await expect.poll(() => nightly.inputValue()).toBe(seedNightly.toFixed(2));

      await nightly.fill("1999.50");
      await panel.getByRole("button", { name: RATES.addSeason }).click();
      const season = panel.getByTestId("season").last();
      await season.getByLabel(RATES.seasonStart).fill(`${NEXT_YEAR}-05-01`);
      await season.getByLabel(RATES.seasonEnd).fill(`${NEXT_YEAR}-05-15`);
      await season.getByLabel(RATES.nightly).fill("2500");
      await season.getByLabel(RATES.seasonMinNights).fill("3");
      await panel.getByTestId("save-rates").click();
      await expect.poll(() => toastText(page)).toContain(RATES.saved);
      await expectNoAxeViolations(page, "staff estate page with its rates (en)");

      const quote = async (checkIn: string, checkOut: string) =>
        (await (
          await api(
            `/api/castles/${ESTATE.slug}/quote?checkIn=${checkIn}&checkOut=${checkOut}&guests=2`,
          )
        ).json()) as { lines: { code: string; unitAmount: number }[] };
      expect((await quote(`${NEXT_YEAR}-04-10`, `${NEXT_YEAR}-04-13`)).lines[0]?.unitAmount).toBe(
        199_950,
      );
      expect((await quote(`${NEXT_YEAR}-05-02`, `${NEXT_YEAR}-05-06`)).lines[0]?.unitAmount).toBe(
        250_000,
      );

      // The demo catalogue's revision comes back, as a new revision that says so.
      const first = panel.getByRole("listitem").filter({ hasText: "Revision 1 ·" });
      await first.getByRole("button", { name: RATES.putBack }).click();
      await expect.poll(() => toastText(page)).toContain("Revision 1 put back");
      await expect.poll(() => nightly.inputValue()).toBe(seedNightly.toFixed(2));
      expect(await panel.getByRole("listitem").first().textContent()).toContain(
        "puts back revision 1",
      );
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "the owner finds the stay and the staff's block on the Calendar tab, in Chinese, without the guest's name",
    async () => {
      // The owner proves the email on record and claims the estate (the code is in the outbox).
      const page = await browser.newPage({ baseURL, locale: "zh-CN" });
      await page.goto("/onboard/verify?lang=zh");
      const main = page.getByRole("main");
      await main.getByLabel(zhOwner.verify.emailLabel, { exact: true }).fill(ESTATE.email);
      await page.getByRole("button", { name: zhOwner.verify.submitEmail, exact: true }).click();
      await main.getByLabel(zhOwner.verify.codeLabel, { exact: true }).waitFor();
      await expect
        .poll(() => newestMailTo(ESTATE.email) ?? "", { timeout: 30_000 })
        .toMatch(/\d{6}/);
      const mail = newestMailTo(ESTATE.email)!;
      const code = /\b(\d{6})\b/.exec(
        mail
          .split(/\r?\n\r?\n/)
          .slice(1)
          .join("\n"),
      )?.[1];
      await main.getByLabel(zhOwner.verify.codeLabel, { exact: true }).fill(code ?? "");
      await page.getByRole("button", { name: zhOwner.verify.submitCode, exact: true }).click();
      await page.getByRole("button", { name: zhOwner.verify.submitClaim, exact: true }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/dashboard");

      await page.goto(`/admin/dashboard?lang=zh&tab=calendar&from=${stayStart}`);
      const tab = page.getByRole("tab", { name: ZH.tab });
      expect(await tab.getAttribute("aria-selected")).toBe("true");
      const entries = page.getByTestId("calendar-entries");
      const stayRow = entries.locator('[data-type="stay"]');
      await expect.poll(() => stayRow.textContent()).toContain(reference);
      const text = (await page.getByTestId("owner-calendar").textContent()) ?? "";
      expect(text).not.toContain(guest.lastName);
      expect(text).not.toContain(guest.email);
      expect(await stayRow.getByRole("link").count()).toBe(0);
      const staffBlock = entries.locator('[data-type="block"]');
      expect(await staffBlock.textContent()).toContain(ZH.entries.staffOnly);
      expect(await staffBlock.getByTestId("remove-block").count()).toBe(0);
      expect(await dayLabel(page, stayStart)).toContain(`已确认入住 ${reference}`);
      await expectNoAxeViolations(page, "owner calendar tab (zh)");

      // The owner blocks nights of their own stay at the castle, and may remove that block.
      const form = page.getByTestId("block-form");
      await form.getByLabel(ZH.add.start).fill(addDays(stayEnd, 10));
      await form.getByLabel(ZH.add.end).fill(addDays(stayEnd, 14));
      await form.getByRole("button", { name: ZH.add.submit }).click();
      await expect.poll(() => staffBlock.count()).toBe(2);
      // The block lies over a pending request: kept, and the form names it, not its guest.
      const pending = page.getByTestId("block-pending");
      await expect.poll(() => pending.textContent()).toContain(pendingReference);
      expect(await pending.textContent()).toContain(ZH.add.pendingTitle);
      expect(await pending.textContent()).not.toContain(pendingGuest.lastName);
      expect(await entries.getByTestId("remove-block").count()).toBe(1);

      // Keyboard: Home and End reach the first and the last tab, and the address follows.
      await page.getByRole("tab", { name: ZH.tab }).focus();
      await page.keyboard.press("Home");
      await expect.poll(() => new URL(page.url()).searchParams.get("tab")).toBe(TAB_IDS[0]);
      await page.keyboard.press("End");
      await expect.poll(() => new URL(page.url()).searchParams.get("tab")).toBe(TAB_IDS.at(-1));
      // ArrowLeft from the last tab comes back to the one before it.
      await page.keyboard.press("ArrowLeft");
      await expect.poll(() => new URL(page.url()).searchParams.get("tab")).toBe(TAB_IDS.at(-2));

      // The Rates tab: the owner changes the minimum stay; staff see the revision as theirs.
      await page.goto("/admin/dashboard?lang=zh&tab=rates");
      const rates = page.getByTestId("rates-panel");
      const minNights = rates.getByLabel(zhOwner.rates.minNights, { exact: true });
      await expect.poll(() => minNights.inputValue()).toBe("2");
      await minNights.fill("3");
      await rates.getByTestId("save-rates").click();
      await expect.poll(() => toastText(page)).toContain(zhOwner.rates.saved);
      await expectNoAxeViolations(page, "owner rates tab (zh)");
      const seen = (await (
        await api(`/api/admin/estates/${ESTATE.id}/rates`, { cookie: staffCookie })
      ).json()) as { rates: { minNights: number }; revisions: { actorRole: string }[] };
      expect(seen.rates.minNights).toBe(3);
      expect(seen.revisions[0]?.actorRole).toBe("owner");
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "staff learn which pending request their block lies over, with its guest",
    async () => {
      const blocked = await bookPending(
        staffCookie,
        { firstName: "Bartholomew", lastName: "Quist", email: "bq@example.org" },
        addDays(stayStart, 30),
        addDays(stayStart, 33),
      );
      const page = await browser.newPage({ baseURL });
      await page.goto(`/admin/login?redirectTo=/admin/estates/${ESTATE.id}/calendar`);
      await page.locator('input[name="email"]').fill(ADMIN.email);
      await page.locator('input[name="password"]').fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect
        .poll(() => new URL(page.url()).pathname)
        .toBe(`/admin/estates/${ESTATE.id}/calendar`);

      // A block over the request is kept, and the form names the request and its guest.
      await page.goto(`/admin/estates/${ESTATE.id}/calendar?from=${addDays(stayStart, 28)}`);
      const form = page.getByTestId("block-form");
      // Dates typed before the page hydrates would be lost: the button is enabled once it has.
      await expect.poll(() => form.getByTestId("add-block").isEnabled()).toBe(true);
      await expect
        .poll(() => page.getByTestId("calendar-entries").textContent())
        .toContain(blocked.reference);
      await form.getByLabel(EN.add.start).fill(addDays(stayStart, 32));
      await form.getByLabel(EN.add.end).fill(addDays(stayStart, 35));
      await form.getByRole("button", { name: EN.add.submit }).click();
      const pending = page.getByTestId("block-pending");
      await expect.poll(() => pending.textContent()).toContain(blocked.reference);
      expect(await pending.textContent()).toContain("Bartholomew Quist");
      expect(await pending.textContent()).toContain(EN.add.pendingTitle);
      await expect
        .poll(() => page.getByTestId("calendar-entries").locator('[data-type="block"]').count())
        .toBeGreaterThan(0);
      await expectNoAxeViolations(page, "staff calendar, block over a pending request (en)");
    },
    JOURNEY_TIMEOUT_MS,
  );
});
