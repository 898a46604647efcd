import { sql } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { rateLimitCounters } from "#db/schema/index.ts";
import type { RateLimitStore } from "./rate-limiter.ts";

/**
 * Fixed-window counters in the database, shared by every instance on it. The login limiter
 * uses it when no Redis is configured: unlike the memory store it survives restarts and is
 * the same for all instances, so an attacker cannot reset it by reaching another process.
 * One statement per hit: the upsert either starts a new window or counts into the current one.
 */
export function createDatabaseRateLimitStore(db: Database): RateLimitStore {
  return {
    kind: "database",
    async hit(key, windowMs, amount = 1) {
      const interval = `${windowMs} milliseconds`;
      const first = Math.max(0, amount);
      const [row] = await db
        .insert(rateLimitCounters)
        .values({ key, count: first, resetAt: sql`now() + ${interval}::interval` })
        .onConflictDoUpdate({
          target: rateLimitCounters.key,
          set: {
            count: sql`case when ${rateLimitCounters.resetAt} <= now() then ${first}::int else greatest(0, ${rateLimitCounters.count} + ${amount}::int) end`,
            resetAt: sql`case when ${rateLimitCounters.resetAt} <= now() then now() + ${interval}::interval else ${rateLimitCounters.resetAt} end`,
          },
        })
        .returning({
          count: rateLimitCounters.count,
          resetMs: sql<number>`greatest(0, extract(epoch from (${rateLimitCounters.resetAt} - now())) * 1000)::float8`,
        });
      if (!row) throw new Error("rate-limit counter not written");
      return { count: row.count, resetMs: Number(row.resetMs) };
    },
    async close() {},
  };
}

/** Forgets windows that have ended (run by the housekeeping timer). */
export async function purgeExpiredRateLimitCounters(db: Database): Promise<void> {
  await db.delete(rateLimitCounters).where(sql`${rateLimitCounters.resetAt} <= now()`);
}
