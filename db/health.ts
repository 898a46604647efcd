import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Database } from "./client.ts";

export interface MigrationStatus {
  /** Every committed migration has been applied to this database. */
  isCurrent: boolean;
  /** `when` of the newest committed migration (drizzle's folderMillis). */
  expected: number;
  /** created_at of the newest applied migration, or null on a database never migrated. */
  applied: number | null;
}

/** The newest migration's timestamp in the committed journal, read once per folder. */
const expectedByFolder = new Map<string, number>();

function newestCommittedMigration(migrationsFolder: string): number {
  let expected = expectedByFolder.get(migrationsFolder);
  if (expected === undefined) {
    const journal = JSON.parse(
      readFileSync(join(migrationsFolder, "meta/_journal.json"), "utf8"),
    ) as { entries: { when: number }[] };
    expected = Math.max(0, ...journal.entries.map((entry) => entry.when));
    expectedByFolder.set(migrationsFolder, expected);
  }
  return expected;
}

/**
 * Compares the database's applied migrations with the committed journal, the way drizzle's
 * migrator decides what to apply (by the newest `created_at`): an instance whose code expects
 * a newer schema than the database has is not ready. One small query; throws when the
 * database cannot be reached.
 */
export async function readMigrationStatus(
  db: Database,
  migrationsFolder: string,
): Promise<MigrationStatus> {
  const expected = newestCommittedMigration(migrationsFolder);
  const result = await db.execute<{ applied: string | number | null }>(
    sql`select max(created_at) as applied from drizzle.__drizzle_migrations`,
  );
  const raw = (result as unknown as { rows: { applied: string | number | null }[] }).rows[0]
    ?.applied;
  const applied = raw === null || raw === undefined ? null : Number(raw);
  return { isCurrent: applied !== null && applied >= expected, expected, applied };
}

/** One round trip to the database; throws when it cannot be reached. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}
