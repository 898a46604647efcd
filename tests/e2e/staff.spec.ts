import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { decodeMail } from "../setup/mail-text.ts";
import {
  solveBotCheck,
  validBookingRequest,
  validMembership,
  validPropertyBooking,
} from "../setup/intake.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { E2E_ACCOUNTS, E2E_STAFF_PASSWORD } from "./global-setup.ts";
import { sharedServer } from "./harness.ts";

const SHARED = sharedServer();
const BASE_URL = SHARED.baseURL;
const MAIL_DIR = SHARED.mailDir;
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
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
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

    await page.goto(SHARED.setupUrl);
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

    // The staff header, and the requests of the three forms.
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

    // Details: the request's cards and the history.
    await table.getByRole("link", { name: "View Details" }).click();
    const details = page.getByTestId("request-details");
    await details.waitFor();
    // The details are a route of their own over the inbox, which keeps its filters.
    expect(new URL(page.url()).pathname).toBe(
      `/admin/booking-requests/booking-requests/${sent.french!.id}`,
    );
    expect(new URL(page.url()).searchParams.get("q")).toBe("dubois@example");
    // Check-in and check-out are rows of their own, as 'MMM dd, yyyy'.
    for (const field of ["checkInDate", "checkOutDate"])
      expect(await details.locator(`[data-field="${field}"] dd`).textContent()).toMatch(
        /^[A-Z][a-z]{2} \d{2}, \d{4}$/,
      );
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
    expect(new URL(page.url()).pathname).toBe("/admin/booking-requests");
    expect(new URL(page.url()).searchParams.get("q")).toBe("dubois@example");

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
          timeout: 30_000,
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
      expect(await page.getByRole("button", { name: "Sign in", exact: true }).count()).toBe(0);
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
    // The select is enabled once the page has hydrated and its key handlers listen.
    await expect.poll(() => select.isEnabled()).toBe(true);
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
    // An application's toast speaks of an application, not of a booking request.
    expect(await toastText(page)).toContain("Membership application status has been updated");
    await expect.poll(() => page.getByTestId("inbox-table").textContent()).toContain("Contacted");
    // Focus returns to the control that opened the dialog.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")))
      .toBe("status-select");

    // The details open with Enter on their button and close with Escape, focus coming back.
    const details = page.getByTestId("inbox-table").getByRole("link", { name: "View Details" });
    await details.first().focus();
    await page.keyboard.press("Enter");
    await page.getByTestId("request-details").waitFor();
    await page.keyboard.press("Escape");
    await page.getByTestId("request-details").waitFor({ state: "detached" });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ""))
      .toMatch(/^View Details/);
  });

  describe("who may enter (enforced on the server)", () => {
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
      // No welcome for a sign-in that does not open the staff area.
      expect(await toastText(page)).not.toContain("Login successful");
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

    it("tells staff who are not admins why they cannot enter, without a welcome", async () => {
      const page = await browser.newPage();
      await page.goto("/admin/login");
      await signInThroughPage(page, E2E_ACCOUNTS.clerk, E2E_STAFF_PASSWORD);
      await expect
        .poll(() => page.getByTestId("login-refused").textContent())
        .toContain("It is not an administrator account");
      expect(new URL(page.url()).pathname).toBe("/admin/login");
      expect(await toastText(page)).not.toContain("Login successful");
      // Sent back from a staff page, the sign-in page says why, too.
      await page.goto("/admin/mail");
      await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/login");
      await page.getByTestId("login-refused").waitFor();
      await expectNoAxeViolations(page, "login refused");
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

  describe("the inbox's layout", () => {
    const longEmail =
      "henrietta.montgomery-ashworth.of.the.northern.estates.very.long.address@example-heritage-holdings.co.uk";

    // One signed-in page for these journeys (sign-in is rate-limited per account), in an
    // American browser: the Chinese page must not take the browser's date format.
    let shared: Page | undefined;
    async function signedInPage(viewport: { width: number; height: number }): Promise<Page> {
      if (!shared) {
        shared = await browser.newPage({ viewport, locale: "en-US" });
        const answer = await shared.request.post("/api/admin/login", {
          data: ADMIN,
          headers: { Origin: BASE_URL },
        });
        expect(answer.status()).toBe(200);
      }
      await shared.setViewportSize(viewport);
      return shared;
    }

    /** Columns whose header is cut off or covered by another element, and the page's overflow. */
    async function layoutProblems(page: Page) {
      return page.evaluate(() => {
        const problems: string[] = [];
        const root = document.documentElement;
        if (root.scrollWidth > window.innerWidth)
          problems.push(`page ${root.scrollWidth} > ${window.innerWidth}`);
        const table = document.querySelector<HTMLElement>('[data-testid="inbox-table"]')!;
        const frame = table.parentElement!;
        if (frame.scrollWidth > frame.clientWidth + 1)
          problems.push(`table ${frame.scrollWidth} > ${frame.clientWidth}`);
        for (const th of table.querySelectorAll<HTMLElement>("thead th")) {
          const box = th.getBoundingClientRect();
          const label = th.textContent ?? "";
          if (box.right > window.innerWidth) problems.push(`${label}: off screen`);
          if (th.scrollWidth > th.clientWidth + 1) problems.push(`${label}: cut off`);
          const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          if (hit && !th.contains(hit)) problems.push(`${label}: covered`);
        }
        return problems;
      });
    }

    it("shows every column at 1280 px and wider, in English and Chinese, with a long email", async () => {
      await submitAsGuest(
        "/booking-requests",
        validBookingRequest({ email: longEmail, firstName: "Henrietta", lastName: "Ashworth" }),
        "en",
      );
      for (const width of [1280, 1440])
        for (const language of ["en", "zh"]) {
          const page = await signedInPage({ width, height: 900 });
          await page.goto(`/admin/booking-requests?lang=${language}`);
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.getByTestId("inbox-table").waitFor();
          expect(await page.getByTestId("inbox-table").textContent()).toContain(longEmail);
          // Each open request's due time, under its arrival, without a column more.
          expect(await page.getByTestId("due-line").first().isVisible()).toBe(true);
          expect(await layoutProblems(page), `${language} at ${width} px`).toEqual([]);
          if (process.env.E2E_SCREENSHOTS)
            await page.screenshot({
              path: `${process.env.E2E_SCREENSHOTS}/inbox-${language}-${width}.png`,
            });
        }
    });

    it("keeps each request's status and actions in view below 1280 px", async () => {
      for (const [width, language] of [
        [1024, "en"],
        [390, "en"],
        [390, "zh"],
      ] as const) {
        const page = await signedInPage({ width, height: 900 });
        await page.goto(`/admin/booking-requests?lang=${language}`);
        await page.getByTestId("inbox-table").waitFor();
        // The due time stays in view on a phone too.
        expect(await page.getByTestId("due-line").first().isVisible()).toBe(true);
        if (process.env.E2E_SCREENSHOTS && width === 390)
          await page.screenshot({
            path: `${process.env.E2E_SCREENSHOTS}/inbox-${language}-${width}.png`,
            fullPage: true,
          });
        const problems = await page.evaluate(() => {
          const found: string[] = [];
          if (document.documentElement.scrollWidth > window.innerWidth)
            found.push(`page ${document.documentElement.scrollWidth} > ${window.innerWidth}`);
          for (const row of document.querySelectorAll('[data-testid="inbox-table"] tbody tr')) {
            for (const testId of ["status-select", "view-details"]) {
              const box = row.querySelector(`[data-testid="${testId}"]`)?.getBoundingClientRect();
              if (!box || box.width === 0 || box.left < 0 || box.right > window.innerWidth)
                found.push(`${row.getAttribute("data-reference")}: ${testId}`);
            }
          }
          return found;
        });
        expect(problems, `${language} at ${width} px`).toEqual([]);
        if (width === 390) await expectNoAxeViolations(page, `inbox (phone, ${language})`);
      }
    });

    it("opens on the counts and the requests, not on the chart (1440 x 900)", async () => {
      const page = await signedInPage({ width: 1440, height: 900 });
      await page.goto("/admin/booking-requests?lang=en");
      await page.getByTestId("inbox-table").waitFor();
      const tops = await page.evaluate(() => ({
        counts: document.querySelector('[data-testid="status-counts"]')!.getBoundingClientRect()
          .top,
        firstRow: document
          .querySelector('[data-testid="inbox-table"] tbody tr')!
          .getBoundingClientRect().bottom,
        height: window.innerHeight,
      }));
      expect(tops.counts).toBeLessThan(tops.height);
      expect(tops.firstRow).toBeLessThan(tops.height);
    });

    it("closes the details with one Escape after a status change showed a toast", async () => {
      const page = await signedInPage({ width: 1280, height: 900 });
      await page.goto("/admin/booking-requests?kind=property_booking&lang=en");
      await page
        .getByTestId("inbox-table")
        .getByRole("link", { name: "View Details" })
        .first()
        .click();
      const details = page.getByTestId("request-details");
      await details.waitFor();
      const current = await details.getByTestId("status-select").inputValue();
      const next = current === "Contacted" ? "In progress" : "Contacted";
      await details.getByTestId("status-select").selectOption(next);
      const change = page.getByRole("dialog").filter({ hasText: "Change status" }).last();
      await change.getByRole("button", { name: "Change status" }).click();
      await expect.poll(() => toastText(page)).toContain("Property booking status");
      await change.waitFor({ state: "detached" });
      await expect.poll(() => details.getByTestId("status-history").textContent()).toContain(next);
      await page.keyboard.press("Escape");
      await details.waitFor({ state: "detached" });
      expect(new URL(page.url()).pathname).toBe("/admin/booking-requests");
      expect(new URL(page.url()).searchParams.get("kind")).toBe("property_booking");
    });

    it("takes and shows filter dates in the page's language, not the browser's", async () => {
      // An American browser on the Chinese staff pages.
      const page = await signedInPage({ width: 1280, height: 900 });
      await page.goto("/admin/booking-requests?lang=zh");
      const from = page.getByTestId("filter-from");
      await from.waitFor();
      expect(await page.locator('form[role="search"] input[type="date"]').count()).toBe(0);
      expect(await from.getAttribute("placeholder")).toBe("年/月/日");
      await from.fill("2026/12/01");
      await from.press("Enter");
      await expect.poll(() => new URL(page.url()).searchParams.get("from")).toBe("2026/12/01");
      await expect.poll(() => page.getByTestId("filter-from").inputValue()).toBe("2026/12/01");
      expect(await page.getByRole("alert").count()).toBe(0);
      // The same filter in French is written day first.
      await page.goto("/admin/booking-requests?lang=fr&from=2026-12-01");
      await expect.poll(() => page.getByTestId("filter-from").inputValue()).toBe("01/12/2026");
      expect(await page.getByTestId("filter-from").getAttribute("placeholder")).toBe("jj/mm/aaaa");
    });
  });
});
