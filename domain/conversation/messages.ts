import { and, asc, eq, gt, isNull, ne, or, sql } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import { guestRequestMessages, guestRequests } from "#db/schema/index.ts";
import { checkBotToken, spendBotToken } from "../bot-check/bot-check.ts";
import type { BotCheckConfig } from "../bot-check/config.ts";
import type { Deps } from "../deps.ts";
import { BotCheckError } from "../errors.ts";
import { recordRequestEvent } from "../events/request-events.ts";
import { hashStatusToken } from "../requests/intake/reference.ts";
import type { RequestKind } from "../requests/options.ts";
import { isUuid } from "../uuid.ts";
import type { StaffUser } from "../staff/staff-user.ts";
import type { Message } from "./messages.contract.ts";

/** Status tokens are 32 base64url characters; anything else is not worth a query. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32}$/;

function toMessage(row: typeof guestRequestMessages.$inferSelect): Message {
  return {
    id: row.id,
    author: row.author,
    authorName: row.authorName,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt?.toISOString() ?? null,
  };
}

/** Every message of a request, oldest first. */
export async function listThread(db: Database, requestId: string): Promise<Message[]> {
  const rows = await db
    .select()
    .from(guestRequestMessages)
    .where(eq(guestRequestMessages.requestId, requestId))
    .orderBy(asc(guestRequestMessages.id));
  return rows.map(toMessage);
}

async function findRequest(db: Database, id: string, kind: RequestKind, lock = false) {
  if (!isUuid(id)) return null;
  const query = db
    .select()
    .from(guestRequests)
    .where(and(eq(guestRequests.id, id), eq(guestRequests.kind, kind)));
  const [row] = lock ? await query.for("update") : await query;
  return row ?? null;
}

/**
 * The thread of a request as staff read it: the guest's unread messages become read (for all
 * staff) in the same statement that reads them. Null for an unknown request.
 */
export async function readThreadAsStaff(
  deps: Pick<Deps, "db">,
  input: { id: string; kind: RequestKind },
): Promise<Message[] | null> {
  const request = await findRequest(deps.db, input.id, input.kind);
  if (!request) return null;
  await deps.db
    .update(guestRequestMessages)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(guestRequestMessages.requestId, request.id),
        eq(guestRequestMessages.author, "guest"),
        isNull(guestRequestMessages.readAt),
      ),
    );
  return listThread(deps.db, request.id);
}

export type SendStaffMessageResult =
  | { outcome: "sent"; messages: Message[] }
  | { outcome: "not_found" }
  /** Another member of staff wrote to the guest after `lastSeenMessageId`: nothing was sent. */
  | { outcome: "conflict"; messages: Message[] };

/**
 * Writes to the guest as one member of staff. In one transaction, with the request locked so
 * two writers queue: the check that no colleague wrote since `lastSeenMessageId` (when given),
 * the message, and the event the guest's mail follows (their language, their status link:
 * mail-from-events.ts).
 */
export async function sendStaffMessage(
  deps: Pick<Deps, "db" | "log">,
  input: {
    id: string;
    kind: RequestKind;
    body: string;
    lastSeenMessageId?: number | null;
    actor: StaffUser;
  },
  hooks: { onMailQueued?: () => void } = {},
): Promise<SendStaffMessageResult> {
  const result = await withTransaction(deps.db, async (db) => {
    const request = await findRequest(db, input.id, input.kind, true);
    if (!request) return { outcome: "not_found" } as const;
    if (input.lastSeenMessageId !== undefined) {
      const [newer] = await db
        .select({ id: guestRequestMessages.id })
        .from(guestRequestMessages)
        .where(
          and(
            eq(guestRequestMessages.requestId, request.id),
            eq(guestRequestMessages.author, "staff"),
            gt(guestRequestMessages.id, input.lastSeenMessageId ?? 0),
            // One's own message (another tab) is not someone else's.
            or(
              isNull(guestRequestMessages.staffUserId),
              ne(guestRequestMessages.staffUserId, input.actor.id),
            ),
          ),
        )
        .limit(1);
      if (newer)
        return { outcome: "conflict", messages: await listThread(db, request.id) } as const;
    }
    const [message] = await db
      .insert(guestRequestMessages)
      .values({
        requestId: request.id,
        author: "staff",
        staffUserId: input.actor.id,
        authorName: input.actor.displayName,
        body: input.body,
      })
      .returning({ id: guestRequestMessages.id });
    // The guest's mail follows this event; the text stays in the thread, not in the event.
    await recordRequestEvent(db, {
      type: "request.message_sent",
      requestId: request.id,
      actor: "staff",
      internal: { messageId: message?.id },
    });
    return { outcome: "sent", messages: await listThread(db, request.id) } as const;
  });
  if (result.outcome === "sent") {
    hooks.onMailQueued?.();
    deps.log.info({ requestId: input.id, by: input.actor.id }, "staff message sent to the guest");
  }
  return result;
}

/** The request behind a status token and its thread, as the guest's status page shows it. */
export async function readThreadByStatusToken(
  deps: Pick<Deps, "db">,
  token: string,
): Promise<Message[] | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [request] = await deps.db
    .select({ id: guestRequests.id })
    .from(guestRequests)
    .where(eq(guestRequests.statusTokenHash, hashStatusToken(token)));
  return request ? listThread(deps.db, request.id) : null;
}

/**
 * The guest's reply from their status page. The bot-check token is verified first and spent in
 * the transaction that stores the message and records `request.message_received` (without the
 * guest's contact details or the text). Null when no request has this status token.
 */
export async function replyAsGuest(
  deps: Pick<Deps, "db" | "log">,
  config: { botCheck: BotCheckConfig },
  input: { token: string; body: string; botToken: string; remoteIp?: string },
): Promise<Message[] | null> {
  if (!TOKEN_SHAPE.test(input.token)) return null;
  const [request] = await deps.db
    .select()
    .from(guestRequests)
    .where(eq(guestRequests.statusTokenHash, hashStatusToken(input.token)));
  if (!request) return null;
  const verified = await checkBotToken(deps, config.botCheck, input.botToken, input.remoteIp);
  if (!verified) throw new BotCheckError();
  const messages = await withTransaction(deps.db, async (db) => {
    if (!(await spendBotToken(db, verified))) throw new BotCheckError();
    const [message] = await db
      .insert(guestRequestMessages)
      .values({ requestId: request.id, author: "guest", body: input.body })
      .returning({ id: guestRequestMessages.id });
    await recordRequestEvent(db, {
      type: "request.message_received",
      requestId: request.id,
      actor: "guest",
      extra: { messageId: message?.id },
    });
    return listThread(db, request.id);
  });
  deps.log.info({ requestId: request.id }, "guest replied to staff");
  return messages;
}
