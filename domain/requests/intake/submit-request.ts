import { randomUUID } from "node:crypto";
import { withTransaction } from "#db/client.ts";
import { eq } from "drizzle-orm";
import { properties } from "#db/schema/index.ts";
import type { Language } from "#i18n/config.ts";
import { checkBotToken, spendBotToken } from "#domain/bot-check/bot-check.ts";
import type { BotCheckConfig } from "#domain/bot-check/config.ts";
import type { Deps } from "#domain/deps.ts";
import { BotCheckError, IdempotencyConflictError } from "#domain/errors.ts";
import { stayNights } from "#domain/calendar/nights.ts";
import type { RequestKind } from "../options.ts";
import { applyTransition } from "../apply-transition.ts";
import { responseHoursOf, type ResponseWindows } from "../lifecycle.ts";
import { nowOf } from "#domain/clock.ts";
import { checkGuestRequest } from "./check-guest-request.ts";
import {
  claimIdempotencyKey,
  findStoredAnswer,
  hashRequestBody,
  type StoredRequestAnswer,
} from "./idempotency.ts";
import { hashStatusToken, makeReference, makeStatusToken } from "./reference.ts";
import { keepStatusLink, statusLinkKey } from "#domain/conversation/status-link.ts";

export interface IntakeConfig {
  botCheck: BotCheckConfig;
  bookingHorizonMonths: number;
  /** How long staff have to answer; the defaults when not given: 48 hours, never. */
  responseWindows?: ResponseWindows;
  /** Called after a request commits (the mail job looks at its events at once). */
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

export interface IntakeResult {
  status: 201;
  body: StoredRequestAnswer;
  /** True when this answer is the stored one of an earlier request with the same key. */
  replayed: boolean;
}

const replayOf = (answer: StoredRequestAnswer): IntakeResult => ({
  status: 201,
  body: answer,
  replayed: true,
});

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
  const bodyHash = hashRequestBody(input.body);
  if (input.idempotencyKey) {
    const earlier = await findStoredAnswer(deps.db, input.kind, input.idempotencyKey, bodyHash);
    if (earlier) return replayOf(earlier);
  }

  const { token, details, propertyId } = await checkGuestRequest(deps, {
    kind: input.kind,
    body: input.body,
    language: input.language,
    headerBotToken: input.headerBotToken,
    bookingHorizonMonths: config.bookingHorizonMonths,
  });

  // Checked before the transaction (Turnstile is a network call), spent inside it.
  const verified = await checkBotToken(deps, config.botCheck, token, input.remoteIp);
  if (!verified) throw new BotCheckError();

  const id = randomUUID();
  const createdAt = nowOf(deps);
  const reference = makeReference(input.kind);
  const statusToken = makeStatusToken();
  const answer: StoredRequestAnswer = {
    id,
    reference,
    status: "New",
    createdAt: createdAt.toISOString(),
  };
  // A property booking's nights, which its confirmation will claim on the calendar.
  const stay =
    propertyId !== null
      ? stayNights(String(details.startDate), String(details.endDate))
      : { start: null, end: null };

  // Staff messages mail the guest this link later: its token is kept sealed.
  const linkKey = await statusLinkKey(deps);

  let raced = false;
  await withTransaction(deps.db, async (db) => {
    if (input.idempotencyKey) {
      const claimed = await claimIdempotencyKey(db, {
        scope: input.kind,
        key: input.idempotencyKey,
        bodyHash,
        answer,
        createdAt,
      });
      if (!claimed) {
        raced = true;
        return;
      }
    }
    if (!(await spendBotToken(db, verified))) throw new BotCheckError();
    // The due time: the estate's own response hours when it has some, else the configured ones.
    const [estate] =
      propertyId === null
        ? []
        : await db
            .select({ responseHours: properties.responseHours })
            .from(properties)
            .where(eq(properties.id, propertyId));
    const hours = responseHoursOf(
      input.kind,
      estate?.responseHours ?? null,
      config.responseWindows ?? { responseHours: 48 },
    );
    await applyTransition(
      db,
      null,
      {
        type: "submit",
        row: {
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
          stayStart: stay.start,
          stayEnd: stay.end,
          details,
          statusTokenHash: hashStatusToken(statusToken),
        },
        responseHours: hours,
      },
      { kind: "guest" },
      createdAt,
    );
    await keepStatusLink(db, linkKey, id, statusToken);
  });
  if (raced && input.idempotencyKey) {
    const earlier = await findStoredAnswer(deps.db, input.kind, input.idempotencyKey, bodyHash);
    if (earlier) return replayOf(earlier);
    throw new IdempotencyConflictError();
  }
  config.onStored?.();
  deps.log.info({ kind: input.kind, reference, requestId: id }, "guest request stored");
  return { status: 201, body: answer, replayed: false };
}
