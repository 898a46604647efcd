import { and, desc, eq, sql } from "drizzle-orm";
import { guestRequests, mailOutbox } from "#db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { isUuid } from "../uuid.ts";

/** A mail the outbox gave up on (status `failed`), as staff see it. */
export interface UndeliveredMail {
  id: string;
  recipient: string;
  subject: string;
  template: string;
  requestId: string | null;
  /** The public reference of the request the mail belongs to, if it still exists. */
  reference: string | null;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
}

export interface UndeliveredMailList {
  /** Failed mail, newest first, at most `limit`. */
  mails: UndeliveredMail[];
  /** Every failed mail, including those beyond `limit`. */
  failedCount: number;
  /**
   * Pending mail that is late: a try failed (counted or not: the relay was away), or it has
   * waited over a minute. During a relay outage this is the whole backlog.
   */
  pendingCount: number;
  /** When the oldest of those late mails was queued; null when none is late. */
  oldestWaitingSince: Date | null;
  /** The error of the most recent failed try among them (the relay's answer, or why it could not be reached). */
  lastWaitingError: string | null;
}

const DEFAULT_LIST_LIMIT = 50;

/**
 * The outbox's health for staff: the mail it gave up on (with the request's reference and the
 * last error), how many there are, and how many mails are still being retried.
 */
export async function listUndeliveredMail(
  deps: Deps,
  input: { limit?: number } = {},
): Promise<UndeliveredMailList> {
  const mails = await deps.db
    .select({
      id: mailOutbox.id,
      recipient: mailOutbox.recipient,
      subject: mailOutbox.subject,
      template: mailOutbox.template,
      requestId: mailOutbox.requestId,
      reference: guestRequests.reference,
      attempts: mailOutbox.attempts,
      lastError: mailOutbox.lastError,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .leftJoin(guestRequests, eq(guestRequests.id, mailOutbox.requestId))
    .where(eq(mailOutbox.status, "failed"))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(input.limit ?? DEFAULT_LIST_LIMIT);
  // The counts and the late mail's summary in one scan of the rows that matter (pending here
  // means late). The latest error: the failed try due soonest was made last.
  const [counts] = await deps.db
    .select({
      failed: sql`count(*) filter (where ${mailOutbox.status} = 'failed')`.mapWith(Number),
      retrying: sql`count(*) filter (where ${mailOutbox.status} = 'pending')`.mapWith(Number),
      oldest: sql<
        string | Date | null
      >`min(${mailOutbox.createdAt}) filter (where ${mailOutbox.status} = 'pending')`,
      lastError: sql<
        string | null
      >`(array_agg(${mailOutbox.lastError} order by ${mailOutbox.nextAttemptAt} desc) filter (where ${mailOutbox.status} = 'pending' and ${mailOutbox.lastError} is not null))[1]`,
    })
    .from(mailOutbox)
    .where(
      sql`${mailOutbox.status} = 'failed' or (${mailOutbox.status} = 'pending' and (${mailOutbox.attempts} > 0 or ${mailOutbox.lastError} is not null or ${mailOutbox.createdAt} < now() - interval '1 minute'))`,
    );
  return {
    mails,
    failedCount: counts?.failed ?? 0,
    pendingCount: counts?.retrying ?? 0,
    oldestWaitingSince: counts?.oldest ? new Date(counts.oldest) : null,
    lastWaitingError: counts?.lastError ?? null,
  };
}

export type RetryMailResult = { outcome: "retried" } | { outcome: "not_found" | "not_failed" };

/**
 * Gives a failed mail a fresh set of attempts: back to pending, due now, attempts from zero,
 * its last error cleared. Only failed mail can be retried; pending mail is already being
 * retried and sent mail is gone. The caller kicks the mail worker if it wants the mail sent
 * before the next poll.
 */
export async function retryMail(deps: Deps, id: string): Promise<RetryMailResult> {
  if (!isUuid(id)) return { outcome: "not_found" };
  // One conditional update, so two staff pressing retry at once cannot both reset the mail.
  const [retried] = await deps.db
    .update(mailOutbox)
    .set({
      status: "pending",
      attempts: 0,
      lastError: null,
      lockedUntil: null,
      nextAttemptAt: sql`now()`,
    })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, "failed")))
    .returning({ id: mailOutbox.id });
  if (retried) {
    deps.log.info({ mailId: id }, "failed mail queued again");
    return { outcome: "retried" };
  }
  return { outcome: (await exists(deps, id)) ? "not_failed" : "not_found" };
}

export type DiscardMailResult = { outcome: "discarded" } | { outcome: "not_found" | "not_failed" };

/**
 * Gives up on a failed mail for good (status `discarded`): it leaves the list of undelivered
 * mail and is never sent. `by` (the staff member) is logged. Only failed mail can be discarded.
 */
export async function discardMail(
  deps: Deps,
  id: string,
  input: { by: string },
): Promise<DiscardMailResult> {
  if (!isUuid(id)) return { outcome: "not_found" };
  const [discarded] = await deps.db
    .update(mailOutbox)
    .set({ status: "discarded", lockedUntil: null })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, "failed")))
    .returning({ id: mailOutbox.id });
  if (discarded) {
    deps.log.info({ mailId: id, by: input.by }, "failed mail discarded");
    return { outcome: "discarded" };
  }
  return { outcome: (await exists(deps, id)) ? "not_failed" : "not_found" };
}

async function exists(deps: Deps, id: string): Promise<boolean> {
  const [row] = await deps.db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(eq(mailOutbox.id, id));
  return row !== undefined;
}
