import type { RateLimitStore } from "./rate-limiter.ts";

export interface FallbackStoreOptions {
  /** A primary hit that takes longer than this counts as failed (default 500 ms). */
  timeoutMs?: number;
  /** After a failure the primary is left alone this long before it is tried again (default 5 s). */
  retryAfterMs?: number;
  /** Told once per outage: the first failure of the primary since it last worked. */
  onOutage?: (error: unknown) => void;
  /** Told once when the primary answers again after an outage. */
  onRecovered?: () => void;
  now?: () => number;
}

/**
 * Counts in `primary` (Redis) and, when it fails or is slow, in `fallback` (the database):
 * a limit never fails open because Redis is down, and the site keeps serving. While the
 * primary is out it is tried again every `retryAfterMs`, not on every hit, so an outage costs
 * one timeout per interval rather than one per request.
 *
 * The two stores count apart: across a switch a client may get up to twice its limit within
 * one window, never an unlimited number of tries. If the fallback fails too, the error is
 * thrown, as from any store.
 */
export function createFallbackRateLimitStore(
  primary: RateLimitStore,
  fallback: RateLimitStore,
  options: FallbackStoreOptions = {},
): RateLimitStore & { readonly isPrimaryDown: boolean } {
  const timeoutMs = options.timeoutMs ?? 500;
  const retryAfterMs = options.retryAfterMs ?? 5000;
  const now = options.now ?? Date.now;
  let isDown = false;
  let nextTryAt = 0;

  async function hitPrimary(key: string, windowMs: number, amount: number) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        primary.hit(key, windowMs, amount),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new Error(`${primary.kind} rate-limit store did not answer in ${timeoutMs} ms`),
              ),
            timeoutMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    kind: primary.kind,
    get isPrimaryDown() {
      return isDown;
    },
    async hit(key, windowMs, amount = 1) {
      if (!isDown || now() >= nextTryAt) {
        try {
          const result = await hitPrimary(key, windowMs, amount);
          if (isDown) {
            isDown = false;
            options.onRecovered?.();
          }
          return result;
        } catch (error) {
          if (!isDown) options.onOutage?.(error);
          isDown = true;
          nextTryAt = now() + retryAfterMs;
        }
      }
      return fallback.hit(key, windowMs, amount);
    },
    async close() {
      await Promise.all([primary.close(), fallback.close()]);
    },
  };
}
