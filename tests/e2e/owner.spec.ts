import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import itOwner from "#i18n/locales/it/owner.json" with { type: "json" };
import { demoEstate } from "../factories/demo-estates.ts";
import { decodeMail } from "../setup/mail-text.ts";
import { expectNoAxeViolations, useBrowser } from "./browser.ts";
import { E2E_ADMIN_DOMAIN } from "./global-setup.ts";
import { dataTemplate } from "./harness.ts";
import {
  copyDataDir,
  createStaffAccounts,
  ROOT,
  type RunningServer,
  startServer,
} from "./server.ts";

/**
 * The owner journey, on a server of its own (its own embedded database and mail
 * directory, no SMTP: mail is filed as .eml in DATA_DIR/mail, as on a fresh machine), so the
 * journey can stop it, re-run the demo seed and start it again.
 */
const ESTATE = demoEstate("gordon-castle");
const ADMIN = { email: `support@${E2E_ADMIN_DOMAIN}`, password: "drawbridge-evening-mist-73" };
const NEW_DESCRIPTION =
  "Gordon Castle accoglie gli ospiti in un parco sul fiume Spey: un orto murato che rifornisce la cucina, dodici camere con vista sul lago e lunghe passeggiate fino al mare.";
const NEW_LOCATION = "Fochabers, nella Moray, Scozia";
const T = itOwner;

let dataDir = "";
let server: RunningServer | undefined;

async function start() {
  server = await startServer({ DATA_DIR: dataDir, ADMIN_EMAIL_DOMAIN: E2E_ADMIN_DOMAIN });
  return server.baseURL;
}

/** The newest mail filed for `address` in the outbox directory, decoded. */
function newestMailTo(address: string): string | undefined {
  const mailDir = join(dataDir, "mail");
  if (!existsSync(mailDir)) return undefined;
  const mails = readdirSync(mailDir)
    .filter((file) => file.endsWith(".eml"))
    .map((file) => {
      const path = join(mailDir, file);
      return { text: decodeMail(readFileSync(path, "utf8")), path };
    })
    .filter((mail) => new RegExp(`^To: .*${address.replace(/[.]/g, "\\.")}`, "mi").test(mail.text));
  return mails.at(-1)?.text;
}

async function toastText(page: Page): Promise<string> {
  const toasts = page.getByTestId("toast");
  return (await toasts.count()) > 0 ? ((await toasts.first().textContent()) ?? "") : "";
}

/** The image keys of the public gallery, in the order shown. */
async function publicGalleryKeys(page: Page): Promise<string[]> {
  const sources = await page
    .getByTestId("property-images")
    .locator("img")
    .evaluateAll((images) =>
      images.map(
        (image) => (image as HTMLImageElement).currentSrc || (image as HTMLImageElement).src,
      ),
    );
  return sources.map((src) => decodeURIComponent(/\/media\/([^/]+)\//.exec(src)?.[1] ?? ""));
}

describe("the owner area", () => {
  const browser = useBrowser();
  let baseURL = "";
  const chosen: string[] = [];

  beforeAll(async () => {
    dataDir = copyDataDir("owner", dataTemplate("seeded"));
    await createStaffAccounts(dataDir, [{ ...ADMIN, isAdmin: true, displayName: "Support" }]);
    baseURL = await start();
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("a newcomer verifies, claims, edits in Italian, uploads and orders photos; the public page follows", async () => {
    const page = await browser.newPage({ baseURL, locale: "it-IT" });
    await page.goto("/onboard/verify?lang=it");
    await expectNoAxeViolations(page, "verify, step 1 (it)");
    const main = page.getByRole("main");
    await main.getByLabel(T.verify.emailLabel, { exact: true }).fill(ESTATE.email);
    await page.getByRole("button", { name: T.verify.submitEmail }).click();
    await main.getByLabel(T.verify.codeLabel, { exact: true }).waitFor();
    await expectNoAxeViolations(page, "verify, step 2 (it)");

    // The code comes from the outbox directory, in Italian.
    await expect.poll(() => newestMailTo(ESTATE.email) ?? "", { timeout: 30_000 }).toMatch(/\d{6}/);
    const mail = newestMailTo(ESTATE.email)!;
    const code = /\b(\d{6})\b/.exec(
      mail
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join("\n"),
    )?.[1];
    expect(mail).toContain(T.mail.code.greeting.slice(0, 8));
    await main.getByLabel(T.verify.codeLabel, { exact: true }).fill(code ?? "");
    await page.getByRole("button", { name: T.verify.submitCode }).click();

    await page.getByRole("button", { name: T.verify.submitClaim }).waitFor();
    await expect.poll(() => page.getByText("Gordon Castle").count()).toBeGreaterThan(0);
    await expectNoAxeViolations(page, "verify, step 3 (it)");
    await page.getByRole("button", { name: T.verify.submitClaim }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/dashboard");
    await page.getByText(ESTATE.email).first().waitFor();

    // Overview: the Italian description and location, by keyboard-reachable controls.
    await page.getByRole("tab", { name: T.dashboard.tabOverview }).click();
    await page.getByTestId("edit-description").click();
    await page.getByTestId("editor-description").fill(NEW_DESCRIPTION);
    await page.getByTestId("save-description").click();
    await expect.poll(() => toastText(page)).toContain(T.overview.savedTitle);
    await page.getByTestId("edit-location").click();
    await page.getByTestId("editor-location").fill(NEW_LOCATION);
    await page.getByTestId("editor-location").press("Enter");
    await expect.poll(() => page.getByText(NEW_LOCATION).count()).toBeGreaterThan(0);
    // A value the schema refuses is refused in the browser, in Italian, and nothing is saved.
    await page.getByTestId("edit-url").click();
    await page.getByTestId("editor-url").fill("javascript:alert(1)");
    await page.getByTestId("save-url").click();
    await expect.poll(() => page.getByTestId("error-url").textContent()).toBe(T.errors.url);
    await page.getByRole("button", { name: T.overview.cancel }).click();
    await expectNoAxeViolations(page, "dashboard overview (it)");

    // Images: upload a photo, then choose three images in a new order.
    await page.getByRole("tab", { name: T.dashboard.tabImages }).click();
    const photo = await sharp({
      create: { width: 1600, height: 1000, channels: 3, background: { r: 90, g: 120, b: 80 } },
    })
      .jpeg()
      .toBuffer();
    await page.getByTestId("upload-input").setInputFiles({
      name: "facciata.jpg",
      mimeType: "image/jpeg",
      buffer: photo,
    });
    const uploaded = page.locator("li[data-image-key*='-u-']");
    await expect.poll(() => uploaded.count(), { timeout: 20_000 }).toBe(1);
    const uploadedKey = (await uploaded.getAttribute("data-image-key")) ?? "";

    const tiles = page.locator("li[data-image-key]");
    // Clear the selection, then pick: the upload, the third image, the first.
    for (const tile of await tiles.all())
      if ((await tile.getAttribute("data-selected")) === "true")
        await tile.getByRole("button", { pressed: true }).click();
    const illustrations = page.locator("li[data-image-key]:not([data-image-key*='-u-'])");
    const third = (await illustrations.nth(2).getAttribute("data-image-key")) ?? "";
    const first = (await illustrations.nth(0).getAttribute("data-image-key")) ?? "";
    chosen.push(uploadedKey, third, first);
    for (const key of chosen) {
      const toggle = page.locator(`li[data-image-key="${key}"] button[aria-pressed]`);
      // Keyboard: focus the tile and press Space.
      await toggle.focus();
      await page.keyboard.press("Space");
    }
    await page.getByRole("button", { name: T.images.save }).click();
    await expect.poll(() => toastText(page)).toContain(T.images.savedTitle);
    await expectNoAxeViolations(page, "dashboard images (it)");

    await page.getByRole("button", { name: T.dashboard.logout }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/");
    await page.goto("/admin/dashboard");
    await expect.poll(() => new URL(page.url()).pathname).toBe("/onboard/verify");

    // The public page in Italian: the new text and the photos in the chosen order.
    const guest = await browser.newPage({ baseURL, locale: "it-IT" });
    await guest.goto(`/property/${ESTATE.slug}?lang=it`);
    await guest.getByText(NEW_DESCRIPTION).waitFor();
    expect(await publicGalleryKeys(guest)).toEqual(chosen);
    const variant = await fetch(`${baseURL}/media/${encodeURIComponent(uploadedKey)}/800.webp`);
    expect(variant.status).toBe(200);
    expect(variant.headers.get("content-type")).toBe("image/webp");
  });

  it("staff see the owner's revision and revert it; the public page shows the former text", async () => {
    const page = await browser.newPage({ baseURL });
    await page.goto(`/admin/login?redirectTo=/admin/estates/${ESTATE.id}`);
    await page.locator('input[name="email"]').fill(ADMIN.email);
    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/admin/estates/${ESTATE.id}`);
    const history = page.getByTestId("estate-history");
    const row = history.locator("tr", { hasText: NEW_DESCRIPTION.slice(0, 40) }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain(ESTATE.email);
    await expectNoAxeViolations(page, "staff estate page (en)");
    // Support: staff open the owner's dashboard and their change is recorded as staff's.
    await page.getByRole("link", { name: "Open the owner dashboard" }).click();
    await expect.poll(() => page.url()).toContain(`/admin/dashboard?estate=${ESTATE.id}`);
    await page.getByText(`You are looking at this estate as staff (${ADMIN.email})`).waitFor();
    await page.getByRole("tab", { name: "Overview" }).click();
    await page.getByTestId("edit-city").click();
    await page.getByTestId("editor-city").fill("Speyside");
    await page.getByTestId("save-city").click();
    await expect.poll(() => toastText(page)).toContain("Field updated");
    await page.getByRole("link", { name: "Back to estates" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/admin/estates/${ESTATE.id}`);
    const staffRow = history.locator("tr", { hasText: "Speyside" }).first();
    await staffRow.waitFor();
    expect(await staffRow.textContent()).toContain(ADMIN.email);

    await row.getByRole("button", { name: "Revert" }).click();
    await page.getByRole("button", { name: "Revert the change" }).click();
    await expect.poll(() => toastText(page)).toContain("Change reverted");

    const guest = await browser.newPage({ baseURL, locale: "it-IT" });
    await guest.goto(`/property/${ESTATE.slug}?lang=it`);
    await guest.getByText(NEW_LOCATION).first().waitFor();
    expect(await guest.getByText(NEW_DESCRIPTION).count()).toBe(0);
    expect(await publicGalleryKeys(guest)).toEqual(chosen);
  });

  it("re-running the demo seed changes nothing the owner did", async () => {
    await server?.stop();
    const seed = spawnSync(process.execPath, ["content/seed-cli.ts"], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", NODE_ENV: "production" },
      encoding: "utf8",
    });
    expect(seed.status, seed.stderr).toBe(0);
    expect(seed.stdout).toContain(`estate ${ESTATE.id}: location (it), edited by owner`);
    expect(seed.stdout).toContain(`estate ${ESTATE.id}: images, edited by owner`);
    baseURL = await start();
    const guest = await browser.newPage({ baseURL, locale: "it-IT" });
    await guest.goto(`/property/${ESTATE.slug}?lang=it`);
    await guest.getByText(NEW_LOCATION).first().waitFor();
    expect(await publicGalleryKeys(guest)).toEqual(chosen);
  });

  it("the owner pages pass axe in English, French and Chinese, and owner text is shown as text on every public page", async () => {
    const email = "ufficio@rocca-sartori.example";
    const page = await browser.newPage({ baseURL });
    // Verify and claim through the API in this browser context, so its cookies hold the session.
    const sent = await page.request.post("/api/property-owners/verify-email", { data: { email } });
    expect(await sent.json()).toEqual({ propertyFound: true, codeSent: true });
    await expect.poll(() => newestMailTo(email) ?? "", { timeout: 30_000 }).toMatch(/\d{6}/);
    const code = /\b(\d{6})\b/.exec(
      newestMailTo(email)!
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join("\n"),
    )?.[1];
    expect(
      (
        await page.request.post("/api/property-owners/verify-code", { data: { email, code } })
      ).status(),
    ).toBe(200);
    expect(
      (
        await page.request.post("/api/property-owners/claim-property", { data: { email } })
      ).status(),
    ).toBe(200);

    for (const language of ["en", "fr", "zh"]) {
      await page.goto(`/admin/dashboard?lang=${language}`);
      await page.getByRole("tab", { selected: true }).waitFor();
      await expectNoAxeViolations(page, `dashboard images (${language})`);
      await page.getByRole("tab", { selected: false }).first().click();
      await page.getByTestId("edit-description").waitFor();
      await expectNoAxeViolations(page, `dashboard overview (${language})`);
      await page.goto(`/onboard/verify?lang=${language}`);
      await page.getByRole("main").waitFor();
      await expectNoAxeViolations(page, `verify (${language})`);
    }

    const hostile = "<script>window.__owned=1</script> Padua";
    const saved = await page.request.post("/api/property-owners/update-property", {
      data: { field: "name", value: hostile, lang: "en" },
    });
    expect(saved.status()).toBe(200);
    const guest = await browser.newPage({ baseURL });
    for (const path of ["/castles?lang=en", "/property/padua?lang=en", "/booking/padua?lang=en"]) {
      await guest.goto(path);
      await guest.getByText(hostile).first().waitFor();
      expect(await guest.evaluate(() => (window as { __owned?: number }).__owned), path).toBe(
        undefined,
      );
    }
  });
});
