import { join } from "node:path";
import { loadPropertyContent } from "#content/load-properties.ts";
import type { DatabaseHandle } from "#db/client.ts";
import { openDatabaseFromEnv } from "#db/open-from-env.ts";
import {
  isCatalogueEmpty,
  refreshSearchDocuments,
  seedCatalogue,
} from "#domain/catalogue/seed-catalogue.ts";
import type { Deps } from "#domain/deps.ts";
import { fileOffsetClock } from "./clock-file.ts";
import type { Env } from "./env.ts";
import { createLogger } from "./logger.ts";

/**
 * Opens the database (PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR), applies
 * the migrations and, on an empty database, seeds the demo catalogue.
 */
export async function createDeps(
  env: Env,
  rootDir: string,
): Promise<{ deps: Deps; database: DatabaseHandle }> {
  const log = createLogger(env);
  const started = performance.now();
  const database = await openDatabaseFromEnv(env, {
    migrationsFolder: join(rootDir, "db/migrations"),
    onIdleError: (error) => log.warn({ err: error }, "idle database connection lost"),
    replicaUrls: env.DATABASE_REPLICA_URLS,
  });
  await database.migrate();
  const deps: Deps = {
    db: database.db,
    log,
    secretsKey: env.APP_SECRETS_KEY,
    ...(env.CLOCK_OFFSET_FILE ? { clock: fileOffsetClock(env.CLOCK_OFFSET_FILE) } : {}),
  };
  if (env.SEED_DEMO_CATALOGUE && (await isCatalogueEmpty(deps))) {
    await seedCatalogue(deps, loadPropertyContent(join(rootDir, "content/properties")));
  } else {
    await refreshSearchDocuments(deps);
  }
  log.info(
    { backend: database.backend, ms: Math.round(performance.now() - started) },
    "database ready",
  );
  return { deps, database };
}
