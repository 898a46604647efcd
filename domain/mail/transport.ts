import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";

export interface OutgoingMail {
  /** The outbox id; also the Message-ID, so a retried send is recognisably the same mail. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends one mail or throws; the outbox decides what a failure means. */
export interface MailTransport {
  readonly description: string;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface MailTransportOptions {
  from: string;
  /** Send through this SMTP server (smtp:// or smtps://, credentials in the URL). */
  smtpUrl?: string;
  /** Otherwise write each mail as an .eml file in this folder. */
  directory: string;
  /** Domain of Message-IDs (the public host). */
  messageIdDomain: string;
}

export function createMailTransport(options: MailTransportOptions): MailTransport {
  const envelope = (mail: OutgoingMail) => ({
    from: options.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: `<${mail.id}@${options.messageIdDomain}>`,
  });

  if (options.smtpUrl) {
    const transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      description: `smtp ${new URL(options.smtpUrl).host}`,
      async send(mail) {
        await transporter.sendMail(envelope(mail));
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
