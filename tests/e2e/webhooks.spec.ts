import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentedVerify, WebhookReceiver } from "../setup/webhook-receiver.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { E2E_ADMIN_DOMAIN } from "./global-setup.ts";
import { dataTemplate } from "./harness.ts";
import { type RunningServer, startServerWithStaff } from "./server.ts";

/**
 * The webhook page, on a server of its own that may reach this machine
 * (OUTBOUND_ALLOW_PRIVATE_NETWORKS=true): an admin registers a receiver, copies the secret
 * shown once, sends a test event the receiver gets signed, reads the delivery log, pauses and
 * deletes behind a confirmation; the page in Italian too. Screenshots go to /tmp/shots-hooks.
 */
const ADMIN = { email: `hooks@${E2E_ADMIN_DOMAIN}`, password: "drawbridge-evening-bell-31" };
const SHOTS = process.env.WEBHOOK_SHOTS_DIR ?? "/tmp/shots-hooks";
const JOURNEY_TIMEOUT_MS = 180_000;

describe("the webhook page", () => {
  const browser = useBrowser();
  const receiver = new WebhookReceiver();
  let server: RunningServer | undefined;

  beforeAll(async () => {
    await receiver.listen();
    server = await startServerWithStaff(
      "webhooks",
      { ...ADMIN, isAdmin: true, displayName: "Integrations" },
      {
        ADMIN_EMAIL_DOMAIN: E2E_ADMIN_DOMAIN,
        OUTBOUND_ALLOW_PRIVATE_NETWORKS: "true",
      },
      dataTemplate("seeded"),
    );
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await server?.stop();
    await receiver.refuse();
  });

  it(
    "registers an endpoint, shows its secret once, sends a signed test event, logs it, and deletes it",
    async () => {
      const verify = await documentedVerify();
      const page = await browser.newPage({ baseURL: server!.baseURL });
      await page.goto("/admin/login?redirectTo=/admin/webhooks");
      await page.locator('input[name="email"]').fill(ADMIN.email);
      await page.locator('input[name="password"]').fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/webhooks");
      await expect.poll(() => page.getByTestId("webhooks-empty").isVisible()).toBe(true);
      // Linked from the staff navigation.
      expect(
        await page.getByRole("navigation").getByRole("link", { name: "Webhooks" }).count(),
      ).toBe(1);
      await expectNoAxeViolations(page, "webhooks, empty");

      await page.getByLabel("Receiver address").fill(receiver.url("/e2e"));
      await page.getByRole("checkbox", { name: /request\.status_changed/ }).check();
      await page.getByRole("button", { name: "Register endpoint" }).click();
      const secretBox = page.getByTestId("webhook-secret-value");
      await expect.poll(() => secretBox.isVisible()).toBe(true);
      const secret = await secretBox.inputValue();
      expect(secret).toMatch(/^whsec_/);
      await expect.poll(() => page.getByTestId("webhooks-table").isVisible()).toBe(true);
      await expectNoAxeViolations(page, "webhooks, secret shown");
      await page.screenshot({ path: join(SHOTS, "webhooks-en.png"), fullPage: true });

      await page.getByRole("button", { name: "I have stored it" }).click();
      expect(await secretBox.count()).toBe(0);
      // The list never shows the secret again.
      expect(await page.content()).not.toContain(secret);

      await page.getByRole("button", { name: "Send test event" }).click();
      await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(1);
      const [hit] = receiver.received;
      expect(JSON.parse(hit!.body)).toMatchObject({ type: "webhook.test" });
      expect(verify(secret, String(hit!.headers["castellum-signature"]), hit!.body)).toBe(true);

      await page.getByRole("button", { name: "Delivery log" }).click();
      const log = page.getByTestId("webhook-log");
      await expect.poll(() => log.isVisible()).toBe(true);
      await expect.poll(() => log.textContent()).toContain("webhook.test");
      await expect.poll(() => log.textContent()).toContain("Delivered");

      await page.getByRole("button", { name: "Pause" }).click();
      await expect.poll(() => page.getByTestId("webhooks-table").textContent()).toContain("Paused");
      await expectNoAxeViolations(page, "webhooks, paused, with the log");

      // Italian, as an admin who switched the staff area's language.
      await page.goto("/admin/webhooks?lang=it");
      await expect
        .poll(() => page.getByRole("heading", { level: 1 }).textContent())
        .toBe("Webhook");
      await expect
        .poll(() => page.getByTestId("webhooks-table").textContent())
        .toContain("In pausa");
      // The last delivery (the test event) is on the list.
      expect(await page.getByTestId("webhooks-table").textContent()).toContain(
        "Ultimo invio riuscito",
      );
      await expectNoAxeViolations(page, "webhooks, Italian");
      await page.screenshot({ path: join(SHOTS, "webhooks-it.png"), fullPage: true });

      await page.getByRole("button", { name: "Elimini" }).click();
      const dialog = page.getByRole("dialog");
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await dialog.getByRole("button", { name: "Elimini l’endpoint" }).click();
      await expect.poll(() => page.getByTestId("webhooks-empty").isVisible()).toBe(true);
      // Back to English for the journeys after this one.
      await page.goto("/admin/webhooks?lang=en");
    },
    JOURNEY_TIMEOUT_MS,
  );
});
