import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import type { Database } from "../../db/client.ts";
import * as schema from "../../db/schema/index.ts";
import type { Deps } from "../../domain/deps.ts";

export interface QueryCounter {
  /** The same database and logger, through a Drizzle instance that counts what it sends. */
  deps: Deps;
  /** SQL statements sent since the last `reset`, in order. */
  statements: string[];
  reset(): void;
}

/**
 * Counts the SQL statements that domain code sends through `deps`, transactions included: a
 * second Drizzle instance on the same client (PGlite or the pg pool) with a logger.
 */
export function countQueries(deps: Deps): QueryCounter {
  const statements: string[] = [];
  const logger = { logQuery: (query: string) => void statements.push(query) };
  const client = (deps.db as unknown as { $client: unknown }).$client;
  let db: Database;
  if (client instanceof pg.Pool) db = drizzleNodePg({ client, schema, logger });
  else if (client instanceof PGlite) db = drizzlePglite({ client, schema, logger });
  else throw new Error("unknown database client");
  return {
    deps: { ...deps, db },
    statements,
    reset: () => void statements.splice(0),
  };
}
