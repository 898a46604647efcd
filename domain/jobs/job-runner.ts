import type { Logger } from "pino";
import { type PolledWorker, startPolledWorker } from "./polled-worker.ts";

/**
 * The one runner of an instance's background jobs (mail, webhooks, the request lifecycle, feed
 * sync, housekeeping): each job has a name, runs every `everyMs` and when kicked, one pass at a
 * time, and is counted (runs, failures, the last pass's time) for /metrics. Jobs that must act
 * once across instances keep that in their statements (row locks, leases), not here: every
 * instance runs every job. A job failing several passes in a row is logged once as an outage
 * and once more when it recovers, not at every pass.
 *
 * Kept home-grown rather than graphile-worker or pg-boss: both need a PostgreSQL server, and the
 * embedded PGlite default must run the same jobs (docs/decisions/0030-one-job-runner.md).
 */

export interface JobDefinition {
  /** How often a pass runs on this instance, at the latest. */
  everyMs: number;
  /** One pass; true when more work may be waiting (a full batch): another pass follows at once. */
  run: (isStopped: () => boolean) => Promise<boolean | void>;
}

export interface JobMetrics {
  name: string;
  runs: number;
  failures: number;
  /** Failed passes since the last one that succeeded. */
  failingFor: number;
  lastPassMs: number;
}

/** After this many failed passes in a row, a job's failure is an outage and logged as one. */
export const OUTAGE_AFTER_FAILURES = 3;

export class JobRunner {
  private readonly jobs = new Map<string, { worker: PolledWorker; metrics: JobMetrics }>();
  private readonly log: Logger;

  constructor(log: Logger) {
    this.log = log;
  }

  /** Starts the job `name`: a first pass now, then every `everyMs` and whenever kicked. */
  start(name: string, job: JobDefinition): PolledWorker {
    if (this.jobs.has(name)) throw new Error(`job ${name} is already running`);
    const metrics: JobMetrics = { name, runs: 0, failures: 0, failingFor: 0, lastPassMs: 0 };
    const log = this.log;
    const worker = startPolledWorker({
      pollMs: job.everyMs,
      async runOnce(isStopped) {
        const started = performance.now();
        metrics.runs += 1;
        try {
          const more = await job.run(isStopped);
          if (metrics.failingFor >= OUTAGE_AFTER_FAILURES)
            log.info({ job: name, failedPasses: metrics.failingFor }, "job recovered");
          metrics.failingFor = 0;
          return more === true;
        } finally {
          metrics.lastPassMs = performance.now() - started;
        }
      },
      onError(error) {
        metrics.failures += 1;
        metrics.failingFor += 1;
        if (metrics.failingFor === OUTAGE_AFTER_FAILURES)
          log.error({ job: name, err: error }, "job failing: its passes keep failing");
        else if (metrics.failingFor < OUTAGE_AFTER_FAILURES)
          log.warn({ job: name, err: error }, "job pass failed");
      },
    });
    this.jobs.set(name, { worker, metrics });
    return worker;
  }

  /** The running job `name`. */
  job(name: string): PolledWorker {
    const entry = this.jobs.get(name);
    if (!entry) throw new Error(`no job ${name}`);
    return entry.worker;
  }

  /** Every job's counters, for /metrics. */
  metrics(): JobMetrics[] {
    return [...this.jobs.values()].map((entry) => ({ ...entry.metrics }));
  }

  /** Stops every job; resolves when the passes in progress have ended. */
  async stop(): Promise<void> {
    await Promise.all([...this.jobs.values()].map((entry) => entry.worker.stop()));
  }
}
