/** `npm run db:seed`: writes the demo catalogue into the configured database (idempotent). */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import pino from "pino";
import { openDatabase } from "../db/client.ts";
import { seedCatalogue } from "../domain/catalogue/seed-catalogue.ts";
import { parseEnv } from "../server/env.ts";
import { loadPropertyContent } from "./load-properties.ts";

const root = resolve(import.meta.dirname, "..");
if (existsSync(join(root, ".env"))) process.loadEnvFile(join(root, ".env"));
const env = parseEnv();
const database = await openDatabase(
  env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
);
await database.migrate();
const result = await seedCatalogue(
  { db: database.db, log: pino({ level: "warn" }) },
  loadPropertyContent(join(root, "content/properties")),
);
await database.close();
console.log(
  `Seeded ${result.properties} properties and ${result.images} images (${database.backend}).`,
);
