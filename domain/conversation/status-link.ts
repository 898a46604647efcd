import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { guestRequestStatusLinks } from "#db/schema/index.ts";
import { getOrCreateSecret } from "../app-secrets.ts";
import type { Deps } from "../deps.ts";

/** The application secret that seals status tokens (made on first use, shared by instances). */
const SECRET_NAME = "status-link-key";

/** The 256-bit key that seals status tokens. */
export async function statusLinkKey(deps: Pick<Deps, "db">): Promise<Buffer> {
  const secret = await getOrCreateSecret(deps, SECRET_NAME);
  return createHash("sha256").update(secret).digest();
}

/** `iv.tag.ciphertext`, base64url, AES-256-GCM. */
export function sealStatusToken(key: Buffer, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url")).join(".");
}

/** The token a seal holds, or null when it was not sealed with this key. */
export function openStatusToken(key: Buffer, sealed: string): string | null {
  const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** Keeps a new request's status token sealed, in the transaction that stores the request. */
export async function keepStatusLink(
  db: Database,
  key: Buffer,
  requestId: string,
  token: string,
): Promise<void> {
  await db
    .insert(guestRequestStatusLinks)
    .values({ requestId, sealedToken: sealStatusToken(key, token) });
}

/**
 * The guest's status link (`{publicUrl}/requests/{token}?lang=…`), or null for a request sent
 * before links were kept (its mails then point to the confirmation mail).
 */
export async function readStatusLink(
  deps: Pick<Deps, "db">,
  input: { requestId: string; publicUrl: string; language: string },
): Promise<string | null> {
  const [row] = await deps.db
    .select()
    .from(guestRequestStatusLinks)
    .where(eq(guestRequestStatusLinks.requestId, input.requestId));
  if (!row) return null;
  const token = openStatusToken(await statusLinkKey(deps), row.sealedToken);
  return token ? `${input.publicUrl}/requests/${token}?lang=${input.language}` : null;
}
