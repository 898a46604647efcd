import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "#domain/calendar/nights.ts";
import { utcToday } from "#domain/requests/dates.ts";
import enOwner from "#i18n/locales/en/owner.json" with { type: "json" };
import itOwner from "#i18n/locales/it/owner.json" with { type: "json" };
import enStaff from "#i18n/locales/en/staff.json" with { type: "json" };
import { demoEstate } from "../factories/demo-estates.ts";
import { decodeMail } from "../setup/mail-text.ts";
import { solveBotCheck, validBookingRequest, validPropertyBooking } from "../setup/intake.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { E2E_ADMIN_DOMAIN } from "./global-setup.ts";
import { dataTemplate } from "./harness.ts";
import { claimEstateByMail } from "./owner-claim.ts";
import { copyDataDir, createStaffAccounts, type RunningServer, startServer } from "./server.ts";

/**
 * The owner in the loop, on a server of its own: an owner who claimed an
 * estate in Italian gets an Italian mail for a new request with a link to the Requests tab,
 * sees the estate's requests there (first name and country, never contact details), agrees
 * with a note; staff see that view in the inbox row, above the details and in the history.
 * Screenshots of the tab in English and Italian, at 1280 px and phone width, go to
 * SHOTS_DIR (default /tmp/shots-owner).
 */
const ESTATE = demoEstate("gordon-castle");
const ADMIN = { email: `loop@${E2E_ADMIN_DOMAIN}`, password: "drawbridge-autumn-oak-17" };
const SESSION_COOKIE = "__Host-castellum_session";
const EN = enOwner.ownerRequests;
const IT = itOwner.ownerRequests;
const STAFF = enStaff.ownerView;
const JOURNEY_TIMEOUT_MS = 240_000;
const SHOTS_DIR = process.env.SHOTS_DIR ?? "/tmp/shots-owner";

let dataDir = "";
let server: RunningServer | undefined;
let baseURL = "";
let adminCookie = "";
const guest = {
  firstName: "Ottilie",
  lastName: "Marchbanks",
  email: "ottilie@example.org",
  phone: "+44 1343 555 0101",
};
const booking = { id: "", reference: "" };
const second = { id: "", reference: "" };
const general = { id: "", reference: "" };

function cookieOf(response: Response, name: string): string {
  const header = response.headers.getSetCookie().find((value) => value.startsWith(`${name}=`));
  if (!header) throw new Error(`no ${name} cookie`);
  return header.split(";")[0]!;
}

async function api(path: string, init: { method?: string; cookie?: string; body?: unknown } = {}) {
  return fetch(`${baseURL}${path}`, {
    method: init.method ?? "GET",
    headers: {
      "Content-Type": "application/json",
      Origin: baseURL,
      ...(init.cookie ? { Cookie: init.cookie } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/** Every mail filed for `address` in the outbox directory (no SMTP here), decoded, oldest first. */
function mailsTo(address: string): string[] {
  const mailDir = join(dataDir, "mail");
  if (!existsSync(mailDir)) return [];
  return readdirSync(mailDir)
    .filter((file) => file.endsWith(".eml"))
    .sort()
    .map((file) => decodeMail(readFileSync(join(mailDir, file), "utf8")))
    .filter((text) => text.toLowerCase().includes(`to: ${address.toLowerCase()}`));
}

async function submit(path: string, form: Record<string, unknown>) {
  const answer = await api(path, {
    method: "POST",
    body: { ...form, turnstileToken: await solveBotCheck(baseURL) },
  });
  expect(answer.status, await answer.clone().text()).toBe(201);
  return (await answer.json()) as { id: string; reference: string };
}

/** The owner's claim through the pages, in Italian: the code is read from the outbox. */
function claimInItalian(page: Page, start = "/onboard/verify?lang=it") {
  return claimEstateByMail(page, { email: ESTATE.email, mailsTo, texts: itOwner.verify, start });
}

describe("the owner in the loop", () => {
  const browser = useBrowser();

  beforeAll(async () => {
    dataDir = copyDataDir("owner-requests", dataTemplate("seeded"));
    await createStaffAccounts(dataDir, [{ ...ADMIN, isAdmin: true, displayName: "Owner desk" }]);
    server = await startServer({ DATA_DIR: dataDir, ADMIN_EMAIL_DOMAIN: E2E_ADMIN_DOMAIN });
    baseURL = server.baseURL;
    const login = await api("/api/admin/login", { method: "POST", body: ADMIN });
    expect(login.status).toBe(200);
    adminCookie = cookieOf(login, SESSION_COOKIE);
    mkdirSync(SHOTS_DIR, { recursive: true });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    "the owner is mailed in Italian, sees the requests without contact details and gives a view that staff see",
    async () => {
      // Signed out, the dashboard's Requests tab (as a mail links it) asks for the code first,
      // then opens that tab.
      const ownerPage = await browser.newPage({ baseURL, locale: "it-IT" });
      await claimInItalian(ownerPage, "/admin/dashboard?tab=requests&lang=it");
      expect(new URL(ownerPage.url()).searchParams.get("tab")).toBe("requests");
      await expect
        .poll(() => ownerPage.getByRole("tab", { name: IT.tab }).getAttribute("aria-selected"))
        .toBe("true");

      // Two guests book the estate; a general request is assigned to it by staff.
      const start = addDays(utcToday(), 75);
      Object.assign(
        booking,
        await submit(
          "/api/bookings",
          validPropertyBooking({
            ...guest,
            propertyId: ESTATE.id,
            dateMode: "exact",
            startDate: start,
            endDate: addDays(start, 4),
            numberOfGuests: 5,
          }),
        ),
      );
      Object.assign(
        second,
        await submit(
          "/api/bookings",
          validPropertyBooking({
            propertyId: ESTATE.id,
            dateMode: "exact",
            startDate: addDays(start, 20),
            endDate: addDays(start, 23),
            numberOfGuests: 2,
          }),
        ),
      );
      Object.assign(
        general,
        await submit(
          "/api/booking-requests",
          validBookingRequest({
            checkInDate: addDays(start, 40),
            checkOutDate: addDays(start, 47),
          }),
        ),
      );
      const assigned = await api(`/api/booking-requests/${general.id}/stay`, {
        method: "PUT",
        cookie: adminCookie,
        body: { propertyId: ESTATE.id, start: addDays(start, 40), end: addDays(start, 47) },
      });
      expect(assigned.status, await assigned.clone().text()).toBe(200);

      // The owner's mail: Italian, the dashboard's Requests tab, no contact of the guest.
      await expect
        .poll(() => mailsTo(ESTATE.email).filter((mail) => mail.includes(booking.reference)), {
          timeout: 30_000,
        })
        .toHaveLength(1);
      const mail = mailsTo(ESTATE.email).find((each) => each.includes(booking.reference))!;
      expect(mail).toContain("Un ospite desidera soggiornare");
      expect(mail).toContain(guest.firstName);
      for (const hidden of [guest.email, guest.phone, guest.lastName])
        expect(mail).not.toContain(hidden);
      const link = /https?:\/\/\S+\/admin\/dashboard\?\S+/.exec(mail)?.[0];
      expect(link).toContain("tab=requests");
      await expect
        .poll(() => mailsTo(ESTATE.email).some((each) => each.includes(general.reference)), {
          timeout: 30_000,
        })
        .toBe(true);

      // The link opens the Requests tab in Italian.
      const fromMail = new URL(link!).pathname + new URL(link!).search;
      await ownerPage.goto(fromMail);
      const tab = ownerPage.getByRole("tab", { name: IT.tab });
      expect(await tab.getAttribute("aria-selected")).toBe("true");
      const rows = ownerPage.getByTestId("owner-request");
      await expect.poll(() => rows.count()).toBe(3);
      const text = (await ownerPage.getByTestId("owner-requests").textContent()) ?? "";
      expect(text).toContain(guest.firstName);
      expect(text).toContain("Regno Unito");
      for (const hidden of [guest.email, guest.phone, guest.lastName, "ada@example.com"])
        expect(text).not.toContain(hidden);
      expect(
        await rows
          .filter({ hasText: booking.reference })
          .locator("[data-nights]")
          .getAttribute("data-nights"),
      ).toBe("free");
      await expectNoAxeViolations(ownerPage, "owner requests tab (it)");

      // The owner agrees with a note, in English this time.
      await ownerPage.goto("/admin/dashboard?lang=en&tab=requests");
      const row = ownerPage.getByTestId("owner-request").filter({ hasText: booking.reference });
      await row.getByLabel(EN.view.noteLabel).fill("Happy to host them; the east wing is ready.");
      await row.getByRole("button", { name: EN.view.agree, exact: true }).click();
      await expect
        .poll(() => row.getByTestId("owner-view-given").getAttribute("data-agree"))
        .toBe("true");
      expect(await row.textContent()).toContain("the east wing is ready");
      // And declines the second, without a note.
      const secondRow = ownerPage
        .getByTestId("owner-request")
        .filter({ hasText: second.reference });
      await secondRow.getByRole("button", { name: EN.view.decline, exact: true }).click();
      await expect
        .poll(() => secondRow.getByTestId("owner-view-given").getAttribute("data-agree"))
        .toBe("false");
      await expectNoAxeViolations(ownerPage, "owner requests tab (en), views given");

      // Screenshots: English and Italian, at 1280 px and phone width.
      for (const language of ["en", "it"] as const)
        for (const [label, viewport] of [
          ["1280", { width: 1280, height: 900 }],
          ["phone", { width: 390, height: 844 }],
        ] as const) {
          await ownerPage.setViewportSize(viewport);
          await ownerPage.goto(`/admin/dashboard?lang=${language}&tab=requests`);
          await expect.poll(() => ownerPage.getByTestId("owner-request").count()).toBe(3);
          await ownerPage
            .getByTestId("owner-requests")
            .screenshot({ path: join(SHOTS_DIR, `owner-requests-${language}-${label}.png`) });
        }
      await ownerPage.setViewportSize({ width: 1280, height: 900 });

      // Staff: the marker in the inbox row, the view above the details and in the history.
      const staffPage = await browser.newPage({ baseURL });
      const signedIn = await staffPage.request.post("/api/admin/login", {
        data: ADMIN,
        headers: { Origin: baseURL },
      });
      expect(signedIn.status()).toBe(200);
      await staffPage.goto("/admin/booking-requests?kind=property_booking&lang=en");
      const marker = staffPage
        .getByRole("row")
        .filter({ hasText: booking.reference })
        .getByTestId("owner-view-marker");
      await expect.poll(() => marker.textContent()).toBe(STAFF.agrees);
      const declined = staffPage
        .getByRole("row")
        .filter({ hasText: second.reference })
        .getByTestId("owner-view-marker");
      await expect.poll(() => declined.textContent()).toBe(STAFF.declines);
      await expectNoAxeViolations(staffPage, "inbox with owner views");
      await staffPage.goto(
        `/admin/booking-requests/bookings/${booking.id}?kind=property_booking&lang=en`,
      );
      const panel = staffPage.getByTestId("owner-view-panel");
      await expect.poll(() => panel.textContent()).toContain(STAFF.agreed);
      expect(await panel.textContent()).toContain("the east wing is ready");
      expect(await staffPage.getByTestId("owner-view-entry").textContent()).toContain(
        STAFF.historyAgreed,
      );
      await expectNoAxeViolations(staffPage, "request details with the owner's view");
      await staffPage.screenshot({
        path: join(SHOTS_DIR, "staff-details-owner-view-en-1280.png"),
        fullPage: true,
      });
    },
    JOURNEY_TIMEOUT_MS,
  );
});
