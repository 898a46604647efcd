import type { Deps } from "../deps.ts";
import { JobRunner } from "../jobs/job-runner.ts";
import type { PolledWorker } from "../jobs/polled-worker.ts";
import { pruneSecurityEvents } from "./security-log.ts";

/** Once a day: the log's retention is counted in days, so a daily prune keeps it within one. */
export const SECURITY_LOG_PRUNE_INTERVAL_MS = 24 * 60 * 60_000;

/**
 * Prunes security-log entries older than `retentionDays` at start and then every `pollMs`
 * (a day), on every instance: the prune is one DELETE of what is already too old, so two
 * instances running it at once delete each row once and the second finds nothing.
 */
export function startSecurityLogRetention(
  deps: Deps,
  config: { retentionDays: number; pollMs?: number; jobs?: JobRunner },
): PolledWorker {
  const jobs = config.jobs ?? new JobRunner(deps.log);
  return jobs.start("security-log-retention", {
    everyMs: config.pollMs ?? SECURITY_LOG_PRUNE_INTERVAL_MS,
    async run() {
      const pruned = await pruneSecurityEvents(deps.db, config.retentionDays);
      if (pruned > 0)
        deps.log.info({ pruned, retentionDays: config.retentionDays }, "security log pruned");
    },
  });
}
