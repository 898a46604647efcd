import type { Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { escapeHtml, layout, type RenderedMail } from "../mail/templates.ts";
import type { RequestKind } from "../requests/options.ts";

/**
 * A staff message to the guest, in the guest's language: who wrote, the text as written (plain
 * text: escaped in the HTML part), and the status link where the guest reads the thread and
 * replies. Without a link (a request sent before links were kept) it points to the
 * confirmation mail.
 */
export function renderStaffMessage(
  request: { kind: RequestKind; reference: string; language: Language; firstName: string },
  message: { body: string; authorName: string },
  statusUrl: string | null,
): RenderedMail {
  const t = (key: string, params: Record<string, unknown> = {}) =>
    translate(request.language, key, params);
  const kind = t(`mail.kinds.${request.kind}`);
  const subject = t("conversation.mail.subject", { kind, reference: request.reference });
  // No name: the guest's address is not confirmed (decision 0020).
  const greeting = t("mail.confirmation.greeting");
  const intro = t("conversation.mail.intro", {
    name: message.authorName,
    kind,
    reference: request.reference,
  });
  const reply = statusUrl ? t("conversation.mail.reply") : t("conversation.mail.replyNoLink");
  const closing = t("mail.confirmation.closing");
  const text = [
    greeting,
    intro,
    "",
    message.body,
    "",
    statusUrl ? `${reply} ${statusUrl}` : reply,
    "",
    t("mail.howToAnswer"),
    "",
    closing,
    t("mail.signature"),
  ].join("\n");
  const html = layout(
    request.language,
    subject,
    [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      `<blockquote style="white-space:pre-wrap;border-left:3px solid #b8975a;margin:16px 0;padding:4px 12px">${escapeHtml(message.body)}</blockquote>`,
      statusUrl
        ? `<p>${escapeHtml(reply)} <a href="${escapeHtml(statusUrl)}">${escapeHtml(statusUrl)}</a></p>`
        : `<p>${escapeHtml(reply)}</p>`,
      `<p>${escapeHtml(t("mail.howToAnswer"))}</p>`,
      `<p>${escapeHtml(closing)}<br>${escapeHtml(t("mail.signature"))}</p>`,
    ].join("\n"),
  );
  return { subject, text, html };
}
