import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { openDatabase } from "#db/client.ts";
import {
  type CatalogueChange,
  listenForCatalogueChanges,
  notifyCatalogueChanged,
} from "#domain/catalogue/catalogue-changes.ts";
import { seedCatalogue } from "#domain/catalogue/seed-catalogue.ts";
import type { Deps } from "#domain/deps.ts";
import { updateEstateField } from "#domain/owners/edits.ts";
import {
  BACKENDS,
  DEMO_CATALOGUE,
  describeEachBackend,
  openTestDatabase,
} from "#tests/setup/database.ts";
import { createTestLogger } from "#tests/setup/error-log.ts";
import { createLogger } from "./logger.ts";
import { listenOnFreePort } from "#tests/setup/http.ts";
import { testServicesEnv } from "#tests/setup/intake.ts";
import { loadPages, type PageServer } from "#tests/setup/pages.ts";
import { countQueries, type QueryCounter } from "#tests/setup/query-counter.ts";
import { rawRequest } from "#tests/setup/raw-http.ts";
import { createTestStaff, signIn } from "#tests/setup/staff.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { createExpressApp } from "./app.ts";
import type { ResponseCache } from "./middleware/response-cache.ts";
import { createServices, type Services } from "./services.ts";

const GORDON = demoEstate("gordon-castle");
const OWNER = { role: "owner", email: GORDON.email } as const;

/**
 * SQL statements a cold (uncached) answer may send today. Upper bounds, not targets: lower
 * them when the reads get leaner, never raise them without a reason.
 */
const COLD_QUERY_BUDGET = {
  "/api/castles?lang=fr": 3,
  "/api/castles/gordon-castle": 3,
  // The estate's id, then its taken nights (one probe of the GiST index).
  "/api/castles/gordon-castle/availability": 2,
  "/castles": 5,
  "/property/gordon-castle": 4,
};

/**
 * The moment (`performance.now()`) `cache` next runs `method`: `invalidate` when it hears a
 * change, `disable` when its listener is lost, `enable` when it is back. Asked for before the
 * change, so none is missed.
 */
function nextCall(
  cache: ResponseCache,
  method: "invalidate" | "enable" | "disable",
): Promise<number> {
  const original = cache[method].bind(cache);
  return new Promise((resolve) => {
    const spy = vi.spyOn(cache, method).mockImplementation(() => {
      spy.mockRestore();
      original();
      resolve(performance.now());
    });
  });
}

describeEachBackend("the site's response cache", (database) => {
  let pages: PageServer;
  let counter: QueryCounter;
  let services: Services;
  let baseUrl = "";
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    pages = await loadPages();
    // The app's own queries are counted; the services' (mail worker, listener) are not.
    counter = countQueries(database().deps);
    services = await createServices(database().deps, testServicesEnv({ MAIL_POLL_MS: 60_000 }));
    await createTestStaff(database().deps, "admin@castellum.test", { isAdmin: true });
    const app = pages.createExpressApp({
      deps: counter.deps,
      env: { NODE_ENV: "test", PUBLIC_URL: "http://localhost" },
      services,
      build: pages.build,
    });
    ({ baseUrl, close } = await listenOnFreePort(app));
  }, 120_000);
  afterAll(async () => {
    await close();
    await services?.close();
    await pages?.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    rawRequest(`${baseUrl}${path}`, headers);
  /** The request's answer and the SQL statements it cost. */
  const measure = async (path: string, headers: Record<string, string> = {}) => {
    counter.reset();
    const answer = await get(path, headers);
    return { answer, queries: counter.statements.length };
  };

  it("answers a page and an API read a second time from memory, without a query", async () => {
    for (const path of [
      "/castles?lang=it",
      "/api/castles?lang=it",
      "/property/gordon-castle",
      "/api/castles/gordon-castle/availability",
    ]) {
      const cold = await measure(path);
      expect(cold.answer.status, path).toBe(200);
      expect(cold.queries, path).toBeGreaterThan(0);
      const warm = await measure(path);
      expect(warm.answer.headers["x-cache"], path).toBe("HIT");
      expect(warm.queries, path).toBe(0);
      expect(warm.answer.text, path).toBe(cold.answer.text);
    }
  });

  it("sends each read's cold number of queries within its budget", async () => {
    const counts: Record<string, number> = {};
    for (const path of Object.keys(COLD_QUERY_BUDGET) as (keyof typeof COLD_QUERY_BUDGET)[]) {
      services.responseCache.invalidate();
      const { answer, queries } = await measure(path);
      expect(answer.status, path).toBe(200);
      counts[path] = queries;
      expect(queries, `${path}: ${counter.statements.join("\n")}`).toBeLessThanOrEqual(
        COLD_QUERY_BUDGET[path],
      );
    }
    console.info(`cold queries: ${JSON.stringify(counts)}`);
  });

  it("never answers nor stores a signed-in request", async () => {
    const cookie = await signIn(baseUrl, "admin@castellum.test");
    for (const path of ["/api/castles?lang=fr", "/castles?lang=zh"]) {
      services.responseCache.invalidate();
      for (let i = 0; i < 2; i++) {
        const signedIn = await measure(path, { Cookie: cookie });
        expect(signedIn.answer.status, path).toBe(200);
        expect(signedIn.answer.headers["x-cache"], path).toBeUndefined();
        expect(signedIn.queries, path).toBeGreaterThan(0);
      }
      // Nothing of the signed-in answers was stored: the next anonymous one is rendered.
      const anonymous = await measure(path);
      expect(anonymous.answer.headers["x-cache"], path).toBe("MISS");
      expect(anonymous.queries, path).toBeGreaterThan(0);
    }
    // Once an anonymous answer is stored…
    await get("/api/castles?lang=fr");
    expect((await get("/api/castles?lang=fr")).headers["x-cache"]).toBe("HIT");
    // …it is never handed to a signed-in request.
    expect((await measure("/api/castles?lang=fr", { Cookie: cookie })).queries).toBeGreaterThan(0);
  });

  it("sets the language cookie of ?lang= on every answer, and stores the page without it", async () => {
    services.responseCache.invalidate();
    const first = await measure("/team?lang=fr");
    const second = await measure("/team?lang=fr");
    expect(second.answer.headers["x-cache"]).toBe("HIT");
    expect(second.queries).toBe(0);
    for (const { answer } of [first, second]) {
      expect(answer.headers["set-cookie"]).toEqual([expect.stringMatching(/^lang=fr; /)]);
      expect(answer.headers["cache-control"]).toBe("private, no-cache");
      expect(answer.text).toContain('<html lang="fr"');
    }
    // The cookie it set chooses French on the next page; that answer sets no cookie.
    const next = await get("/team", { Cookie: "lang=fr" });
    expect(next.text).toContain('<html lang="fr"');
    expect(next.headers["set-cookie"]).toBeUndefined();
    expect(next.headers["cache-control"]).toBe(
      "public, max-age=0, s-maxage=60, stale-while-revalidate=300",
    );
  });

  it("answers later hits first, with the very headers and bytes the full chain gave, and no log line at info", async () => {
    const lines: { msg?: string; cache?: string; level?: number }[] = [];
    const log = createLogger(
      { LOG_LEVEL: "debug" },
      { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) },
    );
    const app = pages.createExpressApp({
      deps: { ...database().deps, log },
      env: { NODE_ENV: "test", PUBLIC_URL: "http://localhost" },
      services,
      build: pages.build,
    });
    const other = await listenOnFreePort(app);
    try {
      for (const [path, headers] of [
        // A page's language from the header: `?lang=` sets a cookie, which the chain answers.
        ["/castles?region=tuscany", { "Accept-Language": "it" }],
        ["/api/castles?lang=fr", { "Accept-Encoding": "gzip, deflate, br" }],
      ] as const) {
        services.responseCache.invalidate();
        const at = (extra: Record<string, string> = {}) =>
          rawRequest(`${other.baseUrl}${path}`, { ...headers, ...extra });
        await at(); // renders and stores
        const chain = await at(); // a hit through every middleware
        lines.length = 0;
        const fast = await at();
        expect(fast.headers["x-cache"], path).toBe("HIT");
        const comparable = (answer: typeof fast) => {
          const { "x-request-id": _id, date: _date, ...rest } = answer.headers;
          return rest;
        };
        expect(comparable(fast), path).toEqual(comparable(chain));
        expect(fast.raw.equals(chain.raw), path).toBe(true);
        // Answered before the request log: a debug line, none at info.
        expect(
          lines.filter((line) => (line.level ?? 0) >= 30),
          path,
        ).toEqual([]);
        expect(
          lines.map((line) => line.cache),
          path,
        ).toEqual(["hit"]);
        // A revalidation gets the same 304 as from the chain.
        const etag = String(fast.headers.etag);
        const notModified = await at({ "If-None-Match": etag });
        expect(notModified.status, path).toBe(304);
        expect(notModified.headers["content-security-policy"], path).toBeUndefined();
      }
    } finally {
      await other.close();
    }
  });

  it("answers a page in brotli, gzip or identity with the same text", async () => {
    const identity = await get("/castles?lang=zh");
    const br = await get("/castles?lang=zh", { "Accept-Encoding": "gzip, deflate, br" });
    const gzip = await get("/castles?lang=zh", { "Accept-Encoding": "gzip" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(br.text).toBe(identity.text);
    expect(gzip.text).toBe(identity.text);
    expect(br.raw.length).toBeLessThan(identity.raw.length / 3);
  });

  it("answers 304 until an owner's edit, then the new text with a new ETag, within a second", async () => {
    const path = `/api/castles/${GORDON.slug}?lang=fr`;
    await get(path);
    const before = await get(path);
    const etag = String(before.headers.etag);
    expect((await get(path, { "If-None-Match": etag })).status).toBe(304);
    const page = await get(`/property/${GORDON.slug}?lang=fr`);
    expect(page.text).not.toContain("Château Gordon, revu");

    const heard = nextCall(services.responseCache, "invalidate");
    await updateEstateField(database().deps, OWNER, {
      propertyId: GORDON.id,
      field: "name",
      value: "Château Gordon, revu",
      language: "fr",
    });
    const edited = performance.now();
    expect((await heard) - edited).toBeLessThan(1000);
    const revalidated = await get(path, { "If-None-Match": etag });
    expect(revalidated.status).toBe(200);
    expect(z.object({ name: z.string() }).parse(JSON.parse(revalidated.text)).name).toBe(
      "Château Gordon, revu",
    );
    const after = await get(path);
    expect(after.headers.etag).not.toBe(etag);
    expect((await get(`/property/${GORDON.slug}?lang=fr`)).text).toContain("Château Gordon, revu");
  });

  it("drops its pages when the catalogue is seeded again, but not on a dry run", async () => {
    const changed = structuredClone(DEMO_CATALOGUE);
    const estate = changed.find((item) => item.id === 1)!;
    estate.content.en.name = `${estate.content.en.name} (renamed)`;
    await get("/api/castles?lang=en");
    expect((await get("/api/castles?lang=en")).headers["x-cache"]).toBe("HIT");

    // Every announcement, heard as the cache hears it. A marker sent after the dry run arrives
    // after anything the dry run announced (notifications arrive in commit order).
    const heard: CatalogueChange[] = [];
    const listener = await listenForCatalogueChanges(database().deps, {
      onChange: (change) => heard.push(change),
      onListening: () => {},
      onLost: () => {},
    });
    try {
      await seedCatalogue(database().deps, changed, { dryRun: true });
      expect((await get("/api/castles?lang=en")).headers["x-cache"]).toBe("HIT");
      const marker = { propertyIds: [0] };
      // The site's own listener hears the marker too: once it has, nothing is left to empty
      // its cache before the real seed below.
      const markerHeard = nextCall(services.responseCache, "invalidate");
      await notifyCatalogueChanged(database().deps, marker);
      await markerHeard;
      // A dry run writes nothing, so announces nothing: the marker is all there was to hear.
      await expect.poll(() => heard).toContainEqual(marker);
      expect(heard).toEqual([marker]);
    } finally {
      await listener.close();
    }

    const emptied = nextCall(services.responseCache, "invalidate");
    await seedCatalogue(database().deps, changed);
    await emptied;
    expect((await get("/api/castles?lang=en")).text).toContain(estate.content.en.name);
  });
});

const poolOf = (deps: Deps) => (deps.db as unknown as { $client: pg.Pool }).$client;

/** The PostgreSQL connection string of a test database's pool. */
const urlOf = (deps: Deps) => String(poolOf(deps).options.connectionString);

/** Runs `npm run catalogue -- ...` against `databaseUrl`, as an operator would. */
function catalogueCli(databaseUrl: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(import.meta.dirname, "catalogue-cli.ts"), ...args],
      {
        env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, NODE_ENV: "test" },
        cwd: tmpdir(),
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

// PGlite admits one process, so one instance: its changes reach its own cache in process,
// which the suite above tests. Several instances share PostgreSQL, through LISTEN/NOTIFY.
describe.skipIf(!BACKENDS.includes("postgres"))(
  "two instances on one PostgreSQL database [postgres]",
  () => {
    let dispose: () => Promise<void> = async () => {};
    const instances: { url: string; deps: Deps; services: Services; close(): Promise<void> }[] = [];
    beforeAll(async () => {
      const database = await openTestDatabase("postgres");
      dispose = database.dispose;
      await seedCatalogue(database.deps, DEMO_CATALOGUE);
      const url = urlOf(database.deps);
      for (let i = 0; i < 2; i++) {
        // Each instance has its own pool, services and listener, as two processes would.
        const handle = await openDatabase({ databaseUrl: url, poolSize: 4 });
        const deps = { db: handle.db, log: createTestLogger() };
        const services = await createServices(deps, testServicesEnv({ MAIL_POLL_MS: 60_000 }));
        const app = createExpressApp({
          deps,
          env: { NODE_ENV: "test", PUBLIC_URL: "http://localhost" },
          services,
        });
        const server = await listenOnFreePort(app);
        instances.push({
          url: server.baseUrl,
          deps,
          services,
          close: async () => {
            await server.close();
            await services.close();
            await handle.close();
          },
        });
      }
    }, 60_000);
    afterAll(async () => {
      for (const instance of instances) await instance.close();
      await dispose();
    });

    const nameOn = async (index: number, path: string) => {
      const answer = await rawRequest(`${instances[index]!.url}${path}`);
      return { name: (JSON.parse(answer.text) as { name: string }).name, answer };
    };

    it("an edit through one instance is read through the other within a second", async () => {
      const path = `/api/castles/${GORDON.slug}?lang=it`;
      for (const index of [0, 1]) {
        await nameOn(index, path);
        expect((await nameOn(index, path)).answer.headers["x-cache"]).toBe("HIT");
      }
      const heard = instances.map(({ services }) => nextCall(services.responseCache, "invalidate"));
      await updateEstateField(instances[0]!.deps, OWNER, {
        propertyId: GORDON.id,
        field: "name",
        value: "Castello di Gordon, rinnovato",
        language: "it",
      });
      const edited = performance.now();
      expect((await heard[1]!) - edited).toBeLessThan(1000);
      expect((await nameOn(1, path)).name).toBe("Castello di Gordon, rinnovato");
      await heard[0];
      expect((await nameOn(0, path)).name).toBe("Castello di Gordon, rinnovato");
    });

    it("an import run from the command line reaches the running instances", async () => {
      const files = mkdtempSync(join(tmpdir(), "castellum-cache-"));
      try {
        const estate = structuredClone(DEMO_CATALOGUE.find((item) => item.id === 2)!);
        estate.content.en.name = "An estate renamed by import";
        writeFileSync(join(files, "one.json"), JSON.stringify([estate]));
        const path = `/api/castles/${estate.id}?lang=en`;
        for (const index of [0, 1]) {
          await nameOn(index, path);
          expect((await nameOn(index, path)).answer.headers["x-cache"]).toBe("HIT");
        }
        const heard = instances.map(({ services }) =>
          nextCall(services.responseCache, "invalidate"),
        );
        const run = await catalogueCli(urlOf(instances[0]!.deps), [
          "import",
          join(files, "one.json"),
        ]);
        expect(run.out).toContain("updated 1 estate");
        expect(run.code).toBe(0);
        const ran = performance.now();
        for (const index of [0, 1]) {
          expect((await heard[index]!) - ran).toBeLessThan(1000);
          expect((await nameOn(index, path)).name).toBe(estate.content.en.name);
        }
      } finally {
        rmSync(files, { recursive: true, force: true });
      }
    });

    it("after losing its listener, an instance forgets what it kept and hears changes again", async () => {
      const path = `/api/castles/${GORDON.slug}?lang=zh`;
      await nameOn(1, path);
      expect((await nameOn(1, path)).answer.headers["x-cache"]).toBe("HIT");
      const cache = instances[1]!.services.responseCache;
      const lost = nextCall(cache, "disable");
      const back = nextCall(cache, "enable");
      // The server ends every LISTEN connection (a failover, a restart, an administrator).
      await poolOf(instances[0]!.deps).query(
        "select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'listen %' and datname = current_database()",
      );
      await lost;
      // Changes made while it was gone must not leave it serving the old text.
      await updateEstateField(instances[0]!.deps, OWNER, {
        propertyId: GORDON.id,
        field: "name",
        value: "戈登城堡（新）",
        language: "zh",
      });
      await back;
      // Listening again. A marker sent now is heard after whatever was sent before it, so once
      // it is heard nothing about the change is still on its way.
      const marker = nextCall(cache, "invalidate");
      await notifyCatalogueChanged(instances[0]!.deps, { propertyIds: [GORDON.id] });
      await marker;
      expect((await nameOn(1, path)).name).toBe("戈登城堡（新）");
      // It caches again and hears the next change.
      expect((await nameOn(1, path)).answer.headers["x-cache"]).toBe("HIT");
      const heard = nextCall(cache, "invalidate");
      await updateEstateField(instances[0]!.deps, OWNER, {
        propertyId: GORDON.id,
        field: "name",
        value: "戈登城堡",
        language: "zh",
      });
      await heard;
      expect((await nameOn(1, path)).name).toBe("戈登城堡");
    });
  },
);
