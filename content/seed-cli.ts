/**
 * `npm run db:seed`: writes the demo catalogue into the configured database (idempotent).
 * `npm run db:seed -- --demo-admin`: also creates a demo admin (admin@ADMIN_EMAIL_DOMAIN) with
 * a fresh random password printed once, for local use only: refused when NODE_ENV=production.
 */
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import pino from "pino";
import { DatabaseBusyError } from "#db/client.ts";
import {
  DatabaseEnvError,
  loadDotEnv,
  openDatabaseFromEnv,
  parseDatabaseEnv,
} from "#db/open-from-env.ts";
import { seedCatalogue } from "#domain/catalogue/seed-catalogue.ts";
import { createStaffAccount } from "#domain/staff/accounts.ts";
import { loadPropertyContent } from "./load-properties.ts";

const { values } = parseArgs({ options: { "demo-admin": { type: "boolean", default: false } } });
const root = resolve(import.meta.dirname, "..");
loadDotEnv(root);
// What --demo-admin reads besides the database, with the server's defaults (server/env.ts).
// The account's email is checked like any staff email when it is created.
const env = {
  NODE_ENV: process.env.NODE_ENV,
  ADMIN_EMAIL_DOMAIN: process.env.ADMIN_EMAIL_DOMAIN?.trim() || "castellum.example",
  PUBLIC_URL: (process.env.PUBLIC_URL || `http://localhost:${process.env.PORT || 3000}`).replace(
    /\/$/,
    "",
  ),
};
if (values["demo-admin"] && env.NODE_ENV === "production") {
  console.error(
    "Error: the demo admin is for local use only; it is never created when NODE_ENV=production.",
  );
  process.exit(1);
}
let database;
try {
  database = await openDatabaseFromEnv(parseDatabaseEnv());
} catch (error) {
  if (!(error instanceof DatabaseBusyError || error instanceof DatabaseEnvError)) throw error;
  console.error(`Error: ${error.message}`);
  process.exit(1);
}
const deps = { db: database.db, log: pino({ level: "warn" }) };
await database.migrate();
const result = await seedCatalogue(deps, loadPropertyContent(join(root, "content/properties")));
console.log(
  `Seeded ${result.properties} properties and ${result.images} images (${database.backend}).`,
);
if (result.skipped.length > 0) {
  console.log(`Kept ${result.skipped.length} fields that an owner or staff has edited:`);
  for (const kept of result.skipped)
    console.log(
      `  estate ${kept.propertyId}: ${kept.field}${kept.lang === "*" ? "" : ` (${kept.lang})`}, edited by ${kept.editedByRole}`,
    );
}
if (values["demo-admin"]) {
  const email = `admin@${env.ADMIN_EMAIL_DOMAIN}`;
  const password = `demo-${randomBytes(9).toString("base64url")}`;
  const created = await createStaffAccount(deps, {
    email,
    password,
    displayName: "Demo Admin",
    isAdmin: true,
  });
  if (created.outcome === "created")
    console.log(`Demo admin: ${email} / ${password} (sign in at ${env.PUBLIC_URL}/admin/login)`);
  else if (created.outcome === "duplicate")
    console.log(
      `Demo admin ${email} exists already; change its password with npm run staff -- reset-password ${email}`,
    );
  else console.error(`Error: the demo admin could not be created (${created.outcome}).`);
}
await database.close();
