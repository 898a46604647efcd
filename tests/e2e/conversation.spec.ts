import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeMail } from "../setup/mail-text.ts";
import { solveBotCheck, validBookingRequest } from "../setup/intake.ts";
import { TestSmtpServer } from "../setup/smtp.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { dataTemplate } from "./harness.ts";
import { copyDataDir, createStaffAccounts, type RunningServer, startServer } from "./server.ts";

/** Where the screenshots of the thread go, to be looked at. */
const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-msg";
const DOMAIN = "castellum.example";
const ADMIN = { email: `writer@${DOMAIN}`, password: "tower-garden-lantern-42" };
const GUEST = { email: "giulia.rossi@example.it", firstName: "Giulia", lastName: "Rossi" };

/**
 * The conversation with the guest, end to end on its own server (an admin of its own, made
 * before the server starts, so the shared server's first-admin journey is left alone): staff
 * write, the guest's mail links to their status page, the page shows the thread and takes a
 * reply, and the inbox shows it unread until the thread is read.
 */
describe("the conversation with the guest", () => {
  const browser = useBrowser();
  const smtp = new TestSmtpServer();
  let server: RunningServer;
  let dataDir: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dataDir = copyDataDir("msg", dataTemplate("seeded"));
    await createStaffAccounts(dataDir, [{ ...ADMIN, isAdmin: true, displayName: "Margaret Hale" }]);
    await smtp.start();
    server = await startServer({
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      ADMIN_EMAIL_DOMAIN: DOMAIN,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const mailsTo = (address: string) => smtp.to(address).map((mail) => decodeMail(mail.raw));

  async function staffPage(language: string, viewport = { width: 1280, height: 900 }) {
    const page = await browser.newPage({ baseURL: server.baseURL, viewport });
    const answer = await page.request.post("/api/admin/login", {
      data: ADMIN,
      headers: { Origin: server.baseURL },
    });
    expect(answer.status()).toBe(200);
    await page.goto(`/admin/booking-requests?lang=${language}`);
    await page.getByTestId("inbox-table").waitFor();
    return page;
  }

  async function openDetails(page: Page, reference: string) {
    await page
      .locator(`[data-reference="${reference}"]`)
      .first()
      .getByTestId("view-details")
      .first()
      .click();
    await page.getByTestId("conversation").waitFor();
  }

  it("carries a staff message to the guest's mail and page, and the guest's reply back to the inbox as unread", async () => {
    const token = await solveBotCheck(server.baseURL);
    const response = await fetch(`${server.baseURL}/api/booking-requests`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": "it" },
      body: JSON.stringify({ ...validBookingRequest(GUEST), turnstileToken: token }),
    });
    expect(response.status).toBe(201);
    const { reference } = (await response.json()) as { reference: string };

    // Staff write from the details.
    const staff = await staffPage("en");
    await openDetails(staff, reference);
    const conversation = staff.getByTestId("conversation");
    // The thread loads after the panel opens: wait for it (CI once read the panel before).
    await expect.poll(() => conversation.textContent()).toContain("No messages yet.");
    await conversation
      .getByLabel("Message to the guest")
      .fill("Dear Ms Rossi,\nthe castle is free on your dates. Shall we hold them for you?");
    await conversation.getByRole("button", { name: "Send to the guest" }).click();
    await expect
      .poll(() => conversation.getByTestId("message-thread").textContent())
      .toContain("the castle is free on your dates");
    expect(await conversation.getByTestId("message-thread").textContent()).toContain(
      "Margaret Hale",
    );

    // The guest's mail, in Italian, links to their status page.
    await expect
      .poll(() => mailsTo(GUEST.email).find((text) => text.includes("Le ha scritto")))
      .toBeTruthy();
    const mail = mailsTo(GUEST.email).find((text) => text.includes("Le ha scritto"))!;
    expect(mail).toContain("the castle is free on your dates");
    const statusPath = new URL(mail.match(/https?:\/\/\S+\/requests\/[\w-]{32}\?lang=it/)![0])
      .pathname;

    // The guest's page shows the thread and takes a reply.
    const guest = await browser.newPage({ baseURL: server.baseURL, locale: "it-IT" });
    await guest.goto(`${statusPath}?lang=it`);
    const thread = guest.getByTestId("guest-conversation");
    await expect.poll(() => thread.textContent()).toContain("the castle is free on your dates");
    expect(await thread.textContent()).toContain("Margaret Hale");
    await expectNoAxeViolations(guest, "status page with the thread (it)");
    // The guest writes and presses Send at once, before the bot check (started by typing) is
    // done: the reply waits for it and then goes, without a second press.
    await thread.getByLabel("Il Suo messaggio").fill("Sì, grazie! Arriveremo verso le 16.");
    await thread.getByRole("button", { name: "Invii il messaggio" }).click();
    await expect
      .poll(() => thread.getByTestId("message-thread").textContent(), { timeout: 30_000 })
      .toContain("Arriveremo verso le 16");
    expect(await thread.getByRole("status").textContent()).toContain("inviato");
    expect(await thread.getByLabel("Il Suo messaggio").inputValue()).toBe("");
    // An empty reply is refused in the page's language, nothing sent.
    await thread.getByRole("button", { name: "Invii il messaggio" }).click();
    await expect
      .poll(() => thread.textContent())
      .toContain("La preghiamo di scrivere un messaggio.");
    expect(await thread.getByTestId("message-thread").locator("li").count()).toBe(2);
    // From the top: a full-page shot taken further down draws the sticky header over the thread.
    await guest.evaluate(() => window.scrollTo(0, 0));
    await guest.screenshot({ path: join(SHOTS, "status-page-thread-it.png"), fullPage: true });
    await guest.goto(`${statusPath}?lang=en`);
    await guest.getByTestId("guest-conversation").waitFor();
    await expectNoAxeViolations(guest, "status page with the thread (en)");
    await guest.screenshot({ path: join(SHOTS, "status-page-thread-en.png"), fullPage: true });

    // The inbox shows the reply unread, in English and Chinese, at 1280 px and on a phone.
    for (const [language, viewport] of [
      ["en", { width: 1280, height: 900 }],
      ["zh", { width: 1280, height: 900 }],
      ["en", { width: 390, height: 844 }],
      ["zh", { width: 390, height: 844 }],
    ] as const) {
      const page = await staffPage(language, viewport);
      const row = page.locator(`[data-reference="${reference}"]`).first();
      await expect.poll(() => row.getByTestId("unread-messages").textContent()).toContain("1");
      expect(await layoutProblems(page), `${language} at ${viewport.width} px`).toEqual([]);
      await expectNoAxeViolations(
        page,
        `inbox with an unread reply (${language}, ${viewport.width})`,
      );
      await row.scrollIntoViewIfNeeded();
      await page.screenshot({
        path: join(SHOTS, `inbox-unread-${language}-${viewport.width}.png`),
        fullPage: false,
      });
      await page.close();
    }

    // Staff read the thread: the reply is there, and the inbox's marker goes.
    for (const language of ["it", "en"]) {
      const page = await staffPage(language);
      await openDetails(page, reference);
      const panel = page.getByTestId("conversation");
      await expect
        .poll(() => panel.getByTestId("message-thread").textContent())
        .toContain("Arriveremo verso le 16");
      await expectNoAxeViolations(page, `details with the thread (${language})`);
      await panel.scrollIntoViewIfNeeded();
      await panel.screenshot({ path: join(SHOTS, `staff-details-thread-${language}.png`) });
      await page.close();
    }
    const after = await staffPage("en");
    await expect
      .poll(() =>
        after
          .locator(`[data-reference="${reference}"]`)
          .first()
          .getByTestId("unread-messages")
          .count(),
      )
      .toBe(0);
  }, 240_000);
});

/** Columns whose header is cut off, off screen or covered, and the page's overflow. */
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
    // Below 1280 px the rows are cards, each cell labelled, and the header row is moved out of
    // sight by design: there, every cell of every row must be in view instead.
    const heads =
      window.innerWidth >= 1280 ? [...table.querySelectorAll<HTMLElement>("thead th")] : [];
    for (const th of heads) {
      const box = th.getBoundingClientRect();
      const label = th.textContent ?? "";
      if (box.right > window.innerWidth) problems.push(`${label}: off screen`);
      if (th.scrollWidth > th.clientWidth + 1) problems.push(`${label}: cut off`);
    }
    for (const cell of table.querySelectorAll<HTMLElement>("tbody td, tbody th")) {
      const box = cell.getBoundingClientRect();
      if (box.width === 0 || box.right > window.innerWidth + 1)
        problems.push(`a cell is hidden or off screen: ${(cell.textContent ?? "").slice(0, 30)}`);
    }
    return problems;
  });
}
