/** `npm run db:migrate`: applies the committed migrations to the configured database. */
import { DatabaseBusyError } from "./client.ts";
import {
  DatabaseEnvError,
  loadDotEnv,
  openDatabaseFromEnv,
  parseDatabaseEnv,
} from "./open-from-env.ts";

loadDotEnv();
try {
  const database = await openDatabaseFromEnv(parseDatabaseEnv());
  await database.migrate();
  await database.close();
  console.log(`Migrations applied (${database.backend}).`);
} catch (error) {
  // A bad variable or a running server: say so in one line; anything else with its stack.
  if (!(error instanceof DatabaseEnvError || error instanceof DatabaseBusyError)) throw error;
  console.error(`Error: ${error.message}`);
  process.exitCode = 1;
}
