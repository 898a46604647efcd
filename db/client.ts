import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { type ReplicaSet, routeReadsToReplicas } from "./replicas.ts";
import * as schema from "./schema/index.ts";

/** The Drizzle database both backends share; domain code sees only this type. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseBackend = "pglite" | "postgres";

export interface DatabaseHandle {
  db: Database;
  backend: DatabaseBackend;
  /** Applies the committed migrations (idempotent). */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL only: the pool's connections now (for /metrics). */
  poolStats?(): PoolStats;
  /** PGlite only: the whole database as it is now, for `{ memory: true, from }`. */
  snapshot?(): Promise<Blob>;
  /** PostgreSQL with `replicaUrls`: the streaming replicas public reads may use. */
  replicas?: ReplicaSet;
}

export interface PoolStats {
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  max: number;
}

/** Right when this file runs from source; the bundled server passes the folder explicitly. */
export const MIGRATIONS_FOLDER = join(import.meta.dirname, "migrations");

/**
 * Every connection's settings, the primary's and the replicas'. The app's statements read a page
 * or a row through an index: a parallel plan's workers (started per statement) and JIT
 * compilation (tens of milliseconds, chosen when the planner's estimate is high) cost more than
 * such a statement takes. Migrations and maintenance run on the pool too and lose nothing that
 * matters here. Decision 0027.
 */
export const SESSION_SETTINGS = "-c max_parallel_workers_per_gather=0 -c jit=off";

/** Extensions the migrations create (PostgreSQL ships them in contrib). */
const PGLITE_EXTENSIONS = { pg_trgm, btree_gist };

export type DatabaseOptions =
  | {
      databaseUrl: string;
      poolSize?: number;
      /** Told when an idle pooled connection dies (server restart, terminated backend). */
      onIdleError?: (error: Error) => void;
      /** Streaming replicas of this database (DATABASE_REPLICA_URLS): see db/replicas.ts. */
      replicaUrls?: string[];
    }
  | { dataDir: string }
  /**
   * In-memory PGlite, for tests: empty, or a copy of a database `snapshot` saved (starting
   * from a copy skips the migrations' and a seed's work, which a suite would repeat).
   */
  | { memory: true; from?: Blob };

/**
 * Opens PostgreSQL when a URL is given, otherwise the embedded PGlite (files under `dataDir`,
 * or in memory). Both run the same migrations from db/migrations.
 */
export async function openDatabase(
  options: DatabaseOptions,
  migrationsFolder: string = MIGRATIONS_FOLDER,
): Promise<DatabaseHandle> {
  if ("databaseUrl" in options) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // While the server cannot be reached, a request waits at most this long for a
      // connection and then fails (a 503 to the visitor) instead of hanging.
      connectionTimeoutMillis: 5000,
      options: SESSION_SETTINGS,
    });
    // An idle connection that the server ends (restart, failover, a terminated backend) is an
    // 'error' event on the pool: without a listener it would crash the process. The pool drops
    // that connection and opens a new one when next needed.
    pool.on("error", (error) => options.onIdleError?.(error));
    // A connection ended while checked out (between the statements of a transaction, say) is an
    // 'error' event on the client, which the pool does not listen to then: it would crash the
    // process. The statement that uses the connection next fails and reports it; this listener
    // only keeps the event from being unhandled.
    pool.on("connect", (client) => {
      client.on("error", () => {});
    });
    // Fail at start, with the driver's own message, rather than at the first page view.
    await pool.query("select 1");
    const replicas =
      options.replicaUrls && options.replicaUrls.length > 0
        ? routeReadsToReplicas(pool, options.replicaUrls, {
            poolSize: options.poolSize,
            onError: options.onIdleError,
            sessionSettings: SESSION_SETTINGS,
          })
        : undefined;
    await replicas?.refresh();
    const db = drizzleNodePg({ client: pool, schema });
    return {
      db,
      backend: "postgres",
      replicas,
      migrate: () => migrateNodePg(db, { migrationsFolder }),
      close: async () => {
        await replicas?.close();
        await pool.end();
      },
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: pool.options.max ?? 10,
      }),
    };
  }
  let client: PGlite;
  let release = () => {};
  if ("dataDir" in options) {
    const dir = join(options.dataDir, "pglite");
    mkdirSync(dir, { recursive: true });
    release = lockDataDir(options.dataDir);
    try {
      client = await PGlite.create(dir, { extensions: PGLITE_EXTENSIONS });
    } catch (error) {
      release();
      throw error;
    }
  } else {
    client = await PGlite.create({
      extensions: PGLITE_EXTENSIONS,
      ...("from" in options && options.from ? { loadDataDir: options.from } : {}),
    });
  }
  const db = drizzlePglite({ client, schema });
  return {
    db,
    backend: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder }),
    snapshot: () => client.dumpDataDir("none"),
    close: async () => {
      await client.close();
      release();
    },
  };
}

/**
 * Runs `work` in one transaction on either backend and hands it the same `Database` type the
 * rest of the code uses, so domain functions compose inside it. Everything `work` writes
 * commits together or not at all; a throw rolls back and rethrows.
 */
export function withTransaction<T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  // Drizzle's transaction type is the backend's own session subclass of PgDatabase; the
  // domain only uses the shared query-builder surface, which both provide.
  return db.transaction((tx) => work(tx as unknown as Database));
}

/** The embedded database is open in another process (PGlite admits one). */
export class DatabaseBusyError extends Error {
  override name = "DatabaseBusyError";
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database in ${dataDir} is open in another process (pid ${pid}), most likely the running server. ` +
        "PGlite admits one process at a time: stop the server, run this command, then start the server again. " +
        "With PostgreSQL (DATABASE_URL) commands work while the server runs.",
    );
  }
}

/**
 * Takes the data directory for this process: two processes writing one PGlite directory would
 * corrupt it. A lock left by a process that has died is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, "pglite.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readFileSync(path, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid))
        throw new DatabaseBusyError(dataDir, pid);
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock ${path}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
