/**
 * The second factor in a browser, on a production server of its own with
 * STAFF_MFA_REQUIRED=true: a password alone opens only enrolment; the authenticator app is
 * set up from the page (its code computed here from the secret the page shows), then the
 * second step takes an app code or a recovery code, once.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { generate } from "otplib";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { E2E_STAFF_PASSWORD } from "./global-setup.ts";
import { dataTemplate } from "./harness.ts";
import { type RunningServer, startServerWithStaff } from "./server.ts";

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-mfa";
const ADMIN = "mfa.admin@castellum.example";
const NARROW = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };

/**
 * The code an authenticator app shows `offsetSteps` 30-second steps from now. The server takes
 * one step either side of its own: a code of the step before stops working when the clock
 * reaches the next step, so one is only made with at least 5 s of the current step left (a
 * CI run once typed it as the step turned, and the code was refused). The wait is for the
 * clock itself, the one thing that says when.
 */
async function appCode(secret: string, offsetSteps = 0): Promise<string> {
  const leftMs = 30_000 - (Date.now() % 30_000);
  if (offsetSteps < 0 && leftMs < 5_000)
    await new Promise((resolve) => setTimeout(resolve, leftMs + 100));
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });
}

async function signIn(page: Page) {
  await page.locator('input[name="email"]').fill(ADMIN);
  await page.locator('input[name="password"]').fill(E2E_STAFF_PASSWORD);
  await page.locator('button[type="submit"]').click();
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

describe("the second factor (STAFF_MFA_REQUIRED=true)", () => {
  const browser = useBrowser();
  let server: RunningServer;
  let secret = "";
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startServerWithStaff(
      "mfa",
      { email: ADMIN, password: E2E_STAFF_PASSWORD, isAdmin: true },
      {
        SEED_DEMO_CATALOGUE: "false",
        ADMIN_EMAIL_DOMAIN: "castellum.example",
        STAFF_MFA_REQUIRED: "true",
      },
      dataTemplate("migrated"),
    );
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("opens nothing with a password alone; enrolment sets up the app and shows 10 recovery codes once", async () => {
    const page = await browser.newPage({ baseURL: server.baseURL, viewport: WIDE });
    await page.goto("/admin/login");
    await signIn(page);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/enrol");
    // The inbox is still closed: it sends back to sign-in, which sends on to enrolment.
    await page.goto("/admin/booking-requests");
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/enrol");

    const secretField = page.getByTestId("totp-secret");
    await secretField.waitFor();
    secret = await secretField.inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await expect
      .poll(() =>
        page
          .locator('img[alt="QR code for your authenticator app"]')
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
    await expectNoAxeViolations(page, "enrolment");
    await shoot(page, "mfa-enrol-en-1280");

    // A wrong code is refused where it was typed.
    const code = page.getByTestId("totp-confirm").locator('input[name="code"]');
    await code.fill("000000");
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("That code is not right").waitFor();

    // The step before now: the second step below uses the current one (a code works once).
    await code.fill(await appCode(secret, -1));
    await page.getByRole("button", { name: "Confirm" }).click();
    const codes = page.getByTestId("recovery-code");
    await codes.first().waitFor();
    recoveryCodes = await codes.allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    await expectNoAxeViolations(page, "recovery codes");
    await shoot(page, "mfa-recovery-codes-en-1280");
    await page.getByTestId("recovery-saved").click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/booking-requests");
  });

  it("asks for the app's code after the password, on the same page, in Chinese on a phone", async () => {
    const page = await browser.newPage({
      baseURL: server.baseURL,
      viewport: NARROW,
      locale: "zh-CN",
    });
    await page.goto("/admin/login?lang=zh");
    await signIn(page);
    const step = page.getByTestId("second-step");
    await step.waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/login");
    await page.getByRole("heading", { name: "第二步验证" }).waitFor();
    await expectNoAxeViolations(page, "second step zh");
    await shoot(page, "mfa-second-step-zh-390");
    await step.locator('input[name="code"]').fill(await appCode(secret));
    await step.locator('button[type="submit"]').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/booking-requests");
  });

  it("takes a recovery code once, not twice", async () => {
    const first = await browser.newPage({ baseURL: server.baseURL, viewport: WIDE });
    await first.goto("/admin/login");
    await signIn(first);
    await first.getByTestId("second-step").waitFor();
    await first.getByRole("button", { name: "Use a recovery code" }).click();
    await first.getByLabel("Recovery code").waitFor();
    await expectNoAxeViolations(first, "second step, recovery code");
    await shoot(first, "mfa-second-step-recovery-en-1280");
    await first.getByLabel("Recovery code").fill(recoveryCodes[0]!);
    await first.getByRole("button", { name: "Verify" }).click();
    await expect.poll(() => new URL(first.url()).pathname).toBe("/admin/booking-requests");

    const second = await browser.newPage({ baseURL: server.baseURL, viewport: NARROW });
    await second.goto("/admin/login");
    await signIn(second);
    await second.getByTestId("second-step").waitFor();
    await shoot(second, "mfa-second-step-en-390");
    await second.getByRole("button", { name: "Use a recovery code" }).click();
    await second.getByLabel("Recovery code").fill(recoveryCodes[0]!);
    await second.getByRole("button", { name: "Verify" }).click();
    await second.getByText("That code is not right").waitFor();
    expect(new URL(second.url()).pathname).toBe("/admin/login");
    // The inbox stays closed to this session.
    await second.goto("/admin/booking-requests");
    await expect.poll(() => new URL(second.url()).pathname).toBe("/admin/login");
    await second.getByTestId("second-step").waitFor();
  });

  it("lists the factors on the security page, in Chinese", async () => {
    const page = await browser.newPage({ baseURL: server.baseURL, viewport: WIDE });
    await page.goto("/admin/login?lang=zh");
    await signIn(page);
    const step = page.getByTestId("second-step");
    await step.waitFor();
    await step.locator('input[name="code"]').fill(await appCode(secret, 1));
    await step.locator('button[type="submit"]').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/booking-requests");
    await page.goto("/admin/account/security?lang=zh");
    await page.getByTestId("factor-codes").getByText("剩余 9 个未使用的恢复码。").waitFor();
    await expectNoAxeViolations(page, "security page zh");
    await shoot(page, "mfa-security-zh-1280");
  });
});
