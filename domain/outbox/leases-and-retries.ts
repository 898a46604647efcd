import { and, eq, inArray, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Database } from "#db/client.ts";
import type { Deps } from "../deps.ts";

/**
 * What the outboxes share (the mail outbox, domain/mail/mail-outbox.ts, and the webhook deliveries,
 * domain/webhooks/dispatch.ts): the retry policy and its backoff, the lease that lets several
 * instances claim due rows side by side (SKIP LOCKED), putting claimed rows back untouched when
 * the other side cannot be reached, recording a success stubbornly, and the watch kept on an
 * unreachable receiver, which is probed now and then instead of being sent everything.
 */

export interface RetryPolicy {
  /** Wait after the first failure; doubles with each further failure. */
  baseMs: number;
  /** Longest wait between two attempts. */
  maxMs: number;
  /**
   * Attempts before the outbox gives up on a row (default 10, about three hours with the
   * default waits). The row is then kept as `failed`, with its last error, so one that cannot
   * go is seen rather than silently retried. Only an attempt the other side answered counts:
   * while it cannot be reached at all, rows wait without spending attempts (see `maxAgeMs`).
   */
  maxAttempts?: number;
  /**
   * How long a row may wait for a receiver that cannot be reached before it is set aside as
   * `failed` (default 3 days, as mail servers keep their queues).
   */
  maxAgeMs?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 10;
export const DEFAULT_MAX_AGE_MS = 3 * 24 * 60 * 60_000;

export const DEFAULT_RETRY: RetryPolicy = {
  baseMs: 30_000,
  maxMs: 60 * 60_000,
  maxAttempts: DEFAULT_MAX_ATTEMPTS,
  maxAgeMs: DEFAULT_MAX_AGE_MS,
};

/** The wait after the `attempts`-th failed attempt: exponential, capped. */
export function retryDelay(attempts: number, policy: RetryPolicy): number {
  return Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
}

/** An outbox table's bookkeeping columns, as `claimDue` and `releaseClaims` need them. */
export interface OutboxColumns<T extends PgTable> {
  table: T;
  id: PgColumn;
  status: PgColumn;
  attempts: PgColumn;
  nextAttemptAt: PgColumn;
  lockedUntil: PgColumn;
}

/** The JS key under which a table holds `column` (drizzle's `set` takes keys, not columns). */
function keyOf(table: PgTable, column: PgColumn): string {
  const entry = Object.entries(table).find(([, value]) => value === column);
  if (!entry) throw new Error(`column ${column.name} is not on the table`);
  return entry[0];
}

/**
 * Claims up to `batch` due rows (`status` pending, `next_attempt_at` passed, no live lease):
 * locks them with SKIP LOCKED, so two instances never claim the same row, gives each a lease
 * of `leaseMs` and counts the attempt. A sender that dies mid-run leaves its rows to whoever
 * claims them once the lease ends: delivery is at least once.
 */
export async function claimDue<T extends PgTable>(
  db: Database,
  outbox: OutboxColumns<T>,
  options: { batch: number; leaseMs: number; where?: SQL },
): Promise<T["$inferSelect"][]> {
  const due = db
    .select({ id: outbox.id })
    .from(outbox.table as PgTable)
    .where(
      and(
        eq(outbox.status, "pending"),
        lte(outbox.nextAttemptAt, sql`now()`),
        or(isNull(outbox.lockedUntil), lte(outbox.lockedUntil, sql`now()`)),
        options.where,
      ),
    )
    .orderBy(outbox.nextAttemptAt)
    .limit(options.batch)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(outbox.table as PgTable)
    .set({
      [keyOf(outbox.table, outbox.lockedUntil)]:
        sql`now() + ${`${options.leaseMs} milliseconds`}::interval`,
      [keyOf(outbox.table, outbox.attempts)]: sql`${outbox.attempts} + 1`,
    })
    .where(inArray(outbox.id, due))
    .returning();
  return claimed as T["$inferSelect"][];
}

/**
 * Puts claimed rows back as they were before the claim: due, unclaimed, the attempt not spent
 * (the other side could not be reached; nothing was wrong with the rows). `deferMs` keeps them
 * back that long (an unreachable webhook receiver is probed, not flooded).
 */
export async function releaseClaims<T extends PgTable>(
  db: Database,
  outbox: OutboxColumns<T> & { lastError: PgColumn },
  ids: string[],
  error: string,
  deferMs = 0,
): Promise<void> {
  if (ids.length === 0) return;
  const table = outbox.table;
  await db
    .update(table as PgTable)
    .set({
      [keyOf(table, outbox.lockedUntil)]: null,
      [keyOf(table, outbox.attempts)]: sql`greatest(${outbox.attempts} - 1, 0)`,
      [keyOf(table, outbox.lastError)]: error.slice(0, 1000),
      ...(deferMs > 0
        ? {
            [keyOf(table, outbox.nextAttemptAt)]:
              sql`now() + ${`${deferMs} milliseconds`}::interval`,
          }
        : {}),
    })
    .where(inArray(outbox.id, ids));
}

/** Waits between tries to record a success: about 8 s in all, longer than a failover blip. */
const RECORD_WAITS_MS = [250, 500, 1000, 2000, 4000];

/**
 * Records that the other side accepted a row. It has it, so a lost database connection here
 * would send it a second time once the lease ends: the update is tried again on a fresh
 * connection for a few seconds first. Should every try fail, the row stays claimed and goes
 * again when its lease ends: delivery is at least once, never silently dropped.
 */
export async function recordDelivered(
  deps: Deps,
  what: Record<string, string>,
  update: () => Promise<unknown>,
): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await update();
      return;
    } catch (error) {
      const wait = RECORD_WAITS_MS[attempt];
      if (wait === undefined) throw error;
      deps.log.warn(
        { ...what, err: error, retryInMs: wait },
        "delivered, but not yet recorded as delivered; trying again",
      );
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/**
 * The watch on a receiver that cannot be reached (the mail relay, one webhook endpoint): from
 * the first failure, one probe now and then (from `minMs`, doubling up to `maxMs`) until it
 * answers; then everything waiting goes at once, none of it having spent an attempt.
 */
export class OutageWatch {
  private down: { since: number; nextProbeAt: number; waitMs: number } | null = null;
  private readonly minMs: number;
  private readonly maxMs: number;
  constructor(minMs: number, maxMs: number) {
    this.minMs = minMs;
    this.maxMs = maxMs;
  }

  /** Since when (epoch ms) the receiver cannot be reached; null while it answers. */
  since(): number | null {
    return this.down?.since ?? null;
  }

  /** Whether a send (a probe, while down) may go now. */
  mayTry(now = Date.now()): boolean {
    return !this.down || now >= this.down.nextProbeAt;
  }

  /** Records a failure to reach it; answers the wait before the next probe and whether it is new. */
  failed(now = Date.now()): { waitMs: number; isNew: boolean } {
    const isNew = !this.down;
    if (!this.down) this.down = { since: now, nextProbeAt: 0, waitMs: this.minMs };
    else this.down.waitMs = Math.min(this.down.waitMs * 2, this.maxMs);
    this.down.nextProbeAt = now + this.down.waitMs;
    return { waitMs: this.down.waitMs, isNew };
  }

  /** Records an answer; gives how long it was unreachable, or null if it was not. */
  answered(now = Date.now()): number | null {
    const since = this.down?.since ?? null;
    this.down = null;
    return since === null ? null : now - since;
  }
}
