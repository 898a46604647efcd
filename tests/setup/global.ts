/** Says which database backends the integration suites run on, before and after the run. */
export default function setup() {
  const url = process.env.TEST_DATABASE_URL;
  const line = url
    ? `Database suites run on: PGlite (embedded) and PostgreSQL (${redact(url)})`
    : "Database suites run on: PGlite (embedded) only; set TEST_DATABASE_URL to add PostgreSQL";
  console.log(`\n${line}\n`);
  return () => console.log(`\n${line}\n`);
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "invalid URL";
  }
}
