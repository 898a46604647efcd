import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { appSecrets } from "#db/schema/index.ts";
import type { Deps } from "./deps.ts";

/**
 * A secret the application makes for itself the first time it needs it and keeps in the
 * database, so every instance on the same database shares it and restarts keep it.
 */
export async function getOrCreateSecret(deps: Pick<Deps, "db">, name: string): Promise<string> {
  await deps.db
    .insert(appSecrets)
    .values({ name, value: randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await deps.db.select().from(appSecrets).where(eq(appSecrets.name, name));
  if (!row) throw new Error(`secret ${name} could not be stored`);
  return row.value;
}
