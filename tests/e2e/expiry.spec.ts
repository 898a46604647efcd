import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeMail } from "../setup/mail-text.ts";
import { solveBotCheck, validBookingRequest } from "../setup/intake.ts";
import { TestSmtpServer } from "../setup/smtp.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { dataTemplate } from "./harness.ts";
import { copyDataDir, type RunningServer, startServer } from "./server.ts";

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-expiry";
const GUEST = { email: "camille.durand@example.fr", firstName: "Camille", lastName: "Durand" };
const HOUR = 3_600_000;

/**
 * A request nobody answers in time, end to end: the guest's status page shows it waiting; the
 * server's clock moves past the due time (CLOCK_OFFSET_FILE, as a unit test moves its clock);
 * the lifecycle job closes it; the guest's page shows it refused with the reason in their
 * language, and the guest is mailed. Nothing waits for hours to pass.
 */
describe("a request that expires", () => {
  const browser = useBrowser();
  const smtp = new TestSmtpServer();
  let server: RunningServer;
  let dataDir: string;
  let clockFile: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dataDir = copyDataDir("expiry", dataTemplate("seeded"));
    clockFile = join(dataDir, "clock.json");
    await smtp.start();
    server = await startServer({
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      CLOCK_OFFSET_FILE: clockFile,
      REQUEST_RESPONSE_HOURS: "48",
      LIFECYCLE_INTERVAL_SECONDS: "1",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const mailsTo = (address: string) => smtp.to(address).map((mail) => decodeMail(mail.raw));

  it("shows the guest their request closed, with the reason in French, once its due time has passed", async () => {
    const token = await solveBotCheck(server.baseURL);
    const response = await fetch(`${server.baseURL}/api/booking-requests`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": "fr" },
      body: JSON.stringify({ ...validBookingRequest(GUEST), turnstileToken: token }),
    });
    expect(response.status).toBe(201);

    // The confirmation mail links to the guest's status page.
    await expect.poll(() => mailsTo(GUEST.email).length, { timeout: 60_000 }).toBe(1);
    const link = /https?:\/\/\S+\/requests\/[A-Za-z0-9_-]{32}\S*/.exec(
      mailsTo(GUEST.email)[0] ?? "",
    )?.[0];
    expect(link).toBeDefined();
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(link as string);
    await expect.poll(() => page.getByTestId("request-status").textContent()).toBe("Nouvelle");

    // Two days and an hour later: past the 48-hour window.
    writeFileSync(clockFile, JSON.stringify({ offsetMs: 49 * HOUR }));
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId("request-status").textContent();
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe("Refusée");
    expect(await page.getByTestId("request-reason").textContent()).toBe(
      "Nous n’avons pas pu confirmer vos dates à temps.",
    );
    await expectNoAxeViolations(page, "expired request, fr");
    await page.screenshot({ path: join(SHOTS, "expired-fr-390.png"), fullPage: true });

    // The guest is mailed once, in French, with the same reason.
    await expect.poll(() => mailsTo(GUEST.email).length, { timeout: 60_000 }).toBe(2);
    expect(mailsTo(GUEST.email)[1]).toContain("Nous n’avons pas pu confirmer vos dates à temps.");
  });
});
