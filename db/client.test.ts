import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKENDS, openTestDatabase } from "#tests/setup/database.ts";
import { withTransaction } from "./client.ts";

/**
 * A PostgreSQL connection can end at any moment (a failover, a restart, pg_terminate_backend),
 * including while the app holds it between the statements of a transaction. That must fail the
 * work in hand, not the process (an unhandled 'error' event would end it), and the next
 * request must get a fresh connection.
 */
describe.skipIf(!BACKENDS.includes("postgres"))(
  "a PostgreSQL connection ended by the server",
  () => {
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    let admin: pg.Client;
    beforeAll(async () => {
      database = await openTestDatabase("postgres");
      admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
    });
    afterAll(async () => {
      await admin.end();
      await database.dispose();
    });

    it("fails the transaction that held it, and the next query runs on a new connection", async () => {
      const { db } = database.deps;
      const unhandled: unknown[] = [];
      const onUncaught = (error: unknown) => unhandled.push(error);
      process.on("uncaughtException", onUncaught);
      // The connections the pool hands out, to find the one the transaction holds.
      const pool = (db as unknown as { $client: pg.Pool }).$client;
      const acquired = new Set<pg.PoolClient>();
      const onAcquire = (client: pg.PoolClient) => acquired.add(client);
      pool.on("acquire", onAcquire);
      try {
        const work = withTransaction(db, async (tx) => {
          const result = (await tx.execute(sql`select pg_backend_pid() as pid`)) as {
            rows: { pid: number }[];
          };
          const pid = result.rows[0]!.pid;
          const held = [...acquired].find(
            (client) => (client as unknown as { processID: number }).processID === pid,
          );
          if (!held) throw new Error("the transaction's connection was not seen");
          // Listening for its end, not its error: a listener of 'error' here would hide the one
          // the pool must add. (events.once would add one: it rejects on 'error', and did so
          // before it was awaited, an unhandled rejection.)
          const ended = new Promise<void>((resolve) => held.once("end", () => resolve()));
          await admin.query("select pg_terminate_backend($1)", [pid]);
          // The server's notice arrives while the connection sits idle in the transaction (the
          // 'error' event that, unheard, would end the process), then the connection ends.
          await ended;
          await tx.execute(sql`select 1`);
        });
        await expect(work).rejects.toThrow();
        const after = (await db.execute(sql`select 2 as two`)) as { rows: unknown[] };
        expect(after.rows).toEqual([{ two: 2 }]);
        expect(unhandled).toEqual([]);
      } finally {
        pool.off("acquire", onAcquire);
        process.off("uncaughtException", onUncaught);
      }
    });
  },
);
