import type { Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { escapeHtml, longMomentUtc } from "../mail/templates.ts";
import { REQUEST_KINDS, type RequestKind } from "../requests/options.ts";
import { summarizeRequest } from "../requests/summary.ts";
import type { PersonalDataReport } from "./access.ts";

/**
 * The copy of a guest's data an admin sends them (GDPR art. 15), as one HTML file in the guest's
 * language: readable in any browser or mail client, printable, and whole without the site (no
 * script, no outside stylesheet or image). Every value the guest or staff wrote is escaped.
 */
export function personalDataDocument(
  report: PersonalDataReport,
  input: { language: Language; madeAt: Date; contactEmail: string },
): string {
  const { language } = input;
  const t = (key: string, params: Record<string, unknown> = {}) =>
    translate(language, `staff.privacy.document.${key}`, params);
  const common = (key: string) => translate(language, key);
  const moment = (iso: string | null) => (iso ? longMomentUtc(language, iso) : "");
  const row = (label: string, value: string) =>
    `<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`;
  const table = (head: string[], rows: string[][]) =>
    `<table><thead><tr>${head.map((cell) => `<th scope="col">${escapeHtml(cell)}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.map((cells) => `<tr>${cells.map((cell) => `<td>${escapeHtml(cell)}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
  const section = (title: string, body: string) =>
    `<section><h2>${escapeHtml(title)}</h2>${body}</section>`;
  const none = `<p class="none">${escapeHtml(t("none"))}</p>`;

  const requests = report.requests.map((request) => {
    const kind = (REQUEST_KINDS as readonly string[]).includes(request.kind)
      ? (request.kind as RequestKind)
      : null;
    const fields = kind
      ? summarizeRequest(kind, request.details, language, (key, params) =>
          translate(language, key, params),
        )
      : [];
    return (
      `<article><h3>${escapeHtml(t("request", { reference: request.reference }))}</h3><table><tbody>` +
      row(t("kind"), kind ? common(`mail.kinds.${kind}`) : request.kind) +
      row(t("status"), translate(language, `requestStatus.statuses.${request.status}`)) +
      row(t("sent"), moment(request.createdAt)) +
      row(t("changed"), moment(request.updatedAt)) +
      fields.map((field) => row(field.label, field.value)).join("") +
      `</tbody></table></article>`
    );
  });

  const author = (value: string) => t(value === "guest" ? "authorGuest" : "authorStaff");
  const body = [
    `<h1>${escapeHtml(t("title"))}</h1>`,
    `<p>${escapeHtml(t("intro", { email: report.email, date: moment(input.madeAt.toISOString()) }))}</p>`,
    section(t("requests"), requests.length ? requests.join("") : none),
    section(
      t("messages"),
      report.messages.length
        ? table(
            [t("date"), t("reference"), t("author"), t("text")],
            report.messages.map((message) => [
              moment(message.createdAt),
              message.reference,
              author(message.author),
              message.body,
            ]),
          )
        : none,
    ),
    section(
      t("mails"),
      report.mails.length
        ? table(
            [t("date"), t("reference"), t("subject"), t("delivered")],
            report.mails.map((mail) => [
              moment(mail.createdAt),
              mail.reference ?? "",
              mail.subject,
              mail.sentAt ? moment(mail.sentAt) : t("notSent"),
            ]),
          )
        : none,
    ),
    section(
      t("ownerViews"),
      report.ownerViews.length
        ? `<p>${escapeHtml(t("ownerViewsIntro"))}</p>` +
            table(
              [t("date"), t("reference"), t("ownerView"), t("note")],
              report.ownerViews.map((view) => [
                moment(view.createdAt),
                view.reference,
                t(view.agree ? "ownerAgreed" : "ownerDisagreed"),
                view.note ?? "",
              ]),
            )
        : none,
    ),
    section(
      t("events"),
      report.events.length
        ? `<p>${escapeHtml(t("eventsIntro"))}</p>` +
            table(
              [t("date"), t("reference"), t("event")],
              report.events.map((event) => [
                moment(event.occurredAt),
                event.reference ?? "",
                translate(language, `staff.webhooks.eventNames.${event.type}`, {
                  defaultValue: event.type,
                }),
              ]),
            )
        : none,
    ),
    section(t("rightsTitle"), `<p>${escapeHtml(t("rights", { contact: input.contactEmail }))}</p>`),
  ].join("\n");

  return `<!doctype html>
<html lang="${language === "zh" ? "zh-Hans" : language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(t("title"))}</title>
<style>
body{font-family:Georgia,"Noto Serif","Noto Serif CJK SC",serif;color:#1f1a17;background:#faf6ee;max-width:60rem;margin:0 auto;padding:2rem 1rem;line-height:1.5}
h1,h2,h3{color:#1e3a34}
h2{border-bottom:1px solid #b8955a;padding-bottom:.25rem;margin-top:2.5rem}
table{border-collapse:collapse;width:100%;margin:.75rem 0 1.5rem}
th,td{border:1px solid #d9cdb5;padding:.4rem .6rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f0e8d8;font-weight:600}
tbody th{width:30%}
td{white-space:pre-wrap}
.none{color:#6b625a;font-style:italic}
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
