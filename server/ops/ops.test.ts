import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { MIGRATIONS_FOLDER } from "#db/client.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { listenOnFreePort } from "#tests/setup/http.ts";
import { testServicesEnv } from "#tests/setup/intake.ts";
import { createExpressApp } from "../app.ts";
import { createServices, type Services } from "../services.ts";
import { normaliseRoute } from "./metrics.ts";
import { createOps, type Ops } from "./ops.ts";

const METRICS_TOKEN = "metrics-token-for-tests-0123456789";

/** Drizzle's migrations journal, as far as this test reads it (other keys kept). */
const JournalSchema = z.looseObject({ entries: z.array(z.looseObject({})) });

/** A copy of the migrations journal that expects one more migration than the database has. */
function journalAheadOfDatabase(): string {
  const folder = mkdtempSync(join(tmpdir(), "castellum-migrations-"));
  mkdirSync(join(folder, "meta"));
  const journal = JournalSchema.parse(
    JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")),
  );
  journal.entries.push({ idx: 999, version: "7", when: Date.now() + 86_400_000, tag: "9999_next" });
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify(journal));
  return folder;
}

describe("normaliseRoute", () => {
  it("names pages by their pattern, never by the raw path", () => {
    expect(normaliseRoute("/property/gordon-castle")).toBe("/property/:idOrSlug");
    expect(normaliseRoute("/property/12.data")).toBe("/property/:idOrSlug.data");
    expect(normaliseRoute("/requests/abcdef")).toBe("/requests/:token");
    expect(normaliseRoute("/castles")).toBe("/castles");
    expect(normaliseRoute("/castles/")).toBe("/castles");
    expect(normaliseRoute("/assets/root-Ab12.js")).toBe("/assets/*");
    expect(normaliseRoute("/api/castles/gordon-castle")).toBe("/api/castles/:idOrSlug");
    // Any number of sitemap files, one label.
    expect(normaliseRoute("/sitemap-81.xml")).toBe("/sitemap-:n.xml");
    expect(normaliseRoute("/sitemap.xml")).toBe("/sitemap.xml");
    expect(normaliseRoute("/wp-login.php")).toBe("unmatched");
    expect(normaliseRoute("/castles/x/y/z")).toBe("unmatched");
  });
});

describeEachBackend("ops endpoints", (database, backend) => {
  let services: Services;
  let ops: Ops;
  let baseUrl = "";
  let close = async () => {};

  beforeAll(async () => {
    const { deps, handle } = database();
    services = await createServices(deps, testServicesEnv());
    ops = createOps({
      deps,
      database: handle,
      migrationsFolder: MIGRATIONS_FOLDER,
      metricsToken: METRICS_TOKEN,
      responseCache: services.responseCache,
      mailWorker: services.mailWorker,
      jobs: services.jobs,
    });
    const app = createExpressApp({
      deps,
      env: { NODE_ENV: "test", PUBLIC_URL: "http://localhost" },
      services,
      ops,
    });
    const server = await listenOnFreePort(app);
    baseUrl = server.baseUrl;
    close = async () => {
      await server.close();
      await services.close();
    };
  });
  afterAll(() => close());

  it("/healthz answers 200 while the process is up, never from the response cache", async () => {
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${baseUrl}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "ok" });
      expect(response.headers.get("x-cache")).toBeNull();
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("set-cookie")).toBeNull();
    }
  });

  it("/readyz answers 200 when the database answers and carries every migration", async () => {
    const response = await fetch(`${baseUrl}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ready" });
    expect(response.headers.get("x-cache")).toBeNull();
  });

  it("/readyz answers 503 when the code expects a migration the database lacks", async () => {
    const { deps, handle } = database();
    const behind = createOps({
      deps,
      database: handle,
      migrationsFolder: journalAheadOfDatabase(),
    });
    const app = createExpressApp({
      deps,
      env: { NODE_ENV: "test", PUBLIC_URL: "http://localhost" },
      ops: behind,
    });
    const server = await listenOnFreePort(app);
    try {
      const response = await fetch(`${server.baseUrl}/readyz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: "not_ready", reason: "migrations_pending" });
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("/metrics is refused without the token and with a wrong one", async () => {
    const anonymous = await fetch(`${baseUrl}/metrics`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain("castellum_");
    const wrong = await fetch(`${baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}x` },
    });
    expect(wrong.status).toBe(401);
  });

  it("/metrics does not exist when no token is configured", async () => {
    const { deps, handle } = database();
    const app = createExpressApp({
      deps,
      env: { NODE_ENV: "test", PUBLIC_URL: "http://localhost" },
      ops: createOps({ deps, database: handle, migrationsFolder: MIGRATIONS_FOLDER }),
    });
    const server = await listenOnFreePort(app);
    try {
      const response = await fetch(`${server.baseUrl}/metrics`, {
        headers: { authorization: "Bearer anything-at-all-0123456789" },
      });
      expect(response.status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it("/metrics shows latency by route pattern, status classes, the outbox, the cache and the pool", async () => {
    // Two estates by slug and a missing one: one route pattern, two status classes.
    const castles = (await (await fetch(`${baseUrl}/api/castles?lang=en`)).json()) as {
      slug: string;
    }[];
    const [first, second] = castles;
    await fetch(`${baseUrl}/api/castles/${first!.slug}?lang=en`);
    await fetch(`${baseUrl}/api/castles/${second!.slug}?lang=en`);
    await fetch(`${baseUrl}/api/castles/${second!.slug}?lang=en`);
    await fetch(`${baseUrl}/api/castles/no-such-estate-here?lang=en`);
    const response = await fetch(`${baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get("x-cache")).toBeNull();
    const text = await response.text();

    expect(text).toContain("# TYPE castellum_http_request_duration_seconds histogram");
    const pattern = 'route="/api/castles/:idOrSlug"';
    expect(text).toMatch(
      new RegExp(`castellum_http_request_duration_seconds_count\\{method="GET",${pattern}\\} 4\\n`),
    );
    expect(text).toMatch(
      new RegExp(
        `castellum_http_request_duration_seconds_bucket\\{method="GET",${pattern},le="\\+Inf"\\} 4\\n`,
      ),
    );
    expect(text).toContain(
      `castellum_http_requests_total{method="GET",${pattern},status_class="2xx"} 3`,
    );
    expect(text).toContain(
      `castellum_http_requests_total{method="GET",${pattern},status_class="4xx"} 1`,
    );
    // Raw paths never become labels.
    expect(text).not.toContain(first!.slug);
    expect(text).not.toContain("no-such-estate-here");

    expect(text).toMatch(/\ncastellum_mail_outbox_pending \d+\n/);
    // The suite's mail goes to files: the "relay" is always there.
    expect(text).toContain("\ncastellum_mail_relay_up 1\n");
    // Every background job is counted by name: each has run its first pass at start.
    for (const job of [
      "mail",
      "webhooks",
      "request-lifecycle",
      "calendar-feed-sync",
      "housekeeping",
    ])
      expect(text).toMatch(new RegExp(`\ncastellum_job_runs_total\\{job="${job}"\\} [1-9]\\d*\n`));
    expect(text).toMatch(/\ncastellum_mail_outbox_oldest_pending_age_seconds [\d.]+\n/);
    // The second read of the same estate came from the response cache.
    const hits = Number(/\ncastellum_response_cache_hits_total (\d+)\n/.exec(text)?.[1]);
    expect(hits).toBeGreaterThanOrEqual(1);
    const ratio = Number(/\ncastellum_response_cache_hit_ratio ([\d.e-]+)\n/.exec(text)?.[1]);
    expect(ratio).toBeGreaterThan(0);
    expect(ratio).toBeLessThan(1);
    if (backend === "postgres") {
      expect(text).toMatch(/\ncastellum_db_pool_connections\{state="idle"\} \d+\n/);
      expect(text).toMatch(/\ncastellum_db_pool_waiting 0\n/);
    } else {
      expect(text).not.toContain("castellum_db_pool");
    }
  });

  it("/readyz answers 503 once the instance drains, while /healthz stays 200", async () => {
    ops.startDraining();
    const ready = await fetch(`${baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "not_ready", reason: "draining" });
    expect(ready.headers.get("connection")).toBe("close");
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
  });
});
