import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type DatabaseHandle, MIGRATIONS_FOLDER, openDatabase } from "#db/client.ts";
import { parseLsn } from "#db/replicas.ts";
import { seedCatalogue } from "#domain/catalogue/seed-catalogue.ts";
import type { Deps } from "#domain/deps.ts";
import { updateEstateField } from "#domain/owners/edits.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { BACKENDS, DEMO_CATALOGUE } from "#tests/setup/database.ts";
import { createTestLogger } from "#tests/setup/error-log.ts";
import { listenOnFreePort } from "#tests/setup/http.ts";
import { testServicesEnv } from "#tests/setup/intake.ts";
import { type ReplicaCluster, startReplicaCluster } from "#tests/setup/replica-cluster.ts";
import { createTestStaff, signIn, STAFF_PASSWORD } from "#tests/setup/staff.ts";
import { createExpressApp } from "./app.ts";
import { FRESH_COOKIE } from "./middleware/replica-reads.ts";
import { createOps } from "./ops/ops.ts";
import { createServices, type Services } from "./services.ts";

const GORDON = demoEstate("gordon-castle");
const OWNER = { role: "owner", email: GORDON.email } as const;
const NameSchema = z.object({ name: z.string() });
const METRICS_TOKEN = "replica-metrics-token";

describe("log positions", () => {
  it("compare as PostgreSQL orders them", () => {
    expect(parseLsn("0/16B3748")).toBe(0x16b3748n);
    expect(parseLsn("16/B374D848")).toBe((0x16n << 32n) | 0xb374d848n);
    expect(parseLsn("1/0") > parseLsn("0/FFFFFFFF")).toBe(true);
  });
});

/**
 * Public reads on a real streaming replica (a primary and a `pg_basebackup` replica made for the
 * test): the public reads from the replica once it has caught up, whoever wrote reads the
 * primary, a change reaches the public once the replica has replayed it, and losing the replica
 * costs no request.
 */
describe.skipIf(!BACKENDS.includes("postgres"))("reads on a streaming replica [postgres]", () => {
  let cluster: ReplicaCluster;
  let handle: DatabaseHandle;
  let deps: Deps;
  let services: Services;
  let baseUrl = "";
  let close: () => Promise<void> = async () => {};

  beforeAll(async () => {
    cluster = await startReplicaCluster();
    handle = await openDatabase({
      databaseUrl: cluster.primaryUrl,
      poolSize: 4,
      replicaUrls: [cluster.replicaUrl],
    });
    await handle.migrate();
    deps = { db: handle.db, log: createTestLogger() };
    await seedCatalogue(deps, DEMO_CATALOGUE);
    // No response cache: every read below reaches the database, where the routing is.
    services = await createServices(
      deps,
      testServicesEnv({ MAIL_POLL_MS: 60_000, RESPONSE_CACHE_MB: 0 }),
    );
    await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
    const ops = createOps({
      deps,
      database: handle,
      migrationsFolder: MIGRATIONS_FOLDER,
      metricsToken: METRICS_TOKEN,
    });
    const app = createExpressApp({
      deps,
      env: { NODE_ENV: "test", PUBLIC_URL: "http://localhost", REPLICA_PIN_SECONDS: 30 },
      services,
      ops,
      replicas: handle.replicas,
    });
    ({ baseUrl, close } = await listenOnFreePort(app));
  }, 120_000);

  afterAll(async () => {
    await close();
    await services?.close();
    await handle?.close();
    cluster?.close();
  });

  const replicaQueries = () => handle.replicas!.stats().replicas[0]!.queries;
  /** The estate's name as a GET answers it now. */
  const nameSeen = async (headers: Record<string, string> = {}) => {
    const answer = await fetch(`${baseUrl}/api/castles/${GORDON.slug}?lang=fr`, { headers });
    expect(answer.status).toBe(200);
    return NameSchema.parse(await answer.json()).name;
  };
  /** Until the replica has replayed everything the primary has written. */
  const caughtUp = async () => {
    const target = await handle.replicas!.primaryLsn();
    await expect
      .poll(
        async () => {
          await handle.replicas!.refresh();
          return handle.replicas!.stats().replicas[0]!.lagBytes;
        },
        { timeout: 15_000 },
      )
      .toBe(0);
    return target;
  };

  it("answers the public from the replica once it has caught up", async () => {
    await caughtUp();
    // Ask once so the instance learns the primary's position since the seed.
    await nameSeen();
    await caughtUp();
    const before = replicaQueries();
    const name = await nameSeen();
    expect(name.length).toBeGreaterThan(0);
    expect(replicaQueries()).toBeGreaterThan(before);
    // Operators see it in /metrics, the replica named by host and port, never a password.
    const metrics = await (
      await fetch(`${baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    const replica = new URL(cluster.replicaUrl);
    expect(metrics).toContain(`castellum_db_replica_up{replica="${replica.host}/postgres"} 1`);
    expect(metrics).toMatch(/castellum_db_replica_statements_total\{replica="[^"]+"\} [1-9]/);
  });

  it("shows an edit at once to whoever is signed in, and to the public once the replica has replayed it", async () => {
    await caughtUp();
    cluster.onReplica("select pg_wal_replay_pause()");
    const generation = services.responseCache.generation;
    try {
      await updateEstateField(deps, OWNER, {
        propertyId: GORDON.id,
        field: "name",
        value: "Château Gordon, vu du primaire",
        language: "fr",
      });
      // Staff read the primary: the edit is there at once.
      const cookie = await signIn(baseUrl, "admin@castellum.test");
      const before = replicaQueries();
      expect(await nameSeen({ Cookie: cookie })).toBe("Château Gordon, vu du primaire");
      // The change's notice has reached this instance (as it does every instance).
      await expect.poll(() => services.responseCache.generation).toBeGreaterThan(generation);
      // The public is not shown an older page than the change: with the replica behind it,
      // its read goes to the primary too.
      await expect.poll(() => nameSeen(), { timeout: 5000 }).toBe("Château Gordon, vu du primaire");
      expect(replicaQueries()).toBe(before);
    } finally {
      cluster.onReplica("select pg_wal_replay_resume()");
    }
    await caughtUp();
    const before = replicaQueries();
    expect(await nameSeen()).toBe("Château Gordon, vu du primaire");
    expect(replicaQueries()).toBeGreaterThan(before);
  });

  it("keeps a client that just wrote on the primary for a while", async () => {
    await caughtUp();
    const wrote = await fetch(`${baseUrl}/api/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "http://localhost" },
      body: JSON.stringify({ email: "admin@castellum.test", password: "wrong-password-here" }),
    });
    // A refused write pins nobody; a write that went through does.
    expect(wrote.headers.getSetCookie().some((line) => line.startsWith(FRESH_COOKIE))).toBe(false);
    const signedIn = await fetch(`${baseUrl}/api/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "http://localhost" },
      body: JSON.stringify({ email: "admin@castellum.test", password: STAFF_PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    expect(
      signedIn.headers.getSetCookie().some((line) => line.startsWith(`${FRESH_COOKIE}=`)),
    ).toBe(true);
    const pinned = `${FRESH_COOKIE}=${Date.now() + 30_000}`;
    const before = replicaQueries();
    await nameSeen({ Cookie: pinned });
    expect(replicaQueries()).toBe(before);
    await nameSeen();
    expect(replicaQueries()).toBeGreaterThan(before);
  });

  it("answers from the primary, without an error, once the replica is gone", async () => {
    cluster.stopReplica();
    for (let i = 0; i < 5; i += 1) expect((await nameSeen()).length).toBeGreaterThan(0);
    const stats = handle.replicas!.stats();
    expect(stats.fallbacks > 0 || !stats.replicas[0]!.healthy).toBe(true);
  });
});
