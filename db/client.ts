import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
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
}

/** Right when this file runs from source; the bundled server passes the folder explicitly. */
export const MIGRATIONS_FOLDER = join(import.meta.dirname, "migrations");

export type DatabaseOptions =
  | { databaseUrl: string; poolSize?: number }
  | { dataDir: string }
  /** In-memory PGlite, for tests. */
  | { memory: true };

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
    });
    // Fail at start, with the driver's own message, rather than at the first page view.
    await pool.query("select 1");
    const db = drizzleNodePg({ client: pool, schema });
    return {
      db,
      backend: "postgres",
      migrate: () => migrateNodePg(db, { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  let client: PGlite;
  if ("dataDir" in options) {
    const dir = join(options.dataDir, "pglite");
    mkdirSync(dir, { recursive: true });
    client = await PGlite.create(dir);
  } else {
    client = await PGlite.create();
  }
  const db = drizzlePglite({ client, schema });
  return {
    db,
    backend: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
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
