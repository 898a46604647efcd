/**
 * The app's side of operations: /healthz (the process is up), /readyz (the database answers
 * and carries every committed migration; 503 while draining for shutdown) and /metrics
 * (Prometheus text, only with METRICS_TOKEN). Mounted before the response cache and the
 * session middleware, so none of the three is cached or touches a session.
 */
import { timingSafeEqual } from "node:crypto";
import express, { type Router } from "express";
import type { DatabaseHandle } from "#db/client.ts";
import { readMigrationStatus } from "#db/health.ts";
import type { Deps } from "#domain/deps.ts";
import type { JobRunner } from "#domain/jobs/job-runner.ts";
import type { MailWorker } from "#domain/mail/mail-job.ts";
import { readOutboxDepth } from "#domain/mail/outbox-depth.ts";
import type { ResponseCache } from "../middleware/response-cache.ts";
import { DatabaseOutage } from "./database-outage.ts";
import { HttpMetrics, metricsMiddleware, normaliseRoute, type Sample } from "./metrics.ts";

/** A probe that waits longer than this answers "not ready" rather than hanging the prober. */
const READINESS_TIMEOUT_MS = 2000;

export interface OpsOptions {
  deps: Deps;
  database: Pick<DatabaseHandle, "backend" | "poolStats" | "replicas">;
  migrationsFolder: string;
  /** /metrics answers only a request with `Authorization: Bearer <token>`; unset: 404. */
  metricsToken?: string;
  responseCache?: ResponseCache;
  /** The mail worker, for whether this instance can reach the SMTP relay. */
  mailWorker?: Pick<MailWorker, "relayUnreachableSince">;
  /** The instance's background jobs, counted per job. */
  jobs?: Pick<JobRunner, "metrics">;
}

export interface Ops {
  /** Mount first: the timing middleware and the three endpoints. */
  router: Router;
  /** 503 in the visitor's language while the database cannot be reached. */
  outage: DatabaseOutage;
  /** From now on /readyz answers 503, so load balancers stop sending new requests. */
  startDraining(): void;
  readonly isDraining: boolean;
  /** Counts an answer given before the timing middleware (the response cache's fast path). */
  observe(method: string, path: string, status: number, seconds: number): void;
}

export type Readiness =
  | { ready: true }
  | { ready: false; reason: "draining" | "database_unreachable" | "migrations_pending" };

export function createOps(options: OpsOptions): Ops {
  const { deps, database } = options;
  const metrics = new HttpMetrics();
  const startedAt = Date.now();
  let draining = false;

  async function checkReadiness(): Promise<Readiness> {
    if (draining) return { ready: false, reason: "draining" };
    let timer: NodeJS.Timeout | undefined;
    try {
      const status = await Promise.race([
        readMigrationStatus(deps.db, options.migrationsFolder),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error("readiness check timed out")),
            READINESS_TIMEOUT_MS,
          );
        }),
      ]);
      return status.isCurrent ? { ready: true } : { ready: false, reason: "migrations_pending" };
    } catch (error) {
      deps.log.warn({ err: error }, "readiness check: database unreachable");
      return { ready: false, reason: "database_unreachable" };
    } finally {
      clearTimeout(timer);
    }
  }

  async function collectSamples(): Promise<Sample[]> {
    const samples: Sample[] = [
      {
        name: "castellum_process_uptime_seconds",
        help: "Seconds since this instance started.",
        type: "gauge",
        value: (Date.now() - startedAt) / 1000,
      },
      {
        name: "castellum_draining",
        help: "1 while this instance drains for shutdown.",
        type: "gauge",
        value: draining ? 1 : 0,
      },
    ];
    if (options.mailWorker) {
      const since = options.mailWorker.relayUnreachableSince();
      samples.push({
        name: "castellum_mail_relay_up",
        help: "0 while this instance cannot reach the SMTP relay (mail waits in the outbox), else 1.",
        type: "gauge",
        value: since === null ? 1 : 0,
      });
    }
    for (const job of options.jobs?.metrics() ?? []) {
      const labels = { job: job.name };
      samples.push(
        {
          name: "castellum_job_runs_total",
          help: "Passes of a background job on this instance.",
          type: "counter",
          value: job.runs,
          labels,
        },
        {
          name: "castellum_job_failures_total",
          help: "Passes of a background job that failed.",
          type: "counter",
          value: job.failures,
          labels,
        },
        {
          name: "castellum_job_failing_passes",
          help: "Failed passes of a background job since its last good one (0: healthy).",
          type: "gauge",
          value: job.failingFor,
          labels,
        },
        {
          name: "castellum_job_last_pass_seconds",
          help: "How long a background job's last pass took.",
          type: "gauge",
          value: job.lastPassMs / 1000,
          labels,
        },
      );
    }
    try {
      const outbox = await readOutboxDepth(deps);
      samples.push(
        {
          name: "castellum_mail_outbox_pending",
          help: "Mail waiting to be sent (first try or retry).",
          type: "gauge",
          value: outbox.pending,
        },
        {
          name: "castellum_mail_outbox_failed",
          help: "Mail the worker gave up on, waiting for staff in /admin/mail.",
          type: "gauge",
          value: outbox.failed,
        },
        {
          name: "castellum_mail_outbox_oldest_pending_age_seconds",
          help: "Age of the oldest pending mail (0 when none waits).",
          type: "gauge",
          value: outbox.oldestPendingSeconds,
        },
      );
    } catch (error) {
      deps.log.warn({ err: error }, "metrics: outbox depth unreadable");
    }
    if (options.responseCache) {
      const stats = options.responseCache.stats();
      const lookups = stats.hits + stats.misses;
      samples.push(
        {
          name: "castellum_response_cache_hits_total",
          help: "Answers served from the response cache.",
          type: "counter",
          value: stats.hits,
        },
        {
          name: "castellum_response_cache_misses_total",
          help: "Cacheable reads the response cache did not hold.",
          type: "counter",
          value: stats.misses,
        },
        {
          name: "castellum_response_cache_hit_ratio",
          help: "Hits over lookups since start (0 before any lookup).",
          type: "gauge",
          value: lookups ? stats.hits / lookups : 0,
        },
        {
          name: "castellum_response_cache_entries",
          help: "Answers held.",
          type: "gauge",
          value: stats.entries,
        },
        {
          name: "castellum_response_cache_bytes",
          help: "Bytes held, all encodings.",
          type: "gauge",
          value: stats.bytes,
        },
        {
          name: "castellum_response_cache_enabled",
          help: "1 while the cache serves (its change listener is up).",
          type: "gauge",
          value: options.responseCache.enabled ? 1 : 0,
        },
      );
    }
    const pool = database.poolStats?.();
    if (pool)
      samples.push(
        {
          name: "castellum_db_pool_connections",
          help: "PostgreSQL pool connections by state.",
          type: "gauge",
          value: pool.total - pool.idle,
          labels: { state: "busy" },
        },
        {
          name: "castellum_db_pool_connections",
          help: "PostgreSQL pool connections by state.",
          type: "gauge",
          value: pool.idle,
          labels: { state: "idle" },
        },
        {
          name: "castellum_db_pool_waiting",
          help: "Queries waiting for a pool connection.",
          type: "gauge",
          value: pool.waiting,
        },
        {
          name: "castellum_db_pool_max",
          help: "The pool's bound on connections.",
          type: "gauge",
          value: pool.max,
        },
      );
    const replicas = database.replicas?.stats();
    if (replicas) {
      for (const replica of replicas.replicas) {
        const labels = { replica: replica.url };
        samples.push(
          {
            name: "castellum_db_replica_up",
            help: "1 while the replica answers and may take the public's reads.",
            type: "gauge",
            value: replica.healthy ? 1 : 0,
            labels,
          },
          {
            name: "castellum_db_replica_statements_total",
            help: "Statements the replica was sent.",
            type: "counter",
            value: replica.queries,
            labels,
          },
        );
        if (replica.lagBytes !== null)
          samples.push({
            name: "castellum_db_replica_lag_bytes",
            help: "How far the replica's replay was behind the primary's log when last compared.",
            type: "gauge",
            value: replica.lagBytes,
            labels,
          });
      }
      samples.push({
        name: "castellum_db_replica_fallbacks_total",
        help: "Statements a replica failed that the primary answered.",
        type: "counter",
        value: replicas.fallbacks,
      });
    }
    return samples;
  }

  const token = options.metricsToken ? Buffer.from(`Bearer ${options.metricsToken}`) : null;
  const isAuthorised = (header: string | undefined) => {
    if (!token || !header) return false;
    const given = Buffer.from(header);
    return given.length === token.length && timingSafeEqual(given, token);
  };

  const router = express.Router();
  router.use(metricsMiddleware(metrics));
  // While draining, every answer closes its connection: keep-alive clients reconnect to
  // another instance instead of reusing a socket this one is about to close.
  router.use((_req, res, next) => {
    if (draining) res.setHeader("Connection", "close");
    next();
  });
  // Probes say nothing to caches: each answer is about this instance, now.
  router.get("/healthz", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const readiness = await checkReadiness();
    res.setHeader("Cache-Control", "no-store");
    if (readiness.ready) res.json({ status: "ready" });
    else res.status(503).json({ status: "not_ready", reason: readiness.reason });
  });
  router.get("/metrics", async (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    // Without a token the endpoint does not exist: metrics are never public by accident.
    if (!token) return res.status(404).type("text/plain").send("Not found\n");
    if (!isAuthorised(req.get("authorization"))) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      return res.status(401).type("text/plain").send("Unauthorized\n");
    }
    res
      .type("text/plain; version=0.0.4; charset=utf-8")
      .send(metrics.render(await collectSamples()));
  });

  return {
    router,
    outage: new DatabaseOutage(deps),
    startDraining() {
      draining = true;
    },
    get isDraining() {
      return draining;
    },
    observe(method, path, status, seconds) {
      metrics.observe(method, normaliseRoute(path), status, seconds);
    },
  };
}
