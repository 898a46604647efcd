import { randomUUID } from "node:crypto";
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { type MailAttachmentRef, mailOutbox } from "#db/schema/index.ts";
import { paymentReceipt } from "../offers/receipts.ts";
import type { Deps } from "../deps.ts";
import {
  claimDue,
  DEFAULT_MAX_AGE_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_RETRY,
  recordDelivered,
  releaseClaims,
  type RetryPolicy,
  retryDelay,
} from "../outbox/leases-and-retries.ts";
import type { RenderedMail } from "./templates.ts";
import { type MailAttachment, type MailTransport, MailSendError } from "./transport.ts";

export { DEFAULT_MAX_AGE_MS, DEFAULT_MAX_ATTEMPTS, DEFAULT_RETRY, type RetryPolicy, retryDelay };

export interface QueuedMail extends RenderedMail {
  template: string;
  recipient: string;
  requestId?: string;
  attachment?: MailAttachmentRef;
}

/** Adds mail to the outbox, in the caller's transaction: the mail exists iff its request does. */
export async function enqueueMail(db: Database, mails: QueuedMail[]): Promise<void> {
  if (mails.length === 0) return;
  await db.insert(mailOutbox).values(
    mails.map((mail) => ({
      id: randomUUID(),
      requestId: mail.requestId,
      template: mail.template,
      recipient: mail.recipient,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachment: mail.attachment ?? null,
    })),
  );
}

/**
 * The file a claimed mail carries, drawn now: a payment's receipt in the guest's language.
 * None when the mail names none, or its request is gone (erased): the text still goes.
 */
async function attachmentsOf(deps: Deps, mail: ClaimedMail): Promise<MailAttachment[]> {
  if (mail.attachment?.kind !== "payment_receipt" || !mail.requestId) return [];
  const receipt = await paymentReceipt(deps, {
    request: { id: mail.requestId },
    paymentId: mail.attachment.paymentId,
  });
  return receipt
    ? [
        {
          filename: receipt.filename,
          content: Buffer.from(receipt.bytes),
          contentType: "application/pdf",
        },
      ]
    : [];
}

/** How long a claimed mail stays reserved for one sender before another may try it. */
const CLAIM_MS = 2 * 60_000;
/** Mails claimed at once, and sent side by side per run (the transport's pool size). */
export const DEFAULT_BATCH = 50;
const DEFAULT_CONCURRENCY = 4;

const MAIL_OUTBOX = {
  table: mailOutbox,
  id: mailOutbox.id,
  status: mailOutbox.status,
  attempts: mailOutbox.attempts,
  nextAttemptAt: mailOutbox.nextAttemptAt,
  lockedUntil: mailOutbox.lockedUntil,
  lastError: mailOutbox.lastError,
};

export interface DeliveryReport {
  sent: number;
  /** Mails the relay refused or that failed on their own: each spent an attempt. */
  failed: number;
  /**
   * Set (to the error) when the relay could not be reached: the run stopped, and every mail
   * it had claimed but not sent went back to the outbox without spending an attempt.
   */
  relayUnreachable?: string;
  /** Mails set aside as failed because the relay stayed unreachable past `maxAgeMs`. */
  expired?: number;
}

type ClaimedMail = typeof mailOutbox.$inferSelect;

/**
 * Sends the mail that is due, at most `batch` at a time and `concurrency` side by side. Rows
 * are claimed with SKIP LOCKED and a lease, so several app instances can run this together
 * without sending a mail twice. A mail the relay refuses for good is set aside at once; any
 * other failure of one mail is retried with exponential backoff, and after
 * `retry.maxAttempts` attempts the mail is marked `failed` and no longer claimed. When the
 * relay cannot be reached the run stops and puts its unsent mail back as it was.
 */
export async function deliverDueMail(
  deps: Deps,
  transport: MailTransport,
  options: { batch?: number; concurrency?: number; retry?: RetryPolicy } = {},
): Promise<DeliveryReport> {
  const retry = options.retry ?? DEFAULT_RETRY;
  const maxAttempts = retry.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const claimed = await claimDue(deps.db, MAIL_OUTBOX, {
    batch: options.batch ?? DEFAULT_BATCH,
    leaseMs: CLAIM_MS,
  });

  const report: DeliveryReport = { sent: 0, failed: 0 };
  const queue = [...claimed];
  const putBack: string[] = [];
  const bookkeepingErrors: unknown[] = [];

  const sendOne = async (mail: ClaimedMail) => {
    let failure: MailSendError | undefined;
    try {
      await transport.send({
        id: mail.id,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: await attachmentsOf(deps, mail),
      });
    } catch (error) {
      failure =
        error instanceof MailSendError
          ? error
          : new MailSendError("transient", error instanceof Error ? error.message : String(error));
    }
    if (!failure) {
      await markSent(deps, mail.id);
      report.sent += 1;
      return;
    }
    if (failure.kind === "unreachable") {
      report.relayUnreachable ??= failure.message;
      putBack.push(mail.id);
      return;
    }
    const lastError = failure.message.slice(0, 1000);
    // `attempts` already counts this attempt (raised when the row was claimed).
    if (failure.kind === "rejected" || mail.attempts >= maxAttempts) {
      await deps.db
        .update(mailOutbox)
        .set({ status: "failed", lockedUntil: null, lastError })
        .where(eq(mailOutbox.id, mail.id));
      deps.log.error(
        { mailId: mail.id, attempts: mail.attempts, err: failure.message },
        failure.kind === "rejected"
          ? "mail refused by the relay for good; kept as failed for staff"
          : "mail delivery failed; gave up after the last attempt, kept as failed for staff",
      );
    } else {
      const delay = retryDelay(mail.attempts, retry);
      await deps.db
        .update(mailOutbox)
        .set({
          lockedUntil: null,
          lastError,
          nextAttemptAt: sql`now() + ${`${delay} milliseconds`}::interval`,
        })
        .where(eq(mailOutbox.id, mail.id));
      deps.log.warn(
        { mailId: mail.id, attempts: mail.attempts, retryInMs: delay, err: failure.message },
        "mail delivery failed; will retry",
      );
    }
    report.failed += 1;
  };

  const lane = async () => {
    for (let mail = queue.shift(); mail; mail = queue.shift()) {
      // Once the relay is known to be away, the rest of the batch is not tried.
      if (report.relayUnreachable !== undefined) {
        putBack.push(mail.id);
        continue;
      }
      try {
        await sendOne(mail);
      } catch (error) {
        bookkeepingErrors.push(error);
      }
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, claimed.length));
  await Promise.all(Array.from({ length: lanes }, lane));

  // Back as it was before the claim: due, unclaimed, and the attempt not spent.
  await releaseClaims(deps.db, MAIL_OUTBOX, putBack, report.relayUnreachable ?? "");
  if (report.relayUnreachable !== undefined) {
    report.expired = await expireWaitingMail(deps, retry, report.relayUnreachable);
  }
  if (bookkeepingErrors.length > 0) throw bookkeepingErrors[0];
  return report;
}

/**
 * Records a mail the relay accepted as sent, stubbornly (see `recordDelivered`): a lost
 * database connection here would otherwise send it a second time once the lease ends.
 */
async function markSent(deps: Deps, id: string): Promise<void> {
  await recordDelivered(deps, { mailId: id }, () =>
    deps.db
      .update(mailOutbox)
      .set({ status: "sent", sentAt: sql`now()`, lockedUntil: null, lastError: null })
      .where(eq(mailOutbox.id, id)),
  );
}

/**
 * Sets aside as `failed` the pending mail that has waited longer than `retry.maxAgeMs` for a
 * relay that cannot be reached, so staff see it instead of it waiting for ever.
 */
async function expireWaitingMail(deps: Deps, retry: RetryPolicy, error: string): Promise<number> {
  const maxAgeMs = retry.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const expired = await deps.db
    .update(mailOutbox)
    .set({
      status: "failed",
      lockedUntil: null,
      lastError:
        `Not delivered within ${Math.round(maxAgeMs / 3_600_000)} h: the mail relay could not be reached (${error})`.slice(
          0,
          1000,
        ),
    })
    .where(
      and(
        eq(mailOutbox.status, "pending"),
        lte(mailOutbox.createdAt, sql`now() - ${`${maxAgeMs} milliseconds`}::interval`),
        or(isNull(mailOutbox.lockedUntil), lte(mailOutbox.lockedUntil, sql`now()`)),
      ),
    )
    .returning({ id: mailOutbox.id });
  if (expired.length > 0)
    deps.log.error(
      { count: expired.length, maxAgeMs, err: error },
      "mail relay unreachable for too long; mail kept as failed for staff",
    );
  return expired.length;
}
