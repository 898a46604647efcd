import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface OutgoingMail {
  /** The outbox id; also the Message-ID, so a retried send is recognisably the same mail. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
}

/**
 * Why a send failed, as the outbox needs to know it:
 * - `unreachable`: the relay could not be reached or talked to (refused connection, timeout,
 *   a dropped session, TLS or login failure, 421 "service not available"). Nothing is wrong
 *   with the mail: every mail would fail the same way until the relay is back.
 * - `rejected`: the relay answered this mail with a permanent refusal (5xx but 503), such as
 *   an unknown recipient. Sending it again would get the same answer.
 * - `transient`: anything else (a 4xx for this mail, an unexpected reply): worth a retry.
 */
export type MailFailureKind = "unreachable" | "rejected" | "transient";

export class MailSendError extends Error {
  override readonly name = "MailSendError";
  readonly kind: MailFailureKind;
  constructor(kind: MailFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

/** Sends one mail or throws (a MailSendError when it can tell why); the outbox decides what a failure means. */
export interface MailTransport {
  readonly description: string;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * Error codes nodemailer gives when the session itself failed, not the mail: no mail can go
 * until the relay (or its login) works again, whatever reply code came with the error.
 */
const RELAY_FAILURE_CODES = new Set([
  "ECONNECTION",
  "ETIMEDOUT",
  "ESOCKET",
  "EDNS",
  "ETLS",
  "EAUTH",
  "ENOAUTH",
  "EOAUTH2",
  "EPROXY",
  "ECONNREFUSED",
  "ECONNRESET",
]);

/** Sorts an SMTP client's error into the three kinds the outbox tells apart. */
export function classifySmtpError(error: unknown): MailSendError {
  const details = (error ?? {}) as { code?: unknown; responseCode?: unknown; message?: unknown };
  const code = typeof details.code === "string" ? details.code : undefined;
  const responseCode = typeof details.responseCode === "number" ? details.responseCode : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const kind: MailFailureKind =
    responseCode === 421 || (code !== undefined && RELAY_FAILURE_CODES.has(code))
      ? "unreachable"
      : responseCode !== undefined &&
          responseCode >= 500 &&
          responseCode < 600 &&
          responseCode !== 503
        ? "rejected"
        : "transient";
  return new MailSendError(kind, message, { cause: error });
}

export interface MailTransportOptions {
  from: string;
  /**
   * Where a reply goes (STAFF_EMAIL): `from` is a no-reply address, so a guest's answer by
   * mail reaches the staff's inbox. Not set on mail to that address itself.
   */
  replyTo?: string;
  /** Send through this SMTP server (smtp:// or smtps://, credentials in the URL). */
  smtpUrl?: string;
  /** Otherwise write each mail as an .eml file in this folder. */
  directory: string;
  /** Domain of Message-IDs (the public host). */
  messageIdDomain: string;
  /**
   * SMTP sessions kept open to the relay and used side by side (default 4). Each mail over a
   * fresh session costs a TCP and SMTP handshake; a pool sends a backlog many times faster.
   */
  smtpConnections?: number;
}

export function createMailTransport(options: MailTransportOptions): MailTransport {
  const envelope = (mail: OutgoingMail) => ({
    from: options.from,
    to: mail.to,
    ...(options.replyTo && mail.to.toLowerCase() !== options.replyTo.toLowerCase()
      ? { replyTo: options.replyTo }
      : {}),
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    ...(mail.attachments?.length ? { attachments: mail.attachments } : {}),
    messageId: `<${mail.id}@${options.messageIdDomain}>`,
  });

  if (options.smtpUrl) {
    const transporter = nodemailer.createTransport({
      url: options.smtpUrl,
      pool: true,
      maxConnections: options.smtpConnections ?? 4,
      // A stalled relay must not hold a sender for nodemailer's default of minutes.
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
    });
    return {
      description: `smtp ${new URL(options.smtpUrl).host}`,
      async send(mail) {
        try {
          await transporter.sendMail(envelope(mail));
        } catch (error) {
          throw classifySmtpError(error);
        }
      },
      close: () => transporter.close(),
    };
  }

  const writer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "unix",
  });
  return {
    description: `files ${options.directory}`,
    async send(mail) {
      const info = await writer.sendMail(envelope(mail));
      mkdirSync(options.directory, { recursive: true });
      const file = join(options.directory, `${mail.id}.eml`);
      // Written whole, then renamed: a reader never sees half a mail.
      writeFileSync(`${file}.tmp`, info.message as Buffer);
      renameSync(`${file}.tmp`, file);
    },
    close: () => writer.close(),
  };
}
