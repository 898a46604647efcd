import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";

/**
 * Reads on streaming replicas (decision 0038). The primary's pool keeps every statement unless
 * the work runs inside `readingFromReplicas`, which only the public reads enter (catalogue,
 * availability, quotes, public pages, for a visitor with no session who has not just written).
 * Even then a statement goes to a replica only when that replica has replayed the primary's
 * log at least as far as the reader needs (`minLsn`); a transaction always runs on the
 * primary. A replica that fails (down, refusing, cancelling for recovery, or asked to write)
 * sends the statement to the primary, so losing one costs no request.
 */

/** What a read needs of a replica: to have replayed the primary's log up to `minLsn`. */
export interface ReadRoute {
  minLsn: bigint;
}

const readRoute = new AsyncLocalStorage<ReadRoute>();

/** Runs `work` with its single statements allowed on a replica that has replayed `minLsn`. */
export function readingFromReplicas<T>(route: ReadRoute, work: () => T): T {
  return readRoute.run(route, work);
}

/** A PostgreSQL log position (`16/B374D848`) as a number that compares. */
export function parseLsn(text: string): bigint {
  const [high = "0", low = "0"] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/**
 * Answers from a replica that mean "ask the primary": the connection failed or was ended
 * (SQLSTATE classes 08 and 57, a refused or reset socket, a timeout), recovery cancelled the
 * statement (40001), or the statement writes (25006, read-only).
 */
function isReplicaFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") {
    if (/^(?:08|57)/.test(code) || code === "40001" || code === "25006") return true;
    if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND"].includes(code))
      return true;
  }
  const message = error instanceof Error ? error.message : "";
  return /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED/i.test(
    message,
  );
}

interface Replica {
  url: string;
  pool: pg.Pool;
  /** How far it has replayed the primary's log, as last asked; null until known. */
  replayed: bigint | null;
  healthy: boolean;
  queries: number;
}

export interface ReplicaStats {
  replicas: { url: string; healthy: boolean; queries: number; lagBytes: number | null }[];
  /** Statements a replica failed and the primary answered. */
  fallbacks: number;
}

export interface ReplicaSet {
  /** The replicas' state now, for /metrics and tests. */
  stats(): ReplicaStats;
  /** The primary's log position now: what a replica must reach to show a change just made. */
  primaryLsn(): Promise<bigint>;
  /** Asks every replica how far it has replayed, now (the poller does it every `pollMs`). */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a pool per replica, polls each one's replay position, and makes `primary`'s single
 * statements go to a replica inside `readingFromReplicas`. Passwords in the URLs never reach a
 * log: a replica is named by its host and port.
 */
export function routeReadsToReplicas(
  primary: pg.Pool,
  urls: string[],
  options: {
    poolSize?: number;
    pollMs?: number;
    onError?: (error: Error) => void;
    /** The primary's connection settings, the same on every replica. */
    sessionSettings?: string;
  } = {},
): ReplicaSet {
  const sessionSettings = options.sessionSettings;
  const replicas: Replica[] = urls.map((url) => {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 2000,
      options: sessionSettings,
    });
    pool.on("error", (error) => options.onError?.(error));
    pool.on("connect", (client) => {
      client.on("error", () => {});
    });
    return { url: nameOf(url), pool, replayed: null, healthy: false, queries: 0 };
  });
  let fallbacks = 0;
  let turn = 0;

  const pick = (minLsn: bigint): Replica | null => {
    for (let i = 0; i < replicas.length; i += 1) {
      const replica = replicas[(turn + i) % replicas.length]!;
      if (replica.healthy && replica.replayed !== null && replica.replayed >= minLsn) {
        turn = (turn + i + 1) % replicas.length;
        return replica;
      }
    }
    return null;
  };

  const primaryQuery = primary.query.bind(primary) as (...args: unknown[]) => Promise<unknown>;
  // Drizzle sends each statement outside a transaction through the pool's `query` (a
  // transaction takes a client with `connect`, which stays the primary's).
  (primary as unknown as { query: (...args: unknown[]) => unknown }).query = (
    ...args: unknown[]
  ) => {
    const route = readRoute.getStore();
    const replica = route && typeof args.at(-1) !== "function" ? pick(route.minLsn) : null;
    if (!replica) return primaryQuery(...args);
    replica.queries += 1;
    return (replica.pool.query as (...a: unknown[]) => Promise<unknown>)(...args).catch(
      (error: unknown) => {
        if (!isReplicaFailure(error)) throw error;
        const code = (error as { code?: unknown }).code;
        // A write or a recovery conflict says nothing of the replica's health.
        if (code !== "25006" && code !== "40001") replica.healthy = false;
        fallbacks += 1;
        return primaryQuery(...args);
      },
    );
  };

  const refreshOne = async (replica: Replica) => {
    try {
      const result = await replica.pool.query<{ lsn: string | null }>(
        "select pg_last_wal_replay_lsn()::text as lsn",
      );
      const lsn = result.rows[0]?.lsn;
      replica.replayed = lsn ? parseLsn(lsn) : null;
      replica.healthy = replica.replayed !== null;
    } catch {
      replica.healthy = false;
    }
  };
  const refresh = async () => {
    await Promise.all(replicas.map(refreshOne));
  };
  let lastPrimary: bigint | null = null;
  // One round at a time: a replica that does not answer takes the connection timeout.
  let polling = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    void refresh().finally(() => {
      polling = false;
    });
  }, options.pollMs ?? 200);
  timer.unref();

  return {
    stats: () => ({
      replicas: replicas.map((replica) => ({
        url: replica.url,
        healthy: replica.healthy,
        queries: replica.queries,
        lagBytes:
          lastPrimary !== null && replica.replayed !== null
            ? Number(lastPrimary > replica.replayed ? lastPrimary - replica.replayed : 0n)
            : null,
      })),
      fallbacks,
    }),
    async primaryLsn() {
      const result = await primaryQuery("select pg_current_wal_lsn()::text as lsn");
      lastPrimary = parseLsn((result as { rows: { lsn: string }[] }).rows[0]!.lsn);
      return lastPrimary;
    },
    refresh,
    async close() {
      clearInterval(timer);
      await Promise.all(replicas.map((replica) => replica.pool.end()));
    },
  };
}

/** `postgres://user:secret@host:5433/db` as `host:5433/db`. */
function nameOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return "replica";
  }
}
