import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { mailOutbox } from "../../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import type { RenderedMail } from "./templates.ts";
import type { MailTransport } from "./transport.ts";

export interface QueuedMail extends RenderedMail {
  template: string;
  recipient: string;
  requestId?: string;
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
    })),
  );
}

export interface RetryPolicy {
  /** Wait after the first failure; doubles with each further failure. */
  baseMs: number;
  /** Longest wait between two attempts. */
  maxMs: number;
  /**
   * Attempts before the outbox gives up on a mail (default 10, about three hours with the
   * default waits). The mail is then kept as `failed`, with its last error, until staff retry
   * or discard it (outbox-health.ts), so one that cannot go is seen rather than silently retried.
   */
  maxAttempts?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 10;

export const DEFAULT_RETRY: RetryPolicy = {
  baseMs: 30_000,
  maxMs: 60 * 60_000,
  maxAttempts: DEFAULT_MAX_ATTEMPTS,
};

/** How long a claimed mail stays reserved for one sender before another may try it. */
const CLAIM_MS = 2 * 60_000;

export function retryDelay(attempts: number, policy: RetryPolicy): number {
  return Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
}

export interface DeliveryReport {
  sent: number;
  failed: number;
}

/**
 * Sends the mail that is due, at most `batch` at a time. Rows are claimed with SKIP LOCKED and a
 * lease, so several app instances can run this side by side without sending a mail twice. A
 * failed send is retried with exponential backoff; after `retry.maxAttempts` attempts the mail
 * is marked `failed` and no longer claimed.
 */
export async function deliverDueMail(
  deps: Deps,
  transport: MailTransport,
  options: { batch?: number; retry?: RetryPolicy } = {},
): Promise<DeliveryReport> {
  const retry = options.retry ?? DEFAULT_RETRY;
  const maxAttempts = retry.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const due = deps.db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.status, "pending"),
        lte(mailOutbox.nextAttemptAt, sql`now()`),
        or(isNull(mailOutbox.lockedUntil), lte(mailOutbox.lockedUntil, sql`now()`)),
      ),
    )
    .orderBy(mailOutbox.nextAttemptAt)
    .limit(options.batch ?? 20)
    .for("update", { skipLocked: true });
  const claimed = await deps.db
    .update(mailOutbox)
    .set({
      lockedUntil: sql`now() + ${`${CLAIM_MS} milliseconds`}::interval`,
      attempts: sql`${mailOutbox.attempts} + 1`,
    })
    .where(inArray(mailOutbox.id, due))
    .returning();

  const report: DeliveryReport = { sent: 0, failed: 0 };
  for (const mail of claimed) {
    try {
      await transport.send({
        id: mail.id,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      await deps.db
        .update(mailOutbox)
        .set({ status: "sent", sentAt: sql`now()`, lockedUntil: null, lastError: null })
        .where(eq(mailOutbox.id, mail.id));
      report.sent += 1;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // `attempts` already counts this attempt (raised when the row was claimed).
      if (mail.attempts >= maxAttempts) {
        await deps.db
          .update(mailOutbox)
          .set({ status: "failed", lockedUntil: null, lastError: message.slice(0, 1000) })
          .where(eq(mailOutbox.id, mail.id));
        deps.log.error(
          { mailId: mail.id, attempts: mail.attempts, err: message },
          "mail delivery failed; gave up after the last attempt, kept as failed for staff",
        );
        report.failed += 1;
        continue;
      }
      const delay = retryDelay(mail.attempts, retry);
      await deps.db
        .update(mailOutbox)
        .set({
          lockedUntil: null,
          lastError: message.slice(0, 1000),
          nextAttemptAt: sql`now() + ${`${delay} milliseconds`}::interval`,
        })
        .where(eq(mailOutbox.id, mail.id));
      deps.log.warn(
        { mailId: mail.id, attempts: mail.attempts, retryInMs: delay, err: message },
        "mail delivery failed; will retry",
      );
      report.failed += 1;
    }
  }
  return report;
}

export interface MailWorker {
  /** Look for due mail now (after a request commits) instead of at the next tick. */
  kick(): void;
  /** Waits for a delivery in progress, then stops. */
  stop(): Promise<void>;
}

/** Polls the outbox every `pollMs` and whenever kicked; one delivery run at a time. */
export function startMailWorker(
  deps: Deps,
  transport: MailTransport,
  options: { pollMs?: number; retry?: RetryPolicy } = {},
): MailWorker {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          const report = await deliverDueMail(deps, transport, { retry: options.retry });
          // A full batch means more may be waiting.
          if (report.sent + report.failed >= 20) again = true;
        } while (again && !stopped);
      } catch (error) {
        deps.log.error({ err: error }, "mail outbox run failed");
      } finally {
        running = null;
      }
    })();
  };
  const timer = setInterval(run, options.pollMs ?? 5000);
  timer.unref();
  run();
  return {
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      transport.close();
    },
  };
}
