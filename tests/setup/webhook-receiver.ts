import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { ROOT_DIR } from "./database.ts";

/** One POST the receiver got. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingMessage["headers"];
  /** The raw body, as the signature covers it. */
  body: string;
  /** What the receiver answered. */
  answered: number;
}

export type ReceiverMode = "ok" | "fail" | { redirectTo: string };

/**
 * A webhook receiver on this machine: records every POST and answers 204, or 500 in `fail`
 * mode, or a redirect. `refuse()` stops listening (connections are refused) and `listen()`
 * comes back on the same port, for outages.
 */
export class WebhookReceiver {
  private server: Server | undefined;
  private port = 0;
  mode: ReceiverMode = "ok";
  readonly received: ReceivedWebhook[] = [];

  url(path = "/hook"): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  private handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const mode = this.mode;
      const answered = mode === "ok" ? 204 : mode === "fail" ? 500 : 307;
      this.received.push({
        path: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        answered,
      });
      res.writeHead(answered, typeof mode === "object" ? { Location: mode.redirectTo } : {});
      res.end();
    });
  }

  async listen() {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Stops listening: deliveries meet a refused connection until `listen()`. */
  async refuse() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
    this.server = undefined;
  }

  /** The POSTs answered 2xx, by event id. */
  deliveredIds(): string[] {
    return this.received
      .filter((hit) => hit.answered < 300)
      .map((hit) => String(hit.headers["castellum-event-id"]));
  }
}

/** A receiver started and stopped with the suite. */
export function serveWebhookReceiver(): WebhookReceiver {
  const receiver = new WebhookReceiver();
  beforeAll(() => receiver.listen());
  afterAll(() => receiver.refuse());
  return receiver;
}

type Verify = (secret: string, header: string, rawBody: string) => boolean;

/**
 * The signature check exactly as docs/webhooks.md gives it to receivers: the code block marked
 * `js webhook-verify` is written to a module and imported, so the documented recipe is tested.
 */
export async function documentedVerify(): Promise<Verify> {
  const docs = readFileSync(join(ROOT_DIR, "docs/webhooks.md"), "utf8");
  const code = /```js webhook-verify\n([\s\S]*?)```/.exec(docs)?.[1];
  if (!code) throw new Error("docs/webhooks.md has no `js webhook-verify` block");
  const file = join(tmpdir(), `castellum-webhook-verify-${process.pid}-${Date.now()}.mjs`);
  writeFileSync(file, code);
  const module = (await import(file)) as { verifyCastellum: Verify };
  return module.verifyCastellum;
}
