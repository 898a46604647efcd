import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * Stripe cannot be reached from here: this local server answers the one call Castellum makes
 * (`POST /v1/checkout/sessions`, as the official client sends it) and plays the hosted checkout
 * page a guest would pay on. Paying there sends the signed `checkout.session.completed` notice
 * to Castellum, signed by the official package's own test signer, then returns the guest to the
 * success address, as Stripe does. The same idempotency key answers the same session.
 */

export const STAND_IN_SECRET_KEY = "sk_test_castellum_stand_in";
export const STAND_IN_WEBHOOK_SECRET = "whsec_castellum_stand_in";

export interface StandInSession {
  id: string;
  object: "checkout.session";
  url: string;
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  client_reference_id: string | null;
  payment_status: "unpaid" | "paid";
  status: "open" | "complete";
  success_url: string;
  cancel_url: string;
  mode: "payment";
}

/** Reads `a[b][c]=v` form fields, as the Stripe client encodes its parameters, into objects. */
function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node = out as Record<string, unknown>;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return out;
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });

export class StripeStandIn {
  url = "";
  /** Where the signed notices go: Castellum's `/api/payments/stripe`. */
  webhookUrl = "";
  readonly sessions = new Map<string, StandInSession>();
  /** Every create call received, with its idempotency key. */
  readonly calls: { idempotencyKey: string | undefined; authorization: string | undefined }[] = [];
  private server: Server | undefined;
  private readonly byKey = new Map<string, string>();
  private readonly signer = new Stripe(STAND_IN_SECRET_KEY);

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        ({ status, type, body, location }) => {
          res.writeHead(status, {
            "Content-Type": type,
            ...(location ? { Location: location } : {}),
          });
          res.end(body);
        },
        (error: Error) => {
          res.writeHead(500, { "Content-Type": "text/plain" });
          res.end(error.message);
        },
      );
    });
    this.server.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => this.server!.once("listening", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private async handle(
    req: IncomingMessage,
  ): Promise<{ status: number; type: string; body: string; location?: string }> {
    const path = new URL(req.url ?? "/", this.url).pathname;
    if (req.method === "POST" && path === "/v1/checkout/sessions") {
      const key = req.headers["idempotency-key"] as string | undefined;
      this.calls.push({ idempotencyKey: key, authorization: req.headers.authorization });
      const known = key ? this.byKey.get(key) : undefined;
      if (known) return json(this.sessions.get(known));
      const form = parseForm(await read(req)) as {
        line_items: Record<string, { price_data: { currency: string; unit_amount: string } }>;
        metadata?: Record<string, string>;
        client_reference_id?: string;
        success_url: string;
        cancel_url: string;
      };
      const item = form.line_items["0"]!.price_data;
      const id = `cs_test_${randomBytes(12).toString("hex")}`;
      const session: StandInSession = {
        id,
        object: "checkout.session",
        url: `${this.url}/pay/${id}`,
        amount_total: Number(item.unit_amount),
        currency: item.currency,
        metadata: form.metadata ?? {},
        client_reference_id: form.client_reference_id ?? null,
        payment_status: "unpaid",
        status: "open",
        success_url: form.success_url,
        cancel_url: form.cancel_url,
        mode: "payment",
      };
      this.sessions.set(id, session);
      if (key) this.byKey.set(key, id);
      return json(session);
    }
    const page = /^\/pay\/([\w]+)$/.exec(path);
    if (req.method === "GET" && page) {
      const session = this.sessions.get(page[1]!);
      if (!session) return { status: 404, type: "text/plain", body: "no such session" };
      const amount = (session.amount_total / 100).toFixed(2);
      return {
        status: 200,
        type: "text/html; charset=utf-8",
        body: `<!doctype html><html lang="en"><head><title>Test checkout</title></head><body><main><h1>Test checkout</h1><p>${amount} ${session.currency.toUpperCase()}</p><form method="post" action="/pay/${session.id}"><button type="submit">Pay</button></form></main></body></html>`,
      };
    }
    if (req.method === "POST" && page) {
      const session = await this.complete(page[1]!);
      return { status: 303, type: "text/plain", body: "", location: session.success_url };
    }
    return { status: 404, type: "text/plain", body: "not found" };
  }

  /** The session paid, and its notice delivered to Castellum; answers the session. */
  async complete(sessionId: string): Promise<StandInSession> {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    session.payment_status = "paid";
    session.status = "complete";
    await this.deliver(this.completedEvent(session));
    return session;
  }

  /** The notice Stripe sends when a session is paid. */
  completedEvent(session: StandInSession, created = Math.floor(Date.now() / 1000)) {
    return {
      id: `evt_${randomBytes(12).toString("hex")}`,
      object: "event",
      type: "checkout.session.completed",
      created,
      data: { object: { ...session, payment_status: "paid", status: "complete" } },
    };
  }

  /** Posts `event` to Castellum, signed (or with `signature` as given), and answers the reply. */
  async deliver(
    event: unknown,
    options: { signature?: string; secret?: string; timestamp?: number } = {},
  ): Promise<Response> {
    const payload = JSON.stringify(event);
    const signature =
      options.signature ??
      this.signer.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? STAND_IN_WEBHOOK_SECRET,
        ...(options.timestamp ? { timestamp: options.timestamp } : {}),
      });
    return fetch(this.webhookUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
      body: payload,
    });
  }
}

function json(value: unknown) {
  return { status: 200, type: "application/json", body: JSON.stringify(value) };
}
