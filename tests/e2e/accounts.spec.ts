import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { E2E_ADMIN_DOMAIN } from "./global-setup.ts";
import { dataTemplate } from "./harness.ts";
import { type ServerWithData, startServerWithStaff } from "./server.ts";

/**
 * Accounts in the staff area, on a server of its own whose mail goes to
 * files: an admin invites a colleague, who sets a password from the mailed link and signs in;
 * the admin disables and enables them and mails a reset link; the colleague sees their two
 * sessions and ends the other; a forgotten password by mail. In English and Chinese, at 1280
 * and 390 px, axe clean. Screenshots go to /tmp/shots-accounts.
 */
const ADMIN = { email: `keeper@${E2E_ADMIN_DOMAIN}`, password: "drawbridge-winter-lamp-58" };
const SHOTS = process.env.ACCOUNTS_SHOTS_DIR ?? "/tmp/shots-accounts";
const JOURNEY_TIMEOUT_MS = 240_000;

describe("the accounts pages", () => {
  const browser = useBrowser();
  let server: ServerWithData | undefined;

  const mailsTo = (address: string): string[] => server?.mailsTo(address) ?? [];

  /** The path of the newest mailed link of this kind to `address`, once it has arrived. */
  const linkTo = async (address: string, kind: "invitation" | "password-reset", count = 1) => {
    const pattern = new RegExp(`/admin/${kind}/[A-Za-z0-9_-]{22}`, "g");
    const links = () => mailsTo(address).flatMap((text) => text.match(pattern) ?? []);
    await expect.poll(() => links().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(count);
    return links().at(-1)!;
  };

  beforeAll(async () => {
    server = await startServerWithStaff(
      "accounts",
      { ...ADMIN, isAdmin: true, displayName: "Keeper" },
      {
        ADMIN_EMAIL_DOMAIN: E2E_ADMIN_DOMAIN,
        STAFF_MFA_REQUIRED: "false",
        SMTP_URL: "",
      },
      dataTemplate("seeded"),
    );
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await server?.stop();
  });

  async function signIn(page: Page, email: string, password: string, to: string) {
    await page.goto(`/admin/login?redirectTo=${to}`);
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="password"]').fill(password);
    await page.locator('button[type="submit"]').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(to);
  }

  const rowOf = (page: Page, email: string) => page.locator(`tr[data-account="${email}"]`);

  async function act(page: Page, email: string, action: string) {
    await rowOf(page, email).getByRole("button", { name: action, exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: action, exact: true }).click();
  }

  it(
    "invites a colleague by mail, who signs in, sees and ends a session, and resets a forgotten password",
    async () => {
      const colleague = { email: `ada@${E2E_ADMIN_DOMAIN}`, password: "lantern-harbour-quiet-84" };
      const admin = await browser.newPage({ baseURL: server!.baseURL });
      await signIn(admin, ADMIN.email, ADMIN.password, "/admin/accounts");
      // Polled: the address changes before the page it leads to has rendered.
      await expect
        .poll(() => admin.getByRole("navigation").getByRole("link", { name: "Accounts" }).count())
        .toBe(1);
      await expect.poll(() => rowOf(admin, ADMIN.email).isVisible()).toBe(true);
      await expectNoAxeViolations(admin, "accounts");

      await admin.getByLabel("Email").fill(colleague.email);
      await admin.getByRole("checkbox", { name: "Make them an admin" }).check();
      await admin.getByRole("button", { name: "Send the invitation" }).click();
      const invitation = await linkTo(colleague.email, "invitation");

      // The colleague, in a browser of their own.
      const own = await browser.newPage({ baseURL: server!.baseURL });
      await own.goto(invitation);
      await expect.poll(() => own.getByText(colleague.email).count()).toBeGreaterThan(0);
      await expectNoAxeViolations(own, "invitation");
      await own.getByLabel("Your name").fill("Ada");
      await own.getByLabel("Password").fill(colleague.password);
      await own.getByRole("button", { name: "Create my account" }).click();
      await expect.poll(() => own.getByRole("status").textContent()).toContain("ready");
      // The link works once.
      await own.goto(invitation);
      await expect.poll(() => own.getByRole("alert").textContent()).toContain("already used");
      await signIn(own, colleague.email, colleague.password, "/admin/account");

      // The admin sees the new account, disables it (its session ends) and enables it.
      await admin.reload();
      await expect.poll(() => rowOf(admin, colleague.email).isVisible()).toBe(true);
      await act(admin, colleague.email, "Disable");
      await expect
        .poll(() => rowOf(admin, colleague.email).getByTestId("account-state").textContent())
        .toBe("Disabled");
      await own.reload();
      await expect.poll(() => new URL(own.url()).pathname).toBe("/admin/login");
      await act(admin, colleague.email, "Enable");
      await expect
        .poll(() => rowOf(admin, colleague.email).getByTestId("account-state").textContent())
        .toBe("Enabled");
      await act(admin, colleague.email, "Send reset link");
      await linkTo(colleague.email, "password-reset");
      await admin.screenshot({ path: join(SHOTS, "accounts-en-1280.png"), fullPage: true });

      // Two sessions of the colleague: this browser and another; this one ends the other.
      await signIn(own, colleague.email, colleague.password, "/admin/account");
      const other = await browser.newPage({ baseURL: server!.baseURL });
      await signIn(other, colleague.email, colleague.password, "/admin/account");
      await own.reload();
      const rows = own.getByTestId("sessions-table").locator("tbody tr");
      await expect.poll(() => rows.count()).toBe(2);
      await expect
        .poll(() => own.locator('tr[data-current="true"]').textContent())
        .toContain("This session");
      await expectNoAxeViolations(own, "account");
      await own.screenshot({ path: join(SHOTS, "account-en-1280.png"), fullPage: true });
      await own.locator('tr[data-current="false"]').getByRole("button", { name: "End" }).click();
      await expect.poll(() => rows.count()).toBe(1);
      await other.reload();
      await expect.poll(() => new URL(other.url()).pathname).toBe("/admin/login");

      // A forgotten password, from the sign-in page, in Chinese on a phone.
      const phone = await browser.newPage({
        baseURL: server!.baseURL,
        viewport: { width: 390, height: 844 },
        locale: "zh-CN",
      });
      await phone.goto("/admin/login?lang=zh");
      await phone.getByRole("link", { name: "忘记密码？" }).click();
      await expect.poll(() => new URL(phone.url()).pathname).toBe("/admin/forgot-password");
      await expectNoAxeViolations(phone, "forgot-password zh");
      await phone.getByLabel("电子邮件").fill(colleague.email);
      await phone.getByRole("button", { name: "发送链接" }).click();
      await expect.poll(() => phone.getByRole("status").textContent()).toContain("链接");
      await phone.screenshot({ path: join(SHOTS, "forgot-zh-390.png"), fullPage: true });
      const reset = await linkTo(colleague.email, "password-reset", 2);
      await phone.goto(reset);
      const fresh = "meadow-copper-violin-26";
      await phone.getByLabel("新密码", { exact: true }).fill(fresh);
      await expectNoAxeViolations(phone, "password-reset zh");
      await phone.getByRole("button", { name: "保存密码" }).click();
      await expect.poll(() => phone.getByRole("status").textContent()).toContain("密码已更改");
      // Using it ended every session of the account.
      await own.reload();
      await expect.poll(() => new URL(own.url()).pathname).toBe("/admin/login");
      await signIn(own, colleague.email, fresh, "/admin/account");

      // The admin pages in Chinese at 390 px.
      await admin.setViewportSize({ width: 390, height: 844 });
      await admin.goto("/admin/accounts?lang=zh");
      await expect.poll(() => rowOf(admin, colleague.email).isVisible()).toBe(true);
      await expect
        .poll(() => admin.getByRole("heading", { level: 1 }).textContent())
        .toBe("员工账户");
      await expectNoAxeViolations(admin, "accounts zh 390");
      await admin.screenshot({ path: join(SHOTS, "accounts-zh-390.png"), fullPage: true });
      await admin.goto("/admin/account?lang=zh");
      await expect.poll(() => admin.getByTestId("sessions-table").isVisible()).toBe(true);
      await expectNoAxeViolations(admin, "account zh 390");
      await admin.screenshot({ path: join(SHOTS, "account-zh-390.png"), fullPage: true });
    },
    JOURNEY_TIMEOUT_MS,
  );
});
