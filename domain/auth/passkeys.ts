import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { and, asc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { passkeys, webauthnChallenges } from "#db/schema/index.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";
import {
  recordSecurityEvent,
  type SecurityActor,
  type SecurityClient,
} from "../security/security-log.ts";

/**
 * Passkeys (WebAuthn) for staff and owners: registration, sign-in and the list of a
 * person's passkeys. The library checks every signature, origin, RP id, flag and counter; this
 * module keeps the challenges single-use and the credentials per person. User verification is
 * required everywhere, so a passkey is two factors on its own (something held, something known
 * or being).
 */

/** The relying party: PUBLIC_URL's host is the RP id, its origin the only accepted origin. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: "Castellum" };
}

/**
 * Options for the browser's `startRegistration` / `startAuthentication`, as JSON: the browser
 * hands them on unread, so the contract names only the challenge.
 */
export type WebAuthnOptions = { challenge: string } & Record<string, unknown>;

/** Whose passkeys: a staff account or an owner (by the email their estate has on record). */
export type PasskeyHolder =
  | { role: "staff"; staffUserId: string; email: string; displayName?: string }
  | { role: "owner"; email: string };

export type StaffPasskeyHolder = Extract<PasskeyHolder, { role: "staff" }>;

export type PasskeyRole = PasskeyHolder["role"];

/** A challenge lives this long: enough for a person to touch a key, short for a replay. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/** A passkey as its holder sees it in a list (never its key). */
export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The security log's actor for a holder. */
export function actorOf(holder: PasskeyHolder): SecurityActor {
  return holder.role === "staff"
    ? { kind: "staff", staffUserId: holder.staffUserId, email: holder.email }
    : { kind: "owner", email: holder.email };
}

function subjectOf(holder: PasskeyHolder): string {
  return holder.role === "staff" ? holder.staffUserId : holder.email.toLowerCase();
}

function holderFilter(holder: PasskeyHolder) {
  return holder.role === "staff"
    ? and(eq(passkeys.role, "staff"), eq(passkeys.staffUserId, holder.staffUserId))
    : and(eq(passkeys.role, "owner"), eq(passkeys.ownerEmail, holder.email.toLowerCase()));
}

async function storeChallenge(
  deps: Pick<Deps, "db" | "clock">,
  challenge: string,
  purpose: "register" | "authenticate",
  role: PasskeyRole,
  subject: string | null,
) {
  const now = nowOf(deps);
  await deps.db.insert(webauthnChallenges).values({
    challenge,
    purpose,
    role,
    subject,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
  // Housekeeping: challenges long past their life go with each new one.
  await deps.db
    .delete(webauthnChallenges)
    .where(lt(webauthnChallenges.expiresAt, new Date(now.getTime() - 86_400_000)));
}

/** The challenge a response signed, read from its clientDataJSON (the library checks the rest). */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as {
      challenge?: unknown;
    };
    return typeof data.challenge === "string" ? data.challenge : null;
  } catch {
    return null;
  }
}

/**
 * Spends a challenge: one guarded UPDATE, so of two requests carrying it (on any instances) one
 * wins and the other finds nothing. `subject` undefined accepts only a challenge issued to
 * nobody (passkey-first); a value accepts only one issued to that person.
 */
async function spendChallenge(
  deps: Pick<Deps, "db" | "clock">,
  challenge: string | null,
  purpose: "register" | "authenticate",
  role: PasskeyRole,
  subject: string | null,
): Promise<boolean> {
  if (!challenge) return false;
  const now = nowOf(deps);
  const rows = await deps.db
    .update(webauthnChallenges)
    .set({ usedAt: now })
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        eq(webauthnChallenges.role, role),
        subject === null
          ? isNull(webauthnChallenges.subject)
          : eq(webauthnChallenges.subject, subject),
        isNull(webauthnChallenges.usedAt),
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning({ id: webauthnChallenges.id });
  return rows.length === 1;
}

/** The passkeys of a person, oldest first. */
export async function listPasskeys(
  deps: Pick<Deps, "db">,
  holder: PasskeyHolder,
): Promise<PasskeySummary[]> {
  return deps.db
    .select({
      id: passkeys.id,
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
    })
    .from(passkeys)
    .where(holderFilter(holder))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

/** Whether a staff account has a passkey (the sign-in's second step then offers it). */
export async function hasPasskey(deps: Pick<Deps, "db">, staffUserId: string): Promise<boolean> {
  const [row] = await deps.db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(and(eq(passkeys.role, "staff"), eq(passkeys.staffUserId, staffUserId)))
    .limit(1);
  return row !== undefined;
}

/**
 * Removes every passkey of a staff account (`staff reset-mfa`, for a person who lost every
 * factor); returns how many there were.
 */
export async function removeStaffPasskeys(
  deps: Pick<Deps, "db">,
  staffUserId: string,
): Promise<number> {
  const rows = await deps.db
    .delete(passkeys)
    .where(and(eq(passkeys.role, "staff"), eq(passkeys.staffUserId, staffUserId)))
    .returning({ id: passkeys.id });
  return rows.length;
}

/**
 * The options for `navigator.credentials.create`: a new challenge (stored for 5 minutes, for
 * this person only), the person's passkeys excluded, a discoverable credential with user
 * verification required.
 */
export async function startPasskeyRegistration(
  deps: Pick<Deps, "db" | "clock">,
  rp: RelyingParty,
  holder: PasskeyHolder,
): Promise<WebAuthnOptions> {
  const existing = await deps.db
    .select({ id: passkeys.id, transports: passkeys.transports })
    .from(passkeys)
    .where(holderFilter(holder));
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: holder.email,
    userDisplayName: holder.role === "staff" ? (holder.displayName ?? holder.email) : holder.email,
    // A stable user handle per person, so an authenticator replaces rather than piles up.
    userID: new TextEncoder().encode(`${holder.role}:${subjectOf(holder)}`),
    attestationType: "none",
    excludeCredentials: existing.map((key) => ({ id: key.id, transports: key.transports })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await storeChallenge(deps, options.challenge, "register", holder.role, subjectOf(holder));
  return options as PublicKeyCredentialCreationOptionsJSON & WebAuthnOptions;
}

export type RegistrationResult =
  { outcome: "saved"; passkey: PasskeySummary } | { outcome: "refused" };

/**
 * Verifies a registration response against a challenge issued to this person (spent here) and
 * saves the credential under the person's label. A credential already registered is refused.
 */
export async function finishPasskeyRegistration(
  deps: Pick<Deps, "db" | "log" | "clock">,
  rp: RelyingParty,
  holder: PasskeyHolder,
  input: { response: RegistrationResponseJSON; name: string; client?: SecurityClient },
): Promise<RegistrationResult> {
  const challenge = challengeOf(input.response.response.clientDataJSON);
  if (!(await spendChallenge(deps, challenge, "register", holder.role, subjectOf(holder))))
    return { outcome: "refused" };
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge!,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (error) {
    deps.log.info({ err: error }, "passkey registration refused");
    return { outcome: "refused" };
  }
  if (!verified.verified) return { outcome: "refused" };
  const { credential } = verified.registrationInfo;
  const rows = await deps.db
    .insert(passkeys)
    .values({
      id: credential.id,
      role: holder.role,
      staffUserId: holder.role === "staff" ? holder.staffUserId : null,
      ownerEmail: holder.role === "owner" ? holder.email.toLowerCase() : null,
      publicKey: Buffer.from(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name: input.name.trim(),
    })
    .onConflictDoNothing()
    .returning({
      id: passkeys.id,
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
    });
  const [saved] = rows;
  if (saved)
    await recordSecurityEvent(deps.db, {
      type: "factor.added",
      actor: actorOf(holder),
      client: input.client,
      data: { method: "passkey", name: saved.name },
    });
  return saved ? { outcome: "saved", passkey: saved } : { outcome: "refused" };
}

/** Removes one of a person's passkeys (logged); null when the person has no passkey with this id. */
export async function removePasskey(
  deps: Pick<Deps, "db">,
  holder: PasskeyHolder,
  id: string,
  client?: SecurityClient,
): Promise<PasskeySummary | null> {
  const [removed] = await deps.db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), holderFilter(holder)))
    .returning({
      id: passkeys.id,
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
    });
  if (!removed) return null;
  await recordSecurityEvent(deps.db, {
    type: "factor.removed",
    actor: actorOf(holder),
    client,
    data: { method: "passkey", name: removed.name },
  });
  return removed;
}

/**
 * The options for `navigator.credentials.get`. With a holder (the second step of a staff
 * sign-in) the challenge is theirs and only their passkeys are allowed; without one
 * (passkey-first) the browser offers any discoverable passkey for this site.
 */
export async function startPasskeyAuthentication(
  deps: Pick<Deps, "db" | "clock">,
  rp: RelyingParty,
  role: PasskeyRole,
  holder?: PasskeyHolder,
): Promise<WebAuthnOptions> {
  const allowed = holder
    ? await deps.db
        .select({ id: passkeys.id, transports: passkeys.transports })
        .from(passkeys)
        .where(holderFilter(holder))
    : undefined;
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: "required",
    ...(allowed ? { allowCredentials: allowed } : {}),
  });
  await storeChallenge(
    deps,
    options.challenge,
    "authenticate",
    role,
    holder ? subjectOf(holder) : null,
  );
  return options as PublicKeyCredentialRequestOptionsJSON & WebAuthnOptions;
}

/** Who a verified assertion proved, and with which passkey. */
export interface VerifiedPasskey {
  id: string;
  name: string;
  staffUserId: string | null;
  ownerEmail: string | null;
}

export type AuthenticationResult =
  { outcome: "verified"; passkey: VerifiedPasskey } | { outcome: "refused" };

/**
 * Verifies an assertion: the challenge (issued for `role` to `holder`, or to nobody) is spent,
 * the credential must be a passkey of that role (and of that holder), and the library checks
 * origin, RP id, user verification, signature and counter. The new counter is stored by a
 * guarded UPDATE, so two assertions racing with the same counter cannot both pass.
 */
export async function finishPasskeyAuthentication(
  deps: Pick<Deps, "db" | "log" | "clock">,
  rp: RelyingParty,
  role: PasskeyRole,
  response: AuthenticationResponseJSON,
  holder?: PasskeyHolder,
): Promise<AuthenticationResult> {
  const challenge = challengeOf(response.response.clientDataJSON);
  if (
    !(await spendChallenge(
      deps,
      challenge,
      "authenticate",
      role,
      holder ? subjectOf(holder) : null,
    ))
  )
    return { outcome: "refused" };
  const [key] = await deps.db
    .select()
    .from(passkeys)
    .where(
      and(eq(passkeys.id, response.id), holder ? holderFilter(holder) : eq(passkeys.role, role)),
    );
  if (!key) return { outcome: "refused" };
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge!,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: key.id,
        publicKey: new Uint8Array(key.publicKey),
        counter: key.counter,
        transports: key.transports,
      },
      requireUserVerification: true,
    });
  } catch (error) {
    deps.log.info({ err: error, passkeyId: key.id }, "passkey assertion refused");
    return { outcome: "refused" };
  }
  if (!verified.verified) return { outcome: "refused" };
  const { newCounter } = verified.authenticationInfo;
  // Authenticators that keep no counter always send 0; any other must move forward.
  const moved = await deps.db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: nowOf(deps) })
    .where(
      and(
        eq(passkeys.id, key.id),
        or(
          sql`${passkeys.counter} < ${newCounter}`,
          and(eq(passkeys.counter, 0), sql`${newCounter} = 0`),
        ),
      ),
    )
    .returning({ id: passkeys.id });
  if (moved.length !== 1) return { outcome: "refused" };
  return {
    outcome: "verified",
    passkey: {
      id: key.id,
      name: key.name,
      staffUserId: key.staffUserId,
      ownerEmail: key.ownerEmail,
    },
  };
}
