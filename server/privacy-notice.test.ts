import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { PRIVACY_NOTICE } from "#content/site-content.ts";
import { mailOutbox } from "#db/schema/index.ts";
import { LANGUAGE_TAGS, LANGUAGES } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { submitGuestForm, validBookingRequest } from "#tests/setup/intake.ts";
import { servePages } from "#tests/setup/pages.ts";

/** The operator's address, unlike the default one, so the page must have read the setting. */
const CONTACT = "dpo@operator.test";

/** The form notice's paragraph holds a link to the notice, with its text inside the link. */
const FORM_NOTICE_LINK =
  /data-testid="privacy-form-notice">(?:(?!<\/p>)[\s\S])*href="\/privacy"[^>]*>[^<]+<\/a>/;

/**
 * The privacy notice at /privacy, in each language with the operator's contact address, and the
 * links to it from everywhere a guest gives us data: the three forms, the status page, the
 * footer and the guest's mails.
 */
describeEachBackend("the privacy notice", (database) => {
  const site = servePages(() => database().deps, {
    env: {
      PRIVACY_CONTACT_EMAIL: CONTACT,
      GUEST_DATA_RETENTION_DAYS: 400,
      FINANCIAL_RECORDS_YEARS: 6,
    },
  });
  const page = async (path: string) => {
    const answer = await fetch(`${site.url()}${path}`);
    expect(answer.status, path).toBe(200);
    return answer.text();
  };

  it.each(LANGUAGES)("names PRIVACY_CONTACT_EMAIL as a mail link, in %s", async (language) => {
    const html = await page(`/privacy?lang=${language}`);
    expect(html).toMatch(new RegExp(`<html[^>]* lang="${LANGUAGE_TAGS[language]}"`));
    expect(html).toContain(translate(language, "privacyNotice.title"));
    for (const section of PRIVACY_NOTICE.sections) expect(html).toContain(section.title[language]);
    expect(html).toContain(`href="mailto:${CONTACT}"`);
    expect(html).not.toContain("privacy@castellum.example");
    for (const placeholder of ["contactEmail", "retention", "financialRecords"])
      expect(html).not.toContain(`{{${placeholder}}}`);
    expect(html).toContain(`dateTime="${PRIVACY_NOTICE.updated}"`);
  });

  it("says the periods the operator set, not figures written into the text", async () => {
    // Intl puts a no-break space between a number and its unit in French.
    const text = async (language: string) =>
      (await page(`/privacy?lang=${language}`)).replace(/[\u00a0\u202f]/g, " ");
    const found = (html: string, phrase: string) => (html.includes(phrase) ? phrase : html.length);
    const en = await text("en");
    expect(found(en, "erased 400 days after")).toBe("erased 400 days after");
    expect(found(en, "keep them for 6 years")).toBe("keep them for 6 years");
    const fr = await text("fr");
    expect(found(fr, "effacées 400 jours après")).toBe("effacées 400 jours après");
    expect(found(await text("zh"), "保存6年")).toBe("保存6年");
  });

  it("is linked under the submit button of the three guest forms, and from the footer", async () => {
    const forms = [
      "/booking-request",
      "/membership",
      `/booking/${demoEstate("gordon-castle").slug}`,
    ];
    for (const path of forms) expect(await page(`${path}?lang=fr`), path).toMatch(FORM_NOTICE_LINK);
    const footer = (await page("/faqs")).split("<footer")[1] ?? "";
    expect(footer).toContain('href="/privacy"');
  });

  it("is linked from the guest's status page and at the end of the guest's mail", async () => {
    const email = "privacy-guest@example.com";
    await submitGuestForm(site.url(), "/booking-requests", validBookingRequest({ email }), "it");
    await site.services().mailWorker.runNow();
    const [mail] = await database()
      .deps.db.select({ text: mailOutbox.text })
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, email));
    // The guest wrote in Italian: the mail ends with the Italian notice.
    expect(mail?.text.trimEnd().split("\n").at(-1)).toBe(
      `${translate("it", "privacyNotice.link")}: http://localhost/privacy?lang=it`,
    );
    const token = mail?.text.match(/\/requests\/([A-Za-z0-9_-]{32})/)?.[1];
    expect(token).toBeDefined();
    const status = await page(`/requests/${token}`);
    expect(status).toMatch(
      /<a(?=[^>]*href="\/privacy")(?=[^>]*data-testid="status-privacy-link")[^>]*>/,
    );
  });
});
