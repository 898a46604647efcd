/**
 * The second factor in a browser, on a production server of its own with
 * STAFF_MFA_REQUIRED=true: a password alone opens only enrolment; the authenticator app is
 * set up from the page (its code computed here from the secret the page shows), then the
 * second step takes an app code or a recovery code, once.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { generate } from "otplib";
import { TOTP_PERIOD_SECONDS } from "#domain/staff/mfa/totp.ts";
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
 * The server takes a code of its own 30-second step or of one step either side, and a code
 * once: the step of each accepted code must be later than the last one's
 * (domain/staff/mfa/totp.ts). The journeys use two app codes. The first is the current step's,
 * accepted until the step after the next begins: at least 30 s from now. The second is the
 * current step's once the clock has moved on from the first one's step, else the next step's,
 * which the server takes from now until the step after it ends. So neither code waits for the
 * clock, and neither can be refused because a step turned while it was typed. (A third code
 * in the same step would have no step left: the security page is opened in the second
 * code's session.)
 */
let lastStep: number | undefined;
async function appCode(secret: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000 / TOTP_PERIOD_SECONDS);
  const step = lastStep === undefined ? now : Math.max(now, lastStep + 1);
  lastStep = step;
  return generate({ secret, epoch: step * TOTP_PERIOD_SECONDS });
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
  /** The page signed in with the app's code after the password. */
  let appSession: Page | undefined;

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

    await code.fill(await appCode(secret));
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
    appSession = page;
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
    // In the session the app's code opened (appCode: a third code could need the clock).
    const page = await appSession!.context().newPage();
    await page.setViewportSize(WIDE);
    await page.goto("/admin/account/security?lang=zh");
    await page.getByTestId("factor-codes").getByText("剩余 9 个未使用的恢复码。").waitFor();
    await expectNoAxeViolations(page, "security page zh");
    await shoot(page, "mfa-security-zh-1280");
  });
});
