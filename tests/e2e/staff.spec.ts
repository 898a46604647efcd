import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { decodeMail } from "../setup/mail-text.ts";
import {
  solveBotCheck,
  validBookingRequest,
  validMembership,
  validPropertyBooking,
} from "../setup/intake.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { E2E_ACCOUNTS, E2E_STAFF_PASSWORD } from "./global-setup.ts";

const BASE_URL = inject("baseURL");
const MAIL_DIR = inject("mailDir");
const ADMIN = { email: "first.admin@castellum.example", password: "portcullis-morning-fog-19" };

/** The mails received so far (over SMTP) for `address`, decoded. */
function mailsTo(address: string): string[] {
  return readdirSync(MAIL_DIR)
    .filter((file) => file.endsWith(".eml"))
    .map((file) => decodeMail(readFileSync(join(MAIL_DIR, file), "utf8")))
    .filter((text) => new RegExp(`^To: .*${address.replace(/[.]/g, "\\.")}`, "mi").test(text));
}

/** Sends a guest form to the API as the public page does, in the guest's language. */
async function submitAsGuest(path: string, form: Record<string, unknown>, language: string) {
  const token = await solveBotCheck(BASE_URL);
  const response = await fetch(`${BASE_URL}/api${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Accept-Language": language },
    body: JSON.stringify({ ...form, turnstileToken: token }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { id: string; reference: string };
}

async function signInThroughPage(page: Page, email: string, password: string) {
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function toastText(page: Page): Promise<string> {
  const toasts = page.getByTestId("toast");
  return (await toasts.count()) > 0 ? ((await toasts.first().textContent()) ?? "") : "";
}

const guests = {
  french: { email: "camille.dubois@example.fr", firstName: "Camille", lastName: "Dubois" },
  property: { email: "ingrid.berg@example.se" },
  member: { email: "lorenzo.ricci@example.it" },
};
const sent: Record<string, { id: string; reference: string }> = {};

describe("the staff area", () => {
  const browser = useBrowser();

  beforeAll(async () => {
    sent.french = await submitAsGuest(
      "/booking-requests",
      validBookingRequest({ ...guests.french, phoneNumber: "+33 6 98 76 54 32" }),
      "fr",
    );
    sent.property = await submitAsGuest("/bookings", validPropertyBooking(guests.property), "en");
    sent.member = await submitAsGuest("/membership/apply", validMembership(guests.member), "it");
  });

  it("sends a newcomer from the setup link to the inbox, where a French request is rejected with a reason and the guest is mailed in French", async () => {
    const page = await browser.newPage();
    // Signed out, the inbox sends to sign-in with the way back.
    await page.goto("/admin/booking-requests?status=New");
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/login");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe(
      "/admin/booking-requests?status=New",
    );

    await page.goto(inject("setupUrl"));
    await page.getByRole("heading", { name: "Create the first admin" }).waitFor();
    await expectNoAxeViolations(page, "setup");
    await page.locator('input[name="displayName"]').fill("Margaret Hale");
    await page.locator('input[name="email"]').fill(ADMIN.email);
    await page.locator('input[name="password"]').fill("short");
    await page.getByRole("button", { name: "Create the admin account" }).click();
    await expect
      .poll(() => page.locator("form").textContent())
      .toContain("The password must be at least 12 characters long.");
    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.getByRole("button", { name: "Create the admin account" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/booking-requests");

    // The header of spec point 2, and the requests of the three forms.
    await page.getByRole("heading", { name: "Booking Requests Management" }).waitFor();
    expect(await page.getByText("Admin Dashboard").count()).toBeGreaterThan(0);
    expect(await page.getByTestId("staff-email").textContent()).toContain(ADMIN.email);
    const table = page.getByTestId("inbox-table");
    await expect
      .poll(() => table.locator(`[data-reference="${sent.french!.reference}"]`).count())
      .toBe(1);
    await page.getByRole("link", { name: /Property bookings/ }).click();
    await expect.poll(() => table.textContent()).toContain(guests.property.email);
    await page.getByRole("link", { name: /Membership applications/ }).click();
    await expect.poll(() => table.textContent()).toContain(guests.member.email);
    await page
      .getByRole("link", { name: /Booking requests/ })
      .first()
      .click();
    await expect.poll(() => table.textContent()).toContain(guests.french.email);

    // Filter and search: the state lives in the URL.
    await page.locator('select[name="status"]').selectOption("New");
    await page.locator('input[name="q"]').fill("dubois@example");
    await page.locator('input[name="q"]').press("Enter");
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("dubois@example");
    expect(new URL(page.url()).searchParams.get("status")).toBe("New");
    await expect.poll(() => table.locator("tbody tr").count()).toBe(1);
    await expectNoAxeViolations(page, "inbox (en)");

    // Details: the cards of spec point 2 and the history.
    await table.getByRole("button", { name: "View Details" }).click();
    const details = page.getByTestId("request-details");
    await details.waitFor();
    for (const card of [
      "Personal Information",
      "Booking Details",
      "Preferences",
      "Additional Information",
    ])
      await details.getByRole("heading", { name: card }).waitFor();
    expect(await details.getByTestId("status-history").textContent()).toContain("New");
    await expectNoAxeViolations(page, "details dialog");
    await page.keyboard.press("Escape");
    await details.waitFor({ state: "detached" });

    // Reject with a reason, shared with the guest, who is told by mail.
    await table.getByTestId("status-select").selectOption("Rejected");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Change status" }).click();
    await expect
      .poll(() => dialog.textContent())
      .toContain("Please give a reason for this decision");
    await dialog.locator("textarea").fill("Le château est réservé pour un mariage ces jours-là.");
    await dialog.getByLabel("Share the reason with the guest").check();
    expect(await dialog.getByLabel("Notify the guest by email").isChecked()).toBe(true);
    await dialog.getByRole("button", { name: "Change status" }).click();
    await expect.poll(() => toastText(page)).toContain("Status Updated");
    // The view shows New requests only: the rejected one leaves it, and is under Rejected.
    await page.getByTestId("inbox-empty").waitFor();
    await page.goto("/admin/booking-requests?status=Rejected");
    expect(
      await table.locator(`[data-reference="${sent.french!.reference}"]`).textContent(),
    ).toContain("Rejected");

    await expect
      .poll(
        () => mailsTo(guests.french.email).find((text) => text.includes("réservé pour un mariage")),
        {
          timeout: 15_000,
        },
      )
      .toBeTruthy();
    const notice = mailsTo(guests.french.email).find((text) =>
      text.includes("réservé pour un mariage"),
    )!;
    expect(notice).toContain(sent.french!.reference);
    expect(notice).toMatch(/Refusée/i);

    // The guest's status page, from the confirmation mail's link, shows it too.
    const confirmation = mailsTo(guests.french.email).find((text) =>
      /\/requests\/[\w-]{32}/.test(text),
    )!;
    const statusPath = confirmation.match(/\/requests\/[\w-]{32}\?lang=fr/)![0];
    const guestPage = await browser.newPage({ locale: "fr-FR" });
    await guestPage.goto(statusPath);
    await expect.poll(() => guestPage.getByTestId("request-status").textContent()).toBe("Refusée");
    expect(await guestPage.getByTestId("request-reason").textContent()).toContain(
      "réservé pour un mariage",
    );

    // Logout ends the session.
    await page.getByTestId("logout").first().click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/login");
    await page.goto("/admin/booking-requests");
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/login");
  });

  it("is usable in French, Italian and Chinese with no axe violations", async () => {
    const page = await browser.newPage();
    for (const language of ["fr", "it", "zh"]) {
      await page.goto(`/admin/login?lang=${language}`);
      expect(await page.locator("html").getAttribute("lang")).toMatch(new RegExp(`^${language}`));
      expect(await page.getByRole("button", { name: "Sign in" }).count()).toBe(0);
      await expectNoAxeViolations(page, `login (${language})`);
    }
    // Sign in through the API in this browser context, then visit the pages in each language.
    const answer = await page.request.post("/api/admin/login", {
      data: ADMIN,
      headers: { Origin: BASE_URL },
    });
    expect(answer.status()).toBe(200);
    for (const language of ["fr", "it", "zh"]) {
      await page.goto(`/admin/booking-requests?lang=${language}`);
      await page.getByTestId("inbox-table").waitFor();
      const english = await page.getByText("Booking Requests Management").count();
      expect(english, `untranslated heading in ${language}`).toBe(0);
      await expectNoAxeViolations(page, `inbox (${language})`);
      await page.goto(`/admin/mail?lang=${language}`);
      await page.getByTestId("mail-counts").waitFor();
      await expectNoAxeViolations(page, `mail (${language})`);
    }
  });

  it("works from the keyboard alone: a status change through the row's select and the dialog", async () => {
    const page = await browser.newPage();
    const answer = await page.request.post("/api/admin/login", {
      data: ADMIN,
      headers: { Origin: BASE_URL },
    });
    expect(answer.status()).toBe(200);
    await page.goto("/admin/booking-requests?kind=membership&lang=en");
    const select = page.getByTestId("status-select").first();
    await select.waitFor();
    await select.focus();
    // Arrow keys on a closed select choose the next status; Enter opens the change dialog.
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Contacted");
    // Tab through the dialog to its confirm button and press it.
    for (let i = 0; i < 10; i++) {
      const focused = await page.evaluate(() => document.activeElement?.textContent ?? "");
      if (focused.includes("Change status")) break;
      await page.keyboard.press("Tab");
    }
    await page.keyboard.press("Enter");
    await expect.poll(() => toastText(page)).toContain("Status Updated");
    await expect.poll(() => page.getByTestId("inbox-table").textContent()).toContain("Contacted");
    // Focus returns to the control that opened the dialog.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")))
      .toBe("status-select");

    // The details open with Enter on their button and close with Escape, focus coming back.
    const details = page.getByTestId("inbox-table").getByRole("button", { name: "View Details" });
    await details.first().focus();
    await page.keyboard.press("Enter");
    await page.getByTestId("request-details").waitFor();
    await page.keyboard.press("Escape");
    await page.getByTestId("request-details").waitFor({ state: "detached" });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ""))
      .toMatch(/^View Details/);
  });

  describe("who may enter (spec point 6, enforced on the server)", () => {
    const pages = [
      "/admin/booking-requests",
      "/admin/booking-requests?kind=membership",
      "/admin/mail",
    ];

    it("sends staff who are not admins back to sign-in", async () => {
      const page = await browser.newPage();
      const answer = await page.request.post("/api/admin/login", {
        data: { email: E2E_ACCOUNTS.clerk, password: E2E_STAFF_PASSWORD },
        headers: { Origin: BASE_URL },
      });
      expect(answer.status()).toBe(200);
      for (const path of pages) {
        const response = await page.goto(path);
        expect(new URL(page.url()).pathname, path).toBe("/admin/login");
        expect(await response?.text()).not.toContain(guests.french.email);
      }
    });

    it("shows an admin of another domain 'Access Denied' with their email, and no data", async () => {
      const page = await browser.newPage();
      await page.goto("/admin/login");
      await signInThroughPage(page, E2E_ACCOUNTS.outsider, E2E_STAFF_PASSWORD);
      await page.getByTestId("access-denied").waitFor();
      for (const path of pages) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(403);
        await page.getByRole("heading", { name: "Access Denied" }).waitFor();
        expect(await page.getByTestId("access-denied").textContent()).toContain(
          "Only company-domain email addresses are authorized to access admin features.",
        );
        expect(await page.getByTestId("staff-email").textContent()).toBe(E2E_ACCOUNTS.outsider);
        expect(await response?.text()).not.toContain(guests.french.email);
      }
      await expectNoAxeViolations(page, "access denied");
    });

    it("does not let a disabled admin sign in, with the one generic message", async () => {
      const page = await browser.newPage();
      await page.goto("/admin/login");
      await signInThroughPage(page, E2E_ACCOUNTS.disabled, E2E_STAFF_PASSWORD);
      await expect
        .poll(() => page.getByTestId("login-error").textContent())
        .toContain("Invalid email or password.");
      await expectNoAxeViolations(page, "login error");
    });
  });
});
