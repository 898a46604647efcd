import { sql } from "drizzle-orm";
import { mailOutbox } from "#db/schema/index.ts";
import type { Deps } from "../deps.ts";

/** How far behind the outbox is, for monitoring. */
export interface OutboxDepth {
  /** Mail waiting to be sent (first try or a retry). */
  pending: number;
  /** Mail the worker gave up on, waiting for staff. */
  failed: number;
  /** Age in seconds of the oldest pending mail; 0 when none waits. */
  oldestPendingSeconds: number;
}

/**
 * Counts pending and failed mail and the age of the oldest pending one, in one statement over
 * the two partial indexes' rows (sent mail, the bulk of the table, is not read).
 */
export async function readOutboxDepth(deps: Deps): Promise<OutboxDepth> {
  const [row] = await deps.db
    .select({
      pending: sql`count(*) filter (where ${mailOutbox.status} = 'pending')`.mapWith(Number),
      failed: sql`count(*) filter (where ${mailOutbox.status} = 'failed')`.mapWith(Number),
      oldest:
        sql`coalesce(extract(epoch from now() - min(${mailOutbox.createdAt}) filter (where ${mailOutbox.status} = 'pending')), 0)::float8`.mapWith(
          Number,
        ),
    })
    .from(mailOutbox)
    .where(sql`${mailOutbox.status} in ('pending', 'failed')`);
  return {
    pending: row?.pending ?? 0,
    failed: row?.failed ?? 0,
    oldestPendingSeconds: Math.max(0, row?.oldest ?? 0),
  };
}
