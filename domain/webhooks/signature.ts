import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** The header a delivery is signed in: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const SIGNATURE_HEADER = "Castellum-Signature";
/** The event's id, the same on every retry: receivers deduplicate on it. */
export const EVENT_ID_HEADER = "Castellum-Event-Id";

/** A new signing secret: 32 random bytes, with a prefix that says what it is. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** The signature header's value for `body` sent at `unixSeconds`. */
export function signWebhook(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex");
  return `t=${unixSeconds},v1=${mac}`;
}

/**
 * Checks a signature header against `body` as docs/webhooks.md tells receivers to: the HMAC
 * matches (compared in constant time) and the timestamp is within `toleranceSeconds` of now.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string,
  body: string,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): boolean {
  const parts: Record<string, string | undefined> = Object.fromEntries(
    header.split(",").map((part) => part.split("=", 2) as [string, string]),
  );
  const t = Number(parts.t);
  if (!Number.isInteger(t) || parts.v1 === undefined) return false;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - t) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(`${t}.${body}`).digest("hex"));
  const given = Buffer.from(parts.v1);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
