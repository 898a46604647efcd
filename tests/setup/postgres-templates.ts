import pg from "pg";

/**
 * The prefix of a run's template databases on PostgreSQL (tests/setup/database.ts): the run's
 * process, the workers' parent, is in it, so the run's teardown drops its own templates and
 * never those of another run on the same server.
 */
export function postgresTemplatePrefix(runPid: number = process.ppid): string {
  return `castellum_template_${runPid}_`;
}

/** Drops the templates the run's workers left (called in the run's own process, at its end). */
export async function dropPostgresTemplates(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      "select datname from pg_database where starts_with(datname, $1)",
      [postgresTemplatePrefix(process.pid)],
    );
    for (const { datname } of rows)
      await client.query(`drop database if exists ${datname} with (force)`);
  } finally {
    await client.end();
  }
}
