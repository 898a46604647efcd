import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { z } from "zod";
import { type Database, withTransaction } from "../../db/client.ts";
import {
  guestRequestStatusHistory,
  guestRequests,
  idempotencyKeys,
} from "../../db/schema/index.ts";
import type { Language } from "../../i18n/config.ts";
import { checkBotToken, spendBotToken } from "../bot-check/bot-check.ts";
import type { BotCheckConfig } from "../bot-check/config.ts";
import { getProperty } from "../catalogue/read-properties.ts";
import type { Deps } from "../deps.ts";
import {
  BotCheckError,
  IdempotencyConflictError,
  NotFoundError,
  ValidationError,
} from "../errors.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { renderGuestConfirmation, renderStaffNotification } from "../mail/templates.ts";
import { bookingRequestSchema } from "../requests/booking-request.schema.ts";
import { fieldIssues } from "../requests/fields.ts";
import { membershipSchema } from "../requests/membership.schema.ts";
import type { RequestKind } from "../requests/options.ts";
import { propertyBookingSchema } from "../requests/property-booking.schema.ts";

export interface IntakeConfig {
  botCheck: BotCheckConfig;
  /** Where staff notifications go. */
  staffEmail: string;
  /** Language of the staff notification (STAFF_LANGUAGE; English when unset). */
  staffLanguage?: Language;
  /** Origin for the status link in the guest's mail. */
  publicUrl: string;
  bookingHorizonMonths: number;
  /** Called after a request commits (the mail worker looks at the outbox at once). */
  onStored?: () => void;
}

export interface IntakeInput {
  kind: RequestKind;
  /** The parsed JSON body, untrusted. */
  body: unknown;
  language: Language;
  idempotencyKey?: string;
  /** The token from the request header, when the body carries none. */
  headerBotToken?: string;
  remoteIp?: string;
}

/** The answer the API gives, also what a retry with the same Idempotency-Key gets again. */
export interface StoredRequestAnswer {
  id: string;
  reference: string;
  status: "New";
  createdAt: string;
}

export interface IntakeResult {
  status: 201;
  body: StoredRequestAnswer;
  /** True when this answer is the stored one of an earlier request with the same key. */
  replayed: boolean;
}

/** Idempotency-Keys are kept (and honoured) this long. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const REFERENCE_PREFIX: Record<RequestKind, string> = {
  booking_request: "BR",
  property_booking: "PB",
  membership: "MA",
};

/**
 * Takes one guest request: replays the first answer for a known Idempotency-Key, checks the form
 * against its schema and the bot-check token, then stores the request, its status history, its
 * two mails and the key's answer in one transaction. Nothing is acknowledged before it commits.
 */
export async function submitGuestRequest(
  deps: Deps,
  config: IntakeConfig,
  input: IntakeInput,
): Promise<IntakeResult> {
  const bodyHash = hashBody(input.body);
  if (input.idempotencyKey) {
    const earlier = await findAnswer(deps.db, input.kind, input.idempotencyKey, bodyHash);
    if (earlier) return earlier;
  }

  const raw = (input.body && typeof input.body === "object" ? input.body : {}) as Record<
    string,
    unknown
  >;
  const token =
    typeof raw.turnstileToken === "string" && raw.turnstileToken
      ? raw.turnstileToken
      : (input.headerBotToken ?? "");
  if (!token) throw new BotCheckError();

  const parsed = schemaFor(input.kind, config).safeParse({ ...raw, turnstileToken: token });
  if (!parsed.success) throw new ValidationError(fieldIssues(parsed.error));
  const { turnstileToken: _spent, ...details } = parsed.data as Record<string, unknown> & {
    turnstileToken: string;
    firstName: string;
    lastName: string;
    email: string;
  };

  let propertyId: number | null = null;
  if (input.kind === "property_booking") {
    const property = await getProperty(deps, {
      idOrSlug: String(details.propertyId),
      language: input.language,
    }).catch((error: unknown) => {
      // An unknown estate is the guest's mistake; anything else (the database) is ours.
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (!property)
      throw new ValidationError([{ path: "propertyId", message: "validation.propertyUnknown" }]);
    propertyId = property.id;
    details.propertyName = property.name;
    details.propertySlug = property.slug;
  }

  // Checked before the transaction (Turnstile is a network call), spent inside it.
  const verified = await checkBotToken(deps, config.botCheck, token, input.remoteIp);
  if (!verified) throw new BotCheckError();

  const id = randomUUID();
  const createdAt = new Date();
  const reference = makeReference(input.kind);
  const statusToken = randomBytes(24).toString("base64url");
  const answer: StoredRequestAnswer = {
    id,
    reference,
    status: "New",
    createdAt: createdAt.toISOString(),
  };
  const mailRequest = {
    kind: input.kind,
    reference,
    language: input.language,
    firstName: details.firstName,
    lastName: details.lastName,
    email: details.email,
    details,
  };
  const statusUrl = `${config.publicUrl}/requests/${statusToken}?lang=${input.language}`;

  let raced = false;
  await withTransaction(deps.db, async (db) => {
    if (input.idempotencyKey) {
      // A concurrent request with the same key waits here until the first one commits.
      const claimed = await db
        .insert(idempotencyKeys)
        .values({
          scope: input.kind,
          key: input.idempotencyKey,
          bodyHash,
          responseStatus: 201,
          responseBody: answer as unknown as Record<string, unknown>,
          createdAt,
          expiresAt: new Date(createdAt.getTime() + IDEMPOTENCY_TTL_MS),
        })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (claimed.length === 0) {
        raced = true;
        return;
      }
    }
    if (!(await spendBotToken(db, verified))) throw new BotCheckError();
    await db.insert(guestRequests).values({
      id,
      kind: input.kind,
      reference,
      language: input.language,
      email: details.email,
      firstName: details.firstName,
      lastName: details.lastName,
      phone: String(details.phoneNumber ?? details.phone ?? ""),
      memberStatus: typeof details.memberStatus === "string" ? details.memberStatus : null,
      propertyId,
      details,
      statusTokenHash: hashStatusToken(statusToken),
      createdAt,
      updatedAt: createdAt,
    });
    await db.insert(guestRequestStatusHistory).values({
      requestId: id,
      fromStatus: null,
      toStatus: "New",
      changedBy: "guest",
      changedAt: createdAt,
    });
    await enqueueMail(db, [
      {
        template: `${input.kind}.confirmation`,
        recipient: details.email,
        requestId: id,
        ...renderGuestConfirmation(mailRequest, statusUrl),
      },
      {
        template: `${input.kind}.staff`,
        recipient: config.staffEmail,
        requestId: id,
        ...renderStaffNotification(mailRequest, config.staffLanguage),
      },
    ]);
  });
  if (raced && input.idempotencyKey) {
    const earlier = await findAnswer(deps.db, input.kind, input.idempotencyKey, bodyHash);
    if (earlier) return earlier;
    throw new IdempotencyConflictError();
  }
  config.onStored?.();
  deps.log.info({ kind: input.kind, reference, requestId: id }, "guest request stored");
  return { status: 201, body: answer, replayed: false };
}

function schemaFor(kind: RequestKind, config: IntakeConfig): z.ZodType {
  if (kind === "booking_request") return bookingRequestSchema;
  if (kind === "membership") return membershipSchema;
  return propertyBookingSchema(config.bookingHorizonMonths);
}

async function findAnswer(
  db: Database,
  scope: RequestKind,
  key: string,
  bodyHash: string,
): Promise<IntakeResult | null> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
  if (!row) return null;
  if (row.expiresAt.getTime() <= Date.now()) {
    await db
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    return null;
  }
  if (row.bodyHash !== bodyHash) throw new IdempotencyConflictError();
  return {
    status: 201,
    body: row.responseBody as unknown as StoredRequestAnswer,
    replayed: true,
  };
}

/** Forgets Idempotency-Keys past their 24 hours (run by the housekeeping timer). */
export async function purgeExpiredIdempotencyKeys(deps: Pick<Deps, "db">): Promise<void> {
  await deps.db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, sql`now()`));
}

/** SHA-256 of the body with its keys sorted: the same form gives the same hash. */
function hashBody(body: unknown): string {
  return createHash("sha256").update(canonicalJson(body)).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function hashStatusToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Crockford's base32 without look-alikes: 8 characters, about 10^12 possibilities. */
const REFERENCE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

function makeReference(kind: RequestKind): string {
  const bytes = randomBytes(8);
  let code = "";
  for (const byte of bytes) code += REFERENCE_ALPHABET[byte % 32];
  return `${REFERENCE_PREFIX[kind]}-${code.slice(0, 4)}-${code.slice(4)}`;
}
