/**
 * `npm run bench:replicas`: the catalogue's searches a second with the primary alone, then with
 * one and with two streaming replicas taking the public's reads (decision 0038).
 *
 * A primary and two `pg_basebackup` replicas of its own (tests/setup/replica-cluster.ts), a
 * generated catalogue of BENCH_REPLICAS_ESTATES (100,000) on the primary, then for 0, 1 and 2
 * replicas: BENCH_REPLICAS_CONCURRENCY (16) callers run bench:catalogue's mix of searches
 * (filters and texts in four languages, no facts index: each search is the database's) for
 * BENCH_REPLICAS_SECONDS (10) inside `readingFromReplicas`, as a public request's are. Printed:
 * searches a second, p50/p95, and the share each database answered. Figures, never pass/fail.
 *
 * On one machine the replicas share its cores with the primary: the figure shows what routing
 * costs and how the load spreads, not what replicas on machines of their own would add.
 */
import { performance } from "node:perf_hooks";
import pino from "pino";
import { openDatabase } from "#db/client.ts";
import { readingFromReplicas } from "#db/replicas.ts";
import { CatalogueFilterSchema } from "#domain/catalogue/catalogue-filter.schema.ts";
import { searchProperties } from "#domain/catalogue/read-properties.ts";
import type { Deps } from "#domain/deps.ts";
import { generateCatalogue } from "#tests/factories/generated-catalogue.ts";
import { startReplicaCluster } from "#tests/setup/replica-cluster.ts";
import { drawSearches } from "./catalogue-scale.ts";

const ESTATES = Number(process.env.BENCH_REPLICAS_ESTATES ?? 100_000);
const SECONDS = Number(process.env.BENCH_REPLICAS_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_REPLICAS_CONCURRENCY ?? 16);

const log = (line: string) => process.stdout.write(`${line}\n`);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const cluster = await startReplicaCluster({ replicas: 2 });
try {
  log(
    `bench:replicas: a primary and 2 replicas; generating ${ESTATES.toLocaleString("en")} estates`,
  );
  const setup = await openDatabase({ databaseUrl: cluster.primaryUrl, poolSize: 4 });
  await setup.migrate();
  const generated = await generateCatalogue(setup.db, {
    count: ESTATES,
    rebuildIndexes: true,
    concurrency: 2,
  });
  log(`generated in ${(generated.totalMs / 1000).toFixed(1)} s`);
  await setup.close();

  const searches = drawSearches(ESTATES, 400);
  const rows: string[][] = [];
  for (const replicas of [0, 1, 2]) {
    const handle = await openDatabase({
      databaseUrl: cluster.primaryUrl,
      poolSize: 10,
      replicaUrls: cluster.replicaUrls.slice(0, replicas),
    });
    // The replicas have replayed the load and its indexes before anything is timed.
    if (handle.replicas) {
      const target = await handle.replicas.primaryLsn();
      for (;;) {
        await handle.replicas.refresh();
        const stats = handle.replicas.stats();
        if (stats.replicas.every((replica) => replica.healthy && replica.lagBytes === 0)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      log(`replicas caught up with ${target.toString(16)}`);
    }
    const deps: Deps = { db: handle.db, log: pino({ level: "silent" }) };
    const samples: number[] = [];
    const until = performance.now() + SECONDS * 1000;
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < until) {
          const search = searches[next++ % searches.length]!;
          const started = performance.now();
          await readingFromReplicas({ minLsn: 0n }, () =>
            searchProperties(deps, {
              language: search.language,
              filter: CatalogueFilterSchema.parse(search.input),
            }),
          );
          samples.push(performance.now() - started);
        }
      }),
    );
    const stats = handle.replicas?.stats();
    const onReplicas = stats?.replicas.map((replica) => replica.queries) ?? [];
    samples.sort((a, b) => a - b);
    rows.push([
      String(replicas),
      Math.round(samples.length / SECONDS).toLocaleString("en"),
      percentile(samples, 50).toFixed(1),
      percentile(samples, 95).toFixed(1),
      onReplicas.length ? `${onReplicas.join(" + ")} statements on replicas` : "primary only",
      String(stats?.fallbacks ?? 0),
    ]);
    await handle.close();
  }
  log("");
  log(
    `Searches from ${CONCURRENCY} callers for ${SECONDS} s each, ${ESTATES.toLocaleString("en")} estates (ms):`,
  );
  log("| replicas | searches/s | p50 | p95 | where | fallbacks |");
  log("| --- | --- | --- | --- | --- | --- |");
  for (const row of rows) log(`| ${row.join(" | ")} |`);
} finally {
  cluster.close();
}
