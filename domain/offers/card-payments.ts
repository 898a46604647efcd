import Stripe from "stripe";
import type { OfferTerms } from "./offers.ts";

/**
 * Card payment through Stripe Checkout, with the official client: a session for the amount due
 * (one per offer, kind and amount: the idempotency key makes a second click open the same
 * session) and the signature check of Stripe's notices. `apiUrl` points the client at Stripe,
 * or at a local server in tests; nothing else here is Stripe-specific.
 */

export interface StripeGateway {
  createCheckout(input: {
    requestId: string;
    offerId: string;
    reference: string;
    kind: "deposit" | "balance";
    amount: number;
    currency: string;
    label: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ id: string; url: string }>;
  /**
   * The event Stripe signed, or null for a signature that is missing, forged or older than
   * five minutes at `now`.
   */
  verify(rawBody: Buffer, signature: string | undefined, now: Date): Stripe.Event | null;
}

/** What the offer and payment routes need beyond the database. */
export interface PaymentServices {
  terms: OfferTerms;
  /** PAYMENT_BANK_DETAILS; null: bank transfer is not offered. */
  bankDetails: string | null;
  /** CASL_WALLET_ADDRESS; null: $CASL is not offered. */
  caslWallet: string | null;
  /** OWNER_COMMISSION_PERCENT: the network's share on owners' statements. */
  commissionPercent: number;
  /** Null when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not both set. */
  stripe: StripeGateway | null;
  onMailQueued: () => void;
}

/** Signatures older than this (seconds) are refused, as Stripe advises. */
const TOLERANCE_SECONDS = 300;

export function createStripeGateway(config: {
  secretKey: string;
  webhookSecret: string;
  apiUrl: string;
}): StripeGateway {
  const url = new URL(config.apiUrl);
  const client = new Stripe(config.secretKey, {
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80,
    protocol: url.protocol === "https:" ? "https" : "http",
    maxNetworkRetries: 2,
    timeout: 10_000,
  });
  return {
    async createCheckout(input) {
      const session = await client.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.currency.toLowerCase(),
                unit_amount: input.amount,
                product_data: { name: input.label },
              },
            },
          ],
          client_reference_id: input.requestId,
          metadata: {
            requestId: input.requestId,
            offerId: input.offerId,
            kind: input.kind,
            reference: input.reference,
          },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        },
        { idempotencyKey: `offer-${input.offerId}-${input.kind}-${input.amount}` },
      );
      if (!session.url) throw new Error("Stripe answered a session without a url");
      return { id: session.id, url: session.url };
    },
    verify(rawBody, signature, now) {
      if (!signature) return null;
      try {
        return client.webhooks.constructEvent(
          rawBody,
          signature,
          config.webhookSecret,
          TOLERANCE_SECONDS,
          undefined,
          // The client reads this in milliseconds.
          now.getTime(),
        );
      } catch {
        return null;
      }
    },
  };
}
