import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import enStaff from "#i18n/locales/en/staff.json" with { type: "json" };
import zhOwner from "#i18n/locales/zh/owner.json" with { type: "json" };
import { demoEstate } from "../factories/demo-estates.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { E2E_ADMIN_DOMAIN } from "./global-setup.ts";
import { dataTemplate } from "./harness.ts";
import { freePort, type ServerWithData, startServerWithStaff } from "./server.ts";

/**
 * Passkeys in a real Chromium with its virtual authenticator: an admin adds one and
 * signs in with it alone; an owner adds one after a claim and signs in with it instead of a
 * code. WebAuthn refuses an IP address as the relying party, so this server is `localhost`.
 */
const ADMIN = { email: `keys@${E2E_ADMIN_DOMAIN}`, password: "drawbridge-evening-mist-73" };
const ESTATE = demoEstate("gordon-castle");
const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-passkeys";
const S = enStaff.passkeys;
const O = zhOwner;

let server: ServerWithData | undefined;

/** A platform authenticator that holds discoverable credentials and verifies the user. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}

function newestMailTo(address: string): string | undefined {
  return server?.mailsTo(address).at(-1);
}

describe("passkeys", () => {
  const browser = useBrowser();
  let baseURL = "";

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const port = await freePort();
    baseURL = `http://localhost:${port}`;
    server = await startServerWithStaff(
      "passkeys",
      { ...ADMIN, isAdmin: true, displayName: "Keys" },
      {
        ADMIN_EMAIL_DOMAIN: E2E_ADMIN_DOMAIN,
        PORT: String(port),
        PUBLIC_URL: baseURL,
        STAFF_MFA_REQUIRED: "false",
      },
      dataTemplate("seeded"),
    );
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("an admin adds a passkey, signs out and signs in with the passkey alone", async () => {
    const page = await browser.newPage({ baseURL });
    await addVirtualAuthenticator(page);
    await page.goto("/admin/login?lang=en");
    await page.getByRole("button", { name: S.signIn }).waitFor();
    await expectNoAxeViolations(page, "login with the passkey button (en)");
    await page.locator('input[name="email"]').fill(ADMIN.email);
    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.getByRole("button", { name: enStaff.login.submit, exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/booking-requests");

    // The header's "My account", then the account's Passkeys page.
    await page.getByTestId("staff-email").click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/account");
    await page.getByRole("link", { name: S.nav, exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/account/passkeys");
    await page.getByText(S.empty).waitFor();
    await page.getByTestId("passkey-name").fill("Work laptop");
    await page.getByTestId("passkey-password").fill(ADMIN.password);
    await page.getByRole("button", { name: S.add }).click();
    const row = page.getByTestId("passkey-row");
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => row.first().textContent()).toContain("Work laptop");
    await expectNoAxeViolations(page, "account passkeys (en)");
    await page.screenshot({ path: join(SHOTS, "staff-passkeys-en.png"), fullPage: true });

    await page.getByRole("button", { name: enStaff.shell.logout }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/login");
    await page.getByRole("button", { name: S.signIn }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/booking-requests");
    await page.goto("/admin/account/passkeys?lang=en");
    await expect.poll(() => row.first().textContent()).not.toContain(S.never);
  });

  it("an owner adds a passkey after the claim and signs in with it instead of a code (zh)", async () => {
    const page = await browser.newPage({ baseURL, locale: "zh-CN" });
    await addVirtualAuthenticator(page);
    await page.goto("/onboard/verify?lang=zh");
    const main = page.getByRole("main");
    await main.getByLabel(O.verify.emailLabel, { exact: true }).fill(ESTATE.email);
    await page.getByRole("button", { name: O.verify.submitEmail }).click();
    await main.getByLabel(O.verify.codeLabel, { exact: true }).waitFor();
    await expect.poll(() => newestMailTo(ESTATE.email) ?? "", { timeout: 30_000 }).toMatch(/\d{6}/);
    const code = /\b(\d{6})\b/.exec(newestMailTo(ESTATE.email)!)?.[1] ?? "";
    await main.getByLabel(O.verify.codeLabel, { exact: true }).fill(code);
    await page.getByTestId("verify-code").click();
    await page.getByRole("button", { name: O.verify.submitClaim, exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/dashboard");

    const panel = page.getByTestId("passkeys-panel");
    await panel.getByText(O.passkeys.empty).waitFor();
    await panel.getByTestId("passkey-name").fill("平板电脑");
    await panel.getByRole("button", { name: O.passkeys.add }).click();
    await expect.poll(() => panel.getByTestId("passkey-row").count()).toBe(1);
    await expectNoAxeViolations(page, "owner dashboard with passkeys (zh)");
    await panel.screenshot({ path: join(SHOTS, "owner-passkeys-zh.png") });

    await page.getByRole("button", { name: O.dashboard.logout }).click();
    await page.goto("/onboard/verify?lang=zh");
    await page.getByRole("button", { name: O.passkeys.signIn }).waitFor();
    await expectNoAxeViolations(page, "owner sign-in with the passkey button (zh)");
    await page.screenshot({ path: join(SHOTS, "owner-sign-in-zh.png"), fullPage: true });
    await page.getByRole("button", { name: O.passkeys.signIn }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/dashboard");
    await page.getByTestId("property-name").waitFor();
  });
});
