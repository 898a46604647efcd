import type { Redis } from "ioredis";

/** Counts hits per key in fixed windows. */
export interface RateLimitStore {
  readonly kind: "memory" | "redis" | "database";
  /**
   * Adds `amount` hits (1 unless said) to `key`'s current window; returns the count so far and
   * the ms left. A negative amount gives hits back (never below 0): a try counted up front,
   * so that concurrent tries cannot all slip under the limit, and returned when it succeeded.
   */
  hit(key: string, windowMs: number, amount?: number): Promise<{ count: number; resetMs: number }>;
  close(): Promise<void>;
}

export interface RateLimitRule {
  /** Names the counter (forms, challenge): each rule counts on its own. */
  name: string;
  max: number;
  windowMs: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfterSeconds: number;
}

export async function consumeRateLimit(
  store: RateLimitStore,
  rule: RateLimitRule,
  client: string,
): Promise<RateLimitDecision> {
  const { count, resetMs } = await store.hit(`rate:${rule.name}:${client}`, rule.windowMs);
  return {
    allowed: count <= rule.max,
    limit: rule.max,
    remaining: Math.max(0, rule.max - count),
    retryAfterSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
  };
}

/**
 * Counts one hit against each rule (each with its own client key) and answers how long to wait:
 * 0 when every rule allows it, else the longest Retry-After. A store error is thrown, so the
 * caller can refuse rather than let the request through unmetered.
 */
export async function consumeRateLimits(
  store: RateLimitStore,
  rules: (RateLimitRule & { key: string })[],
): Promise<number> {
  let retryAfterSeconds = 0;
  for (const rule of rules) {
    const decision = await consumeRateLimit(store, rule, rule.key);
    if (!decision.allowed)
      retryAfterSeconds = Math.max(retryAfterSeconds, decision.retryAfterSeconds);
  }
  return retryAfterSeconds;
}

/** One process's counters: right for a single instance (the default). */
export function createMemoryRateLimitStore(now: () => number = Date.now): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let sweeps = 0;
  return {
    kind: "memory",
    async hit(key, windowMs, amount = 1) {
      const time = now();
      // Now and then, forget windows that have ended so the map cannot grow without bound.
      if (++sweeps % 1000 === 0)
        for (const [k, w] of windows) if (w.resetAt <= time) windows.delete(k);
      let window = windows.get(key);
      if (!window || window.resetAt <= time) {
        window = { count: 0, resetAt: time + windowMs };
        windows.set(key, window);
      }
      window.count = Math.max(0, window.count + amount);
      return { count: window.count, resetMs: window.resetAt - time };
    },
    async close() {
      windows.clear();
    },
  };
}

/** Counters in Redis, shared by every app instance (REDIS_URL). */
export function createRedisRateLimitStore(redis: Redis): RateLimitStore {
  return {
    kind: "redis",
    async hit(key, windowMs, amount = 1) {
      const results = await redis
        .multi()
        .incrby(key, amount)
        .pexpire(key, windowMs, "NX")
        .pttl(key)
        .exec();
      if (!results) throw new Error("redis transaction aborted");
      for (const [error] of results) if (error) throw error;
      // A give-back that met a window just ended counts nothing rather than below zero.
      const count = Math.max(0, Number(results[0]?.[1]));
      const ttl = Number(results[2]?.[1]);
      return { count, resetMs: ttl > 0 ? ttl : windowMs };
    },
    async close() {
      // QUIT would wait in the offline queue while Redis is unreachable: just drop the socket.
      if (redis.status === "ready") await redis.quit();
      else redis.disconnect();
    },
  };
}
