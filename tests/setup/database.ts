import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { createTestLogger } from "./error-log.ts";
import { afterAll, beforeAll, describe } from "vitest";
import { loadPropertyContent } from "#content/load-properties.ts";
import { type DatabaseBackend, type DatabaseHandle, openDatabase } from "#db/client.ts";
import { seedCatalogue } from "#domain/catalogue/seed-catalogue.ts";
import type { Deps } from "#domain/deps.ts";
import { TEST_PASSWORD_COST } from "./staff.ts";
import { postgresTemplatePrefix } from "./postgres-templates.ts";
import { testDatabaseUrl } from "./tier.ts";

export const ROOT_DIR = join(import.meta.dirname, "../..");
export const DEMO_CATALOGUE = loadPropertyContent(join(ROOT_DIR, "content/properties"));

/**
 * The backends a database suite runs on: PGlite always; PostgreSQL too in the `all` tier
 * (`npm run test:all`, tests/setup/tier.ts), never in `npm test` even if TEST_DATABASE_URL is set.
 */
export const BACKENDS: DatabaseBackend[] = testDatabaseUrl() ? ["pglite", "postgres"] : ["pglite"];

export interface TestDatabase {
  deps: Deps;
  handle: DatabaseHandle;
}

/** Where a suite's database starts: migrated, or migrated and seeded with the demo catalogue. */
export type DatabaseStart = "migrated" | "seeded";

/**
 * Every suite starts from a copy of a database this test process migrated (and seeded) once:
 * migrating an in-memory PGlite took about 5 s a suite, some 90 suites a run, and a copy loads
 * in a fraction of that; on PostgreSQL a database made from a template skips the migrations and
 * the seed the same way. With the workers keeping their modules between files (vitest.config.ts)
 * a process makes each template once.
 */
const templates = new Map<string, Promise<string | Blob>>();

function template(backend: DatabaseBackend, start: DatabaseStart): Promise<string | Blob> {
  const key = `${backend}:${start}`;
  let made = templates.get(key);
  if (!made) {
    made = backend === "pglite" ? pgliteTemplate(start) : postgresTemplate(start);
    templates.set(key, made);
    // A failed template is made again by the next suite, not reused.
    made.catch(() => templates.delete(key));
  }
  return made;
}

async function pgliteTemplate(start: DatabaseStart): Promise<Blob> {
  const handle =
    start === "seeded"
      ? await openDatabase({ memory: true, from: (await template("pglite", "migrated")) as Blob })
      : await openDatabase({ memory: true });
  try {
    if (start === "migrated") await handle.migrate();
    else await seedCatalogue({ db: handle.db, log: createTestLogger() }, DEMO_CATALOGUE);
    return await handle.snapshot!();
  } finally {
    await handle.close();
  }
}

async function postgresTemplate(start: DatabaseStart): Promise<string> {
  const url = requirePostgres();
  const name = `${postgresTemplatePrefix()}${start}_${randomBytes(6).toString("hex")}`;
  if (start === "seeded")
    await adminQuery(
      url,
      `create database ${name} template ${(await template("postgres", "migrated")) as string}`,
    );
  else await adminQuery(url, `create database ${name}`);
  const handle = await openDatabase({ databaseUrl: databaseAt(url, name), poolSize: 1 });
  try {
    if (start === "migrated") await handle.migrate();
    else await seedCatalogue({ db: handle.db, log: createTestLogger() }, DEMO_CATALOGUE);
  } finally {
    // A template must have no connection left when a database is copied from it.
    await handle.close();
  }
  return name;
}

function requirePostgres(): string {
  const url = testDatabaseUrl();
  if (!url) throw new Error("PostgreSQL suites run in the all tier only (TEST_TIER=all)");
  return url;
}

function databaseAt(url: string, name: string): string {
  const at = new URL(url);
  at.pathname = `/${name}`;
  return at.toString();
}

/**
 * A migrated database of its own for one suite (seeded with the demo catalogue if `start` says
 * so): in-memory PGlite, or a fresh database on the PostgreSQL server of TEST_DATABASE_URL
 * (dropped afterwards).
 */
export async function openTestDatabase(
  backend: DatabaseBackend,
  start: DatabaseStart = "migrated",
): Promise<TestDatabase & { dispose(): Promise<void> }> {
  const log = createTestLogger();
  const from = await template(backend, start);
  if (backend === "pglite") {
    const handle = await openDatabase({ memory: true, from: from as Blob });
    return {
      deps: { db: handle.db, log, passwordCost: TEST_PASSWORD_COST },
      handle,
      dispose: () => handle.close(),
    };
  }
  const url = requirePostgres();
  // A database of its own per suite, beside TEST_DATABASE_URL's, dropped afterwards.
  const name = `castellum_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(url, `create database ${name} template ${from as string}`);
  const handle = await openDatabase({ databaseUrl: databaseAt(url, name), poolSize: 4 });
  return {
    deps: { db: handle.db, log, passwordCost: TEST_PASSWORD_COST },
    handle,
    dispose: async () => {
      await handle.close();
      await adminQuery(url, `drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * Runs `suite` once per backend, each with its own migrated database (seeded with the demo
 * catalogue unless `seed` is false). Suite titles name the backend, so the output says which ran.
 */
export function describeEachBackend(
  title: string,
  suite: (database: () => TestDatabase, backend: DatabaseBackend) => void,
  options: { seed?: boolean } = {},
) {
  for (const backend of BACKENDS) {
    describe(`${title} [${backend}]`, () => {
      let current: (TestDatabase & { dispose(): Promise<void> }) | undefined;
      beforeAll(async () => {
        current = await openTestDatabase(backend, options.seed === false ? "migrated" : "seeded");
      });
      afterAll(async () => {
        await current?.dispose();
      });
      suite(() => {
        if (!current) throw new Error("database not ready");
        return current;
      }, backend);
    });
  }
}

async function adminQuery(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A second instance on the suite's database, as a second app process would see it: on
 * PostgreSQL a pool of its own (so the two race for rows and locks for real); on PGlite, which
 * one process holds, the same database. Close it when done.
 */
export async function secondInstance(
  database: TestDatabase,
  backend: DatabaseBackend,
): Promise<{ deps: Deps; close(): Promise<void> }> {
  const first = database.deps;
  if (backend === "pglite") return { deps: first, close: async () => {} };
  const result = (await first.db.execute(sql`select current_database() as name`)) as {
    rows: { name: string }[];
  };
  const url = databaseAt(requirePostgres(), result.rows[0]?.name ?? "");
  const handle = await openDatabase({ databaseUrl: url, poolSize: 4 });
  return { deps: { ...first, db: handle.db }, close: () => handle.close() };
}
