import { randomBytes } from "node:crypto";
import { join } from "node:path";
import pg from "pg";
import { createTestLogger } from "./error-log.ts";
import { afterAll, beforeAll, describe } from "vitest";
import { loadPropertyContent } from "../../content/load-properties.ts";
import { type DatabaseBackend, type DatabaseHandle, openDatabase } from "../../db/client.ts";
import { seedCatalogue } from "../../domain/catalogue/seed-catalogue.ts";
import type { Deps } from "../../domain/deps.ts";
import { TEST_PASSWORD_COST } from "./staff.ts";
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

/**
 * A migrated database of its own for one suite: in-memory PGlite, or a fresh database on the
 * PostgreSQL server of TEST_DATABASE_URL (dropped afterwards).
 */
export async function openTestDatabase(
  backend: DatabaseBackend,
): Promise<TestDatabase & { dispose(): Promise<void> }> {
  const log = createTestLogger();
  if (backend === "pglite") {
    const handle = await openDatabase({ memory: true });
    await handle.migrate();
    return {
      deps: { db: handle.db, log, passwordCost: TEST_PASSWORD_COST },
      handle,
      dispose: () => handle.close(),
    };
  }
  const url = testDatabaseUrl();
  if (!url) throw new Error("PostgreSQL suites run in the all tier only (TEST_TIER=all)");
  // A database of its own per suite, created beside TEST_DATABASE_URL's and dropped afterwards.
  const name = `castellum_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(url, `create database ${name}`);
  const suiteUrl = new URL(url);
  suiteUrl.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: suiteUrl.toString(), poolSize: 4 });
  await handle.migrate();
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
        current = await openTestDatabase(backend);
        if (options.seed !== false) await seedCatalogue(current.deps, DEMO_CATALOGUE);
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
