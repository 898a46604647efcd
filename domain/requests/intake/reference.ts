import { createHash, randomBytes } from "node:crypto";
import type { RequestKind } from "../options.ts";

const REFERENCE_PREFIX: Record<RequestKind, string> = {
  booking_request: "BR",
  property_booking: "PB",
  membership: "MA",
};

/** Crockford's base32 without look-alikes: 8 characters, about 10^12 possibilities. */
const REFERENCE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A request's public reference, e.g. `BR-7K2M-Q9XD`: the kind, then 8 random characters. */
export function makeReference(kind: RequestKind): string {
  const bytes = randomBytes(8);
  let code = "";
  for (const byte of bytes) code += REFERENCE_ALPHABET[byte % 32];
  return `${REFERENCE_PREFIX[kind]}-${code.slice(0, 4)}-${code.slice(4)}`;
}

/** The secret of a guest's status link (`/requests/{token}`): 32 base64url characters. */
export function makeStatusToken(): string {
  return randomBytes(24).toString("base64url");
}

/** What the database keeps of a status token: its SHA-256, never the token. */
export function hashStatusToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
