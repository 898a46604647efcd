/** `npm run db:migrate`: applies the committed migrations to the configured database. */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseEnv } from "../server/env.ts";
import { openDatabase } from "./client.ts";

const root = resolve(import.meta.dirname, "..");
if (existsSync(join(root, ".env"))) process.loadEnvFile(join(root, ".env"));
const env = parseEnv();
const database = await openDatabase(
  env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
);
await database.migrate();
await database.close();
console.log(`Migrations applied (${database.backend}).`);
