import { LANGUAGE_NAMES, type Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { type RequestKind, type RequestStatus, STATUS_KEYS } from "../requests/options.ts";
import { summarizeRequest, type SummaryRow } from "../requests/summary.ts";

/** Where staff mail goes and in which language, and the site's address for links. */
export interface StaffMailSettings {
  staffEmail: string;
  staffLanguage: Language;
  publicUrl: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export interface MailRequest {
  kind: RequestKind;
  reference: string;
  language: Language;
  firstName: string;
  lastName: string;
  email: string;
  details: Record<string, unknown>;
}

/**
 * The fields a mail to the guest's address may show: chosen, never typed (the estate comes
 * from the catalogue, dates are validated dates). Decision 0020.
 */
const CONFIRMATION_FIELDS = new Set([
  "property",
  "checkInDate",
  "checkOutDate",
  "startDate",
  "endDate",
]);

/**
 * The guest's confirmation, in the guest's language: the reference, the kind, the estate and
 * dates if any, what happens next and the status link. The address was typed into a form and
 * is not confirmed, so the mail carries nothing the sender wrote (no name, no free text): the
 * status page, which only the link opens, shows the rest (decision 0020).
 */
export function renderGuestConfirmation(
  request: MailRequest,
  statusUrl: string,
  publicUrl: string,
): RenderedMail {
  const t = (key: string, params: Record<string, unknown> = {}) =>
    translate(request.language, key, params);
  const kindName = t(`mail.kinds.${request.kind}`);
  const rows = summarizeRequest(request.kind, request.details, request.language, t).filter((row) =>
    CONFIRMATION_FIELDS.has(row.key),
  );
  const subject = t("mail.confirmation.subject", { kind: kindName, reference: request.reference });
  const paragraphs = [
    t("mail.confirmation.greeting"),
    t("mail.confirmation.received", { kind: kindName, reference: request.reference }),
    t(`mail.confirmation.next.${request.kind}`),
  ];
  const statusLine = t("mail.confirmation.statusLink");
  const closing = t("mail.confirmation.closing");
  const text = [
    ...paragraphs,
    ...(rows.length > 0
      ? ["", t("mail.summaryHeading"), ...rows.map((row) => `${row.label}: ${row.value}`)]
      : []),
    "",
    `${statusLine} ${statusUrl}`,
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
      ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
      ...(rows.length > 0
        ? [`<h2 style="font-size:16px">${escapeHtml(t("mail.summaryHeading"))}</h2>`, table(rows)]
        : []),
      `<p>${escapeHtml(statusLine)} <a href="${escapeHtml(statusUrl)}">${escapeHtml(statusUrl)}</a></p>`,
      `<p>${escapeHtml(t("mail.howToAnswer"))}</p>`,
      `<p>${escapeHtml(closing)}<br>${escapeHtml(t("mail.signature"))}</p>`,
    ].join("\n"),
  );
  return withPrivacyNotice({ subject, text, html }, request.language, publicUrl);
}

/**
 * The staff notification, with the guest's reply address, in the staff's configured language
 * (English unless told otherwise). The guest's own words in the summary stay as written.
 */
export function renderStaffNotification(
  request: MailRequest,
  staffLanguage: Language = "en",
  /** The request's details in the staff inbox. */
  detailsUrl: string | null = null,
): RenderedMail {
  const language = staffLanguage;
  const t = (key: string, params: Record<string, unknown> = {}) => translate(language, key, params);
  const kindName = t(`mail.kinds.${request.kind}`);
  const name = `${request.firstName} ${request.lastName}`;
  const rows: SummaryRow[] = [
    { key: "reference", label: t("mail.staff.reference"), value: request.reference },
    { key: "language", label: t("mail.staff.language"), value: LANGUAGE_NAMES[request.language] },
    ...summarizeRequest(request.kind, request.details, language, t),
  ];
  const subject = t("mail.staff.subject", { kind: kindName, reference: request.reference, name });
  const intro = t("mail.staff.intro", { kind: kindName, name, email: request.email });
  const open = detailsUrl ? t("staff.lifecycle.mail.open") : null;
  const text = [
    intro,
    "",
    ...rows.map((row) => `${row.label}: ${row.value}`),
    ...(open ? ["", `${open} ${detailsUrl}`] : []),
  ].join("\n");
  const html = layout(
    language,
    subject,
    `<p>${escapeHtml(intro)}</p>\n${table(rows)}` +
      (open ? `\n${linkParagraph(open, detailsUrl)}` : ""),
  );
  return { subject, text, html };
}

function linkParagraph(label: string, url: string | null): string {
  const href = escapeHtml(url ?? "");
  return `<p>${escapeHtml(label)} <a href="${href}">${href}</a></p>`;
}

/**
 * Reminds staff, in STAFF_LANGUAGE, that a request is still unanswered with a quarter of its
 * window left, with a link to its details in the inbox.
 */
export function renderStaffReminder(
  request: Pick<MailRequest, "kind" | "reference" | "firstName" | "lastName"> & { dueAt: Date },
  language: Language,
  detailsUrl: string,
): RenderedMail {
  const t = (key: string, params: Record<string, unknown> = {}) => translate(language, key, params);
  const kindName = t(`mail.kinds.${request.kind}`);
  const name = `${request.firstName} ${request.lastName}`;
  const due = `${request.dueAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const subject = t("staff.lifecycle.mail.reminderSubject", {
    kind: kindName,
    reference: request.reference,
  });
  const body = t("staff.lifecycle.mail.reminderBody", {
    kind: kindName,
    reference: request.reference,
    name,
    due,
  });
  const open = t("staff.lifecycle.mail.open");
  const text = [body, "", `${open} ${detailsUrl}`].join("\n");
  const html = layout(
    language,
    subject,
    `<p>${escapeHtml(body)}</p>\n${linkParagraph(open, detailsUrl)}`,
  );
  return { subject, text, html };
}

/**
 * Tells the guest, in their language, that their request was closed because no one could
 * confirm it in time. Only the token's hash is stored, so the mail points to the
 * status link of their confirmation mail.
 */
export function renderExpiry(request: MailRequest, publicUrl: string): RenderedMail {
  const t = (key: string, params: Record<string, unknown> = {}) =>
    translate(request.language, key, params);
  const kindName = t(`mail.kinds.${request.kind}`);
  const subject = t("lifecycle.mail.subject", { kind: kindName, reference: request.reference });
  const paragraphs = [
    t("mail.confirmation.greeting"),
    t("lifecycle.mail.body", { kind: kindName, reference: request.reference }),
    t("lifecycle.expiredReason"),
    t("lifecycle.mail.next"),
    t("mail.statusChange.statusLinkInConfirmation"),
  ];
  const closing = t("mail.confirmation.closing");
  const text = [...paragraphs, "", t("mail.howToAnswer"), "", closing, t("mail.signature")].join(
    "\n",
  );
  const html = layout(
    request.language,
    subject,
    [
      ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
      `<p>${escapeHtml(t("mail.howToAnswer"))}</p>`,
      `<p>${escapeHtml(closing)}<br>${escapeHtml(t("mail.signature"))}</p>`,
    ].join("\n"),
  );
  return withPrivacyNotice({ subject, text, html }, request.language, publicUrl);
}

/**
 * The translation key (under `mail.statuses`) of a stored status: "In progress" → "inProgress".
 * Stored statuses contain spaces, which i18next keys should not.
 */
export function statusKey(status: string): string {
  return STATUS_KEYS[status as RequestStatus] ?? status;
}

/** Statuses with a line of their own in the status-change mail; any other gets the generic one. */
const STATUS_LINES = new Set(["confirmed", "accepted", "rejected", "declined"]);

/**
 * Tells the guest, in the guest's language, that staff changed the status of their request:
 * the new status by its translated name, the reason when staff chose to share one, a line for
 * what the status means and where to follow the request. `statusUrl` is null when the sender
 * cannot rebuild the link (only the token's hash is stored): the mail then points the guest to
 * the link in their confirmation mail.
 */
export function renderStatusChange(
  request: MailRequest,
  change: { status: string; reason?: string | null },
  statusUrl: string | null,
  publicUrl: string,
): RenderedMail {
  const t = (key: string, params: Record<string, unknown> = {}) =>
    translate(request.language, key, params);
  const kindName = t(`mail.kinds.${request.kind}`);
  const key = statusKey(change.status);
  // An unknown status is shown as stored rather than as a missing-key path.
  const statusName = t(`mail.statuses.${key}`, { defaultValue: change.status });
  const reason = change.reason?.trim() ? change.reason.trim() : null;
  const subject = t("mail.statusChange.subject", {
    kind: kindName,
    reference: request.reference,
    status: statusName,
  });
  // No name: the guest's address is not confirmed (decision 0020).
  const greeting = t("mail.confirmation.greeting");
  const changed = t("mail.statusChange.changed", {
    kind: kindName,
    reference: request.reference,
    status: statusName,
  });
  const reasonLine = reason ? t("mail.statusChange.reason", { reason }) : null;
  const meaning = t(`mail.statusChange.meaning.${STATUS_LINES.has(key) ? key : "other"}`);
  const statusLine = statusUrl
    ? t("mail.confirmation.statusLink")
    : t("mail.statusChange.statusLinkInConfirmation");
  const closing = t("mail.confirmation.closing");
  const text = [
    greeting,
    changed,
    ...(reasonLine ? [reasonLine] : []),
    meaning,
    "",
    statusUrl ? `${statusLine} ${statusUrl}` : statusLine,
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
      `<p>${escapeHtml(changed)}</p>`,
      // The reason is staff's own text and may run over several lines.
      ...(reasonLine ? [`<p style="white-space:pre-wrap">${escapeHtml(reasonLine)}</p>`] : []),
      `<p>${escapeHtml(meaning)}</p>`,
      statusUrl
        ? `<p>${escapeHtml(statusLine)} <a href="${escapeHtml(statusUrl)}">${escapeHtml(statusUrl)}</a></p>`
        : `<p>${escapeHtml(statusLine)}</p>`,
      `<p>${escapeHtml(t("mail.howToAnswer"))}</p>`,
      `<p>${escapeHtml(closing)}<br>${escapeHtml(t("mail.signature"))}</p>`,
    ].join("\n"),
  );
  return withPrivacyNotice({ subject, text, html }, request.language, publicUrl);
}

/**
 * `mail` with the privacy notice's line at its end, in the mail's language: every mail to a
 * guest ends so (staff and owner mail does not; the notice is about the guest's data).
 */
export function withPrivacyNotice(
  mail: RenderedMail,
  language: Language,
  publicUrl: string,
): RenderedMail {
  const label = translate(language, "privacyNotice.link");
  const url = `${publicUrl}/privacy?lang=${language}`;
  const html = `<p style="font-size:12px;color:#57534e"><a href="${escapeHtml(url)}" style="color:#57534e">${escapeHtml(label)}</a></p>`;
  return {
    subject: mail.subject,
    text: `${mail.text}\n\n${label}: ${url}`,
    html: mail.html.replace(/\n<\/body><\/html>$/, `\n${html}\n</body></html>`),
  };
}

function table(rows: SummaryRow[]): string {
  const body = rows
    .map(
      (row) =>
        `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0;color:#555">${escapeHtml(row.label)}</th>` +
        `<td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(row.value)}</td></tr>`,
    )
    .join("\n");
  return `<table role="presentation" style="border-collapse:collapse;font-size:14px">\n${body}\n</table>`;
}

export function layout(language: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="${escapeHtml(language)}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:Georgia,serif;color:#1f2a24;max-width:640px;margin:0 auto;padding:24px">
${body}
</body></html>`;
}

/** A moment as mail and documents sent to a guest write it: "29 November 2026 at 17:51 UTC". */
export function longMomentUtc(language: string, iso: string): string {
  return `${new Intl.DateTimeFormat(language, {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(new Date(iso))} UTC`;
}

/** Text into HTML: every character that could open markup becomes an entity. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/**
 * A mail that states facts as a table between an introduction and a request to act, with one
 * link and the signature: the same in text and HTML, so each template only says what it holds.
 */
export function factsMail(mail: {
  language: string;
  subject: string;
  intro: string;
  rows: [label: string, value: string][];
  ask: string;
  linkLabel: string;
  url: string;
  signature: string;
}): RenderedMail {
  const { language, subject, intro, rows, ask, linkLabel, url, signature } = mail;
  const text = [
    intro,
    "",
    ...rows.map(([label, value]) => `${label}: ${value}`),
    "",
    ask,
    `${linkLabel} ${url}`,
    "",
    signature,
  ].join("\n");
  const table = rows
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding:4px 12px 4px 0;color:#555">${escapeHtml(label)}</th>` +
        `<td style="padding:4px 0">${escapeHtml(value)}</td></tr>`,
    )
    .join("\n");
  const html = layout(
    language,
    subject,
    [
      `<p>${escapeHtml(intro)}</p>`,
      `<table role="presentation" style="border-collapse:collapse;font-size:14px">\n${table}\n</table>`,
      `<p>${escapeHtml(ask)}</p>`,
      `<p><a href="${escapeHtml(url)}">${escapeHtml(linkLabel)}</a></p>`,
      `<p>${escapeHtml(signature)}</p>`,
    ].join("\n"),
  );
  return { subject, text, html };
}
