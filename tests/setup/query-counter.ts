import { PGlite, type Transaction } from "@electric-sql/pglite";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import type { Database } from "#db/client.ts";
import * as schema from "#db/schema/index.ts";
import type { Deps } from "#domain/deps.ts";

export interface QueryCounter {
  /** The same database and logger, through a client that counts what it is sent. */
  deps: Deps;
  /** SQL statements sent through `deps` since the last `reset`, in order. */
  statements: string[];
  reset(): void;
}

/**
 * Counts the SQL statements that domain code sends through `deps`: a second Drizzle instance on
 * a counting wrapper of the same client (PGlite or the pg pool). Counting at the client, not
 * in Drizzle's logger, sees everything that reaches the database through `deps`: queries,
 * `db.execute`, a raw `db.$client.query`, and transactions. BEGIN and COMMIT (or ROLLBACK) count
 * as one statement each on both backends, as they are round trips on PostgreSQL: PGlite sends
 * them itself, so the wrapper records them around its `transaction`. What other code sends
 * on the original `deps` (the services' workers, say) is not counted.
 */
export function countQueries(deps: Deps): QueryCounter {
  const statements: string[] = [];
  const record = (statement: string) => void statements.push(statement);
  const client = (deps.db as unknown as { $client: unknown }).$client;
  let db: Database;
  if (client instanceof pg.Pool)
    db = drizzleNodePg({ client: countingPool(client, record), schema });
  else if (client instanceof PGlite)
    db = drizzlePglite({ client: countingPglite(client, record), schema });
  else throw new Error("unknown database client");
  return {
    deps: { ...deps, db },
    statements,
    reset: () => void statements.splice(0),
  };
}

type Recorder = (statement: string) => void;

/**
 * `target` with some members replaced; every other method is bound to `target` itself (PGlite
 * keeps its state in private fields, which a proxy as `this` cannot reach). `instanceof` still
 * holds, so Drizzle and the domain treat it as the client it wraps.
 */
function overlay<T extends object>(target: T, members: Partial<T>): T {
  return new Proxy(target, {
    get(object, key) {
      if (Object.hasOwn(members, key)) return members[key as keyof T];
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === "function"
        ? (value as (...a: unknown[]) => unknown).bind(object)
        : value;
    },
  });
}

/** The statement-sending members of PGlite and of its transactions, counted. */
function countingQueries(target: PGlite | Transaction, record: Recorder) {
  return {
    query: ((text: string, ...rest: unknown[]) => {
      record(text);
      return (target.query as (...a: unknown[]) => unknown)(text, ...rest);
    }) as PGlite["query"],
    exec: ((text: string, ...rest: unknown[]) => {
      record(text);
      return (target.exec as (...a: unknown[]) => unknown)(text, ...rest);
    }) as PGlite["exec"],
    sql: ((strings: TemplateStringsArray, ...values: unknown[]) => {
      record(strings.join("$"));
      return target.sql(strings, ...values);
    }) as PGlite["sql"],
  };
}

function countingPglite(client: PGlite, record: Recorder): PGlite {
  const transaction = async <T>(work: (tx: Transaction) => Promise<T>): Promise<T> => {
    record("begin");
    let closedByWork = false;
    try {
      const result = await client.transaction((tx) =>
        work(
          overlay(tx, {
            ...countingQueries(tx, record),
            rollback: () => {
              record("rollback");
              closedByWork = true;
              return tx.rollback();
            },
          }),
        ),
      );
      if (!closedByWork) record("commit");
      return result;
    } catch (error) {
      if (!closedByWork) record("rollback");
      throw error;
    }
  };
  return overlay(client, { ...countingQueries(client, record), transaction });
}

function countingPool(pool: pg.Pool, record: Recorder): pg.Pool {
  const textOf = (config: unknown) =>
    typeof config === "string" ? config : String((config as { text?: unknown }).text);
  const query = <T extends { query: (...a: never[]) => unknown }>(target: T) =>
    ((config: unknown, ...rest: unknown[]) => {
      record(textOf(config));
      return (target.query as (...a: unknown[]) => unknown)(config, ...rest);
    }) as T["query"];
  // Drizzle runs a transaction on a client of its own from `connect()`: BEGIN, the work and
  // COMMIT go through that client's `query`.
  const connect = (async () => {
    const connection = await pool.connect();
    return overlay(connection, { query: query(connection) });
  }) as pg.Pool["connect"];
  return overlay(pool, { query: query(pool), connect });
}
