import { sql } from "drizzle-orm";
import pg from "pg";
import type { Deps } from "../deps.ts";

/**
 * The PostgreSQL channel on which writers announce that the public catalogue changed. Every
 * app instance listens on it and drops the pages and API answers it keeps in memory.
 */
export const CATALOGUE_CHANNEL = "castellum_catalogue";

/** What changed: some estates, or (no ids) possibly all of them. */
export interface CatalogueChange {
  propertyIds?: number[];
}

/** NOTIFY payloads are limited to 8000 bytes; a longer list is sent as "everything". */
const MAX_PAYLOAD_BYTES = 7900;

/**
 * Announces a change to the public catalogue. Call it inside the writer's transaction:
 * PostgreSQL (and PGlite, in its own process) deliver a NOTIFY when the transaction commits and
 * never when it rolls back, so listeners cannot drop an answer before the new data is readable,
 * nor for a change that did not happen. Outside a transaction it is delivered at once.
 */
export async function notifyCatalogueChanged(
  deps: Pick<Deps, "db">,
  change: CatalogueChange = {},
): Promise<void> {
  let payload = JSON.stringify(change.propertyIds ? { propertyIds: change.propertyIds } : {});
  if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) payload = "{}";
  await deps.db.execute(sql`select pg_notify(${CATALOGUE_CHANNEL}, ${payload})`);
}

/** Reads a notification's payload; anything unreadable means "possibly everything". */
export function parseCatalogueChange(payload: string | undefined): CatalogueChange {
  try {
    const value = JSON.parse(payload ?? "{}") as { propertyIds?: unknown };
    const ids = value.propertyIds;
    if (Array.isArray(ids) && ids.every((id) => Number.isInteger(id)))
      return { propertyIds: ids as number[] };
  } catch {
    // An unreadable payload is treated like one without ids.
  }
  return {};
}

export interface CatalogueChangeHandlers {
  /** A writer committed a change. */
  onChange(change: CatalogueChange): void;
  /**
   * Listening (again): from now on every change is told. After a lost connection, changes in
   * between were missed, so whatever was kept from before must be dropped.
   */
  onListening(): void;
  /** The connection is lost: changes are not being told until `onListening` again. */
  onLost(error: unknown): void;
}

export interface CatalogueChangeListener {
  close(): Promise<void>;
}

export interface ListenOptions {
  /** First wait before reconnecting, doubled per failure up to `maxRetryMs`. */
  minRetryMs?: number;
  maxRetryMs?: number;
  /** How often the PostgreSQL connection is checked (a half-open TCP link says nothing). */
  heartbeatMs?: number;
}

/**
 * Listens for catalogue changes on this instance's database. On PostgreSQL a dedicated
 * connection (not one of the pool's) runs `LISTEN`, and reconnects with backoff when it is
 * lost; on PGlite, which lives in this process, its own LISTEN delivers every change made
 * through it. Resolves after the first attempt to listen, whether or not it succeeded.
 */
export async function listenForCatalogueChanges(
  deps: Deps,
  handlers: CatalogueChangeHandlers,
  options: ListenOptions = {},
): Promise<CatalogueChangeListener> {
  const client = (deps.db as unknown as { $client: unknown }).$client;
  const onPayload = (payload: string | undefined) =>
    handlers.onChange(parseCatalogueChange(payload));
  if (client instanceof pg.Pool)
    return listenOnPostgres(client, deps.log, onPayload, handlers, options);
  const pglite = client as {
    listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  };
  if (typeof pglite.listen !== "function") throw new Error("unknown database client");
  const unlisten = await pglite.listen(CATALOGUE_CHANNEL, onPayload);
  handlers.onListening();
  return { close: () => unlisten() };
}

async function listenOnPostgres(
  pool: pg.Pool,
  log: Deps["log"],
  onPayload: (payload: string | undefined) => void,
  handlers: CatalogueChangeHandlers,
  options: ListenOptions,
): Promise<CatalogueChangeListener> {
  const minRetryMs = options.minRetryMs ?? 100;
  const maxRetryMs = options.maxRetryMs ?? 5000;
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  let current: pg.Client | null = null;
  let closed = false;
  let retryMs = minRetryMs;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  const lost = new WeakSet<pg.Client>();

  /** Once per connection: forget it, tell the handlers if it was listening, retry later. */
  const lose = (client: pg.Client, error: unknown) => {
    if (lost.has(client)) return;
    lost.add(client);
    client.removeAllListeners();
    client.on("error", () => {});
    void client.end().catch(() => {});
    if (closed) return;
    const wasListening = current === client;
    if (wasListening) {
      current = null;
      clearInterval(heartbeat);
      handlers.onLost(error);
    } else {
      log.warn({ err: error, retryMs }, "could not listen for catalogue changes; retrying");
    }
    retry = setTimeout(() => void connect(), retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  };

  const connect = async () => {
    // The pool's own settings (connection string, credentials, TLS), on a connection of its own.
    const client = new pg.Client({ ...pool.options, keepAlive: true });
    client.on("notification", (message) => {
      if (message.channel === CATALOGUE_CHANNEL) onPayload(message.payload);
    });
    client.on("error", (error) => lose(client, error));
    client.on("end", () => lose(client, new Error("connection ended")));
    try {
      await client.connect();
      await client.query(`listen ${CATALOGUE_CHANNEL}`);
    } catch (error) {
      lose(client, error);
      return;
    }
    if (closed || lost.has(client)) return void client.end().catch(() => {});
    current = client;
    retryMs = minRetryMs;
    heartbeat = setInterval(() => {
      const timeout = new Promise((_, reject) =>
        setTimeout(() => reject(new Error("heartbeat timed out")), heartbeatMs / 2).unref(),
      );
      Promise.race([client.query("select 1"), timeout]).catch((error: unknown) =>
        lose(client, error),
      );
    }, heartbeatMs);
    heartbeat.unref();
    handlers.onListening();
  };

  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const client = current;
      current = null;
      await client?.end().catch(() => {});
    },
  };
}
