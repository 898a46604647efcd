import type { Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { escapeHtml, layout, type RenderedMail } from "../mail/templates.ts";

/** The mail with an owner's one-time code, in the language of the page that asked for it. */
export function renderOwnerCode(language: Language, code: string, minutes: number): RenderedMail {
  const t = (key: string, params: Record<string, unknown> = {}) => translate(language, key, params);
  const subject = t("owner.mail.code.subject", { code });
  const greeting = t("owner.mail.code.greeting");
  const body = t("owner.mail.code.body", { code, minutes });
  const text = [greeting, "", body, "", t("mail.signature")].join("\n");
  const html = layout(
    language,
    subject,
    [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p style="font-size:28px;letter-spacing:6px;font-family:monospace">${escapeHtml(code)}</p>`,
      `<p>${escapeHtml(body)}</p>`,
      `<p>${escapeHtml(t("mail.signature"))}</p>`,
    ].join("\n"),
  );
  return { subject, text, html };
}
