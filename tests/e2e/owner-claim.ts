import type { Page } from "playwright-core";
import { expect } from "vitest";
import type enOwner from "#i18n/locales/en/owner.json";

/** The verify page's texts in the language the owner reads it in. */
type VerifyTexts = Pick<
  (typeof enOwner)["verify"],
  "emailLabel" | "submitEmail" | "codeLabel" | "submitCode" | "submitClaim"
>;

/** The six-digit code in a mail's body (not in its headers). */
const codeOf = (mail: string) =>
  /\b(\d{6})\b/.exec(
    mail
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join("\n"),
  )?.[1];

/**
 * An estate's owner claims it through the pages, as an owner does: their email, the code from
 * the next mail to it (earlier ones may be requests' mails), the claim; they land on the
 * dashboard. `start` may be a page that sends a signed-out owner to the verify page.
 */
export async function claimEstateByMail(
  page: Page,
  input: {
    email: string;
    mailsTo: (address: string) => string[];
    texts: VerifyTexts;
    start: string;
  },
): Promise<void> {
  const { email, mailsTo, texts } = input;
  await page.goto(input.start);
  const main = page.getByRole("main");
  await main.getByLabel(texts.emailLabel, { exact: true }).fill(email);
  const before = mailsTo(email).length;
  await page.getByRole("button", { name: texts.submitEmail, exact: true }).click();
  await main.getByLabel(texts.codeLabel, { exact: true }).waitFor();
  let code: string | undefined;
  await expect
    .poll(() => (code = mailsTo(email).slice(before).map(codeOf).find(Boolean)), {
      timeout: 30_000,
    })
    .toBeDefined();
  await main.getByLabel(texts.codeLabel, { exact: true }).fill(code!);
  await page.getByRole("button", { name: texts.submitCode, exact: true }).click();
  await page.getByRole("button", { name: texts.submitClaim, exact: true }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/dashboard");
}
