import { sql } from "drizzle-orm";
import express from "express";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER } from "#db/client.ts";
import { translate } from "#i18n/translate.ts";
import { BACKENDS, openTestDatabase, type TestDatabase } from "#tests/setup/database.ts";
import { listenOnFreePort } from "#tests/setup/http.ts";
import { seedCatalogue } from "#domain/catalogue/seed-catalogue.ts";
import { DEMO_CATALOGUE } from "#tests/setup/database.ts";
import { createExpressApp } from "../app.ts";
import { languageMiddleware } from "../middleware/language.ts";
import { isDatabaseUnavailable } from "./database-outage.ts";
import { createOps } from "./ops.ts";

describe("isDatabaseUnavailable", () => {
  it("knows a lost server from a failed query", () => {
    const terminated = Object.assign(
      new Error("terminating connection due to administrator command"),
      { code: "57P01" },
    );
    expect(isDatabaseUnavailable(terminated)).toBe(true);
    // drizzle wraps the driver's error
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error("Failed query: select 1"), { cause: terminated }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(
      isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" })),
    ).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
  });
});

/** Statements on the server's maintenance database, beside the suite's own. */
async function onServer(statements: string[]) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

function terminateBackendsOf(name: string) {
  return `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`;
}

describe.runIf(BACKENDS.includes("postgres"))("database outage [postgres]", () => {
  let database: TestDatabase & { dispose(): Promise<void> };
  let name = "";
  let apiUrl = "";
  let pageUrl = "";
  const closers: (() => Promise<void>)[] = [];
  let slug = "";

  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    await seedCatalogue(database.deps, DEMO_CATALOGUE);
    const result = await database.deps.db.execute<{ name: string }>(
      sql`select current_database() as name`,
    );
    name = (result as unknown as { rows: { name: string }[] }).rows[0]!.name;
    const ops = createOps({
      deps: database.deps,
      database: database.handle,
      migrationsFolder: MIGRATIONS_FOLDER,
    });
    const api = await listenOnFreePort(
      createExpressApp({
        deps: database.deps,
        env: { NODE_ENV: "test", PUBLIC_URL: "http://localhost" },
        ops,
      }),
    );
    apiUrl = api.baseUrl;
    closers.push(api.close);
    // The page gate in front of a page that, like React Router's error page, answers 500 when
    // its loader's query fails.
    const pages = express();
    pages.use(languageMiddleware({ secureCookie: false }));
    pages.use(ops.outage.pageGate());
    pages.get("/castles", async (_req, res) => {
      try {
        await database.deps.db.execute(sql`select count(*) from properties`);
        res.send("<h1>castles</h1>");
      } catch {
        res.status(500).send("<h1>Something went wrong</h1>");
      }
    });
    const pageServer = await listenOnFreePort(pages);
    pageUrl = pageServer.baseUrl;
    closers.push(pageServer.close);
    const castles = (await (await fetch(`${apiUrl}/api/castles?lang=en`)).json()) as {
      slug: string;
    }[];
    slug = castles[0]!.slug;
  });
  afterEach(() => onServer([`alter database ${name} allow_connections true`]));
  afterAll(async () => {
    for (const close of closers) await close();
    await database?.dispose();
  });

  it("after every connection is terminated, a request gets 503 or succeeds and the next succeeds", async () => {
    // Fill the pool with idle connections, then end them all from the server side.
    await Promise.all(
      Array.from({ length: 4 }, () => fetch(`${apiUrl}/api/castles/${slug}?lang=fr`)),
    );
    await onServer([terminateBackendsOf(name)]);
    const during = await fetch(`${apiUrl}/api/castles/${slug}?lang=fr`);
    expect([200, 503]).toContain(during.status);
    if (during.status === 503)
      expect(await during.json()).toEqual({
        message: translate("fr", "errors.serviceUnavailable"),
        code: "service_unavailable",
      });
    const after = await fetch(`${apiUrl}/api/castles/${slug}?lang=fr`);
    expect(after.status).toBe(200);
    expect((await fetch(`${apiUrl}/readyz`)).status).toBe(200);
  });

  it("while the database refuses connections: 503 in the visitor's language, then recovery without restart", async () => {
    // A page while the database answers: any suspicion left by the test before is cleared.
    expect((await fetch(`${pageUrl}/castles`)).status).toBe(200);
    await onServer([`alter database ${name} allow_connections false`, terminateBackendsOf(name)]);

    // The first page fails as any error does; the gate then checks the database and answers
    // 503 in the visitor's language rather than failing every page the same way.
    expect((await fetch(`${pageUrl}/castles?lang=zh`)).status).toBe(500);
    const page = await fetch(`${pageUrl}/castles?lang=zh`);
    expect(page.status).toBe(503);
    const html = await page.text();
    expect(html).toContain('<html lang="zh-Hans">');
    expect(html).toContain(translate("zh", "errors.serviceUnavailable"));

    const api = await fetch(`${apiUrl}/api/castles/${slug}?lang=it`);
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toMatch(/^\d+$/);
    const body = (await api.json()) as { message: string };
    expect(body.message).toBe(translate("it", "errors.serviceUnavailable"));
    expect(body.message).not.toBe(translate("en", "errors.serviceUnavailable"));
    expect((await fetch(`${apiUrl}/readyz`)).status).toBe(503);

    await onServer([`alter database ${name} allow_connections true`]);
    expect((await fetch(`${apiUrl}/api/castles/${slug}?lang=it`)).status).toBe(200);
    expect((await fetch(`${pageUrl}/castles?lang=zh`)).status).toBe(200);
    expect((await fetch(`${apiUrl}/readyz`)).status).toBe(200);
  });
});
