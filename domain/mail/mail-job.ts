import type { Deps } from "../deps.ts";
import { JobRunner } from "../jobs/job-runner.ts";
import { OutageWatch, type RetryPolicy } from "../outbox/leases-and-retries.ts";
import { EVENT_BATCH, type EventMailConfig, mailFromEvents } from "./mail-from-events.ts";
import { DEFAULT_BATCH, deliverDueMail } from "./mail-outbox.ts";
import type { MailTransport } from "./transport.ts";

/**
 * The job `mail`: events become mail (mail-from-events.ts), and the outbox is sent
 * (mail-outbox.ts).
 */

export interface MailWorker {
  /** Look for due mail now (after a request commits) instead of at the next tick. */
  kick(): void;
  /** A whole delivery pass that starts after this call; resolves when it has ended. */
  runNow(): Promise<void>;
  /** Since when (epoch ms) the relay cannot be reached; null while it answers. */
  relayUnreachableSince(): number | null;
  /** Waits for a delivery in progress, then stops. */
  stop(): Promise<void>;
}

export interface MailWorkerOptions {
  /**
   * Where staff mail goes and the site's address: with it, each run first turns new events
   * into mail (mail-from-events.ts). Without it (tests of sending alone), only the outbox is
   * sent.
   */
  events?: EventMailConfig;
  pollMs?: number;
  /** The instance's job runner; a runner of its own when not given (tests). */
  jobs?: JobRunner;
  retry?: RetryPolicy;
  batch?: number;
  concurrency?: number;
  /** While the relay is away, the first retry waits this long, doubling (default 1 s). */
  relayProbeMinMs?: number;
  /** ...up to this (default 10 s): how late mail can start again after the relay returns. */
  relayProbeMaxMs?: number;
}

/**
 * Polls every `pollMs` and whenever kicked, as the job `mail`, one run at a time: each run
 * turns the events not yet mailed into mail, then sends what is due. When the relay cannot be
 * reached, the worker stops sending and tries one mail now and then (from
 * `relayProbeMinMs`, doubling up to `relayProbeMaxMs`) until the relay answers; then the whole
 * backlog goes out at once, none of it having spent an attempt on the outage.
 */
export function startMailWorker(
  deps: Deps,
  transport: MailTransport,
  options: MailWorkerOptions = {},
): MailWorker {
  const batch = options.batch ?? DEFAULT_BATCH;
  const probeMinMs = options.relayProbeMinMs ?? 1000;
  const probeMaxMs = options.relayProbeMaxMs ?? 10_000;
  const relay = new OutageWatch(probeMinMs, probeMaxMs);
  const jobs = options.jobs ?? new JobRunner(deps.log);
  const worker = jobs.start("mail", {
    everyMs: options.pollMs ?? 5000,
    async run() {
      // Events become mail whether or not the relay answers: the outbox is where mail waits.
      const events = options.events ? await mailFromEvents(deps, options.events) : 0;
      const moreEvents = events >= EVENT_BATCH;
      // While the relay is away, only a probe goes, and only when it is due.
      if (!relay.mayTry()) return moreEvents;
      const isDown = relay.since() !== null;
      const report = await deliverDueMail(deps, transport, {
        retry: options.retry,
        batch: isDown ? 1 : batch,
        concurrency: options.concurrency,
      });
      if (report.relayUnreachable !== undefined) {
        if (relay.failed().isNew)
          deps.log.warn(
            { transport: transport.description, err: report.relayUnreachable },
            "mail relay unreachable: mail waits in the outbox until it answers",
          );
        return moreEvents;
      }
      if (isDown && report.sent + report.failed > 0) {
        deps.log.info(
          { transport: transport.description, unreachableMs: relay.answered() },
          "mail relay answers again: sending the waiting mail",
        );
        return true;
      }
      // A full batch means more may be waiting.
      return moreEvents || report.sent + report.failed >= batch;
    },
  });
  return {
    kick: () => worker.kick(),
    runNow: () => worker.runNow(),
    relayUnreachableSince: () => relay.since(),
    async stop() {
      await worker.stop();
      transport.close();
    },
  };
}
