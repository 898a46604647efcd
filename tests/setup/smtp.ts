import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server in this process that keeps what it receives; can be stopped and restarted. */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  port = 0;
  private server: SMTPServer | undefined;

  /** Called with each mail as it arrives (the browser journeys write them to files). */
  onMail?: (mail: ReceivedMail) => void;

  /**
   * Answers RCPT TO with this SMTP reply when it returns one (a relay refusing a recipient,
   * for good with 5xx or for now with 4xx); undefined accepts the recipient.
   */
  refuseRecipient?: (address: string) => { code: number; message: string } | undefined;

  async start(port = 0): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      // Stopping ends the sessions a pooled client keeps open after half a second (421),
      // as a relay going down would, instead of waiting 30 s for the client to leave.
      closeTimeout: 500,
      onRcptTo: (address, _session, callback) => {
        const refusal = this.refuseRecipient?.(address.address);
        if (!refusal) return callback();
        callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const mail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          };
          this.received.push(mail);
          this.onMail?.(mail);
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
    this.server = server;
    this.port = (server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The received mails to `address`. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to.includes(address));
  }
}
