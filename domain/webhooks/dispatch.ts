import { JobRunner } from "../jobs/job-runner.ts";
import type { PolledWorker } from "../jobs/polled-worker.ts";
import { and, eq, inArray, lte, sql } from "drizzle-orm";
import { domainEvents, webhookDeliveries, webhookEndpoints } from "#db/schema/index.ts";
import type { Deps } from "../deps.ts";
import {
  claimDue,
  DEFAULT_MAX_AGE_MS,
  DEFAULT_MAX_ATTEMPTS,
  OutageWatch,
  recordDelivered,
  releaseClaims,
  type RetryPolicy,
  retryDelay,
} from "../outbox/leases-and-retries.ts";
import { OutboundFetchError, type OutboundPolicy, safeFetch } from "../outbound/safe-fetch.ts";
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signWebhook } from "./signature.ts";

/**
 * The webhook dispatcher: a worker on every instance that fans recorded events
 * (`domain_events`, written in the writers' transactions) out to one delivery per subscribed
 * endpoint, and sends the due deliveries as signed JSON POSTs. Deliveries are an outbox like
 * the mail's (domain/outbox/leases-and-retries.ts): claimed under a lease with SKIP LOCKED, retried with
 * backoff, at least once; an endpoint that cannot be reached is probed, its deliveries waiting
 * without spending attempts.
 */

export interface WebhookConfig {
  /** The receivers' addresses are checked like the iCal feeds'; redirects are never followed. */
  outbound: OutboundPolicy;
  retry: RetryPolicy;
  /** While an endpoint cannot be reached, probe it after this long, doubling (default 1 s)... */
  probeMinMs?: number;
  /** ...up to this (default 60 s): how late deliveries resume after it answers again. */
  probeMaxMs?: number;
}

export const DEFAULT_WEBHOOK_RETRY: RetryPolicy = {
  baseMs: 30_000,
  maxMs: 60 * 60_000,
  maxAttempts: 12,
  maxAgeMs: DEFAULT_MAX_AGE_MS,
};

/** How long a claimed delivery is reserved for one sender: longer than a fetch's timeout. */
const LEASE_MS = 2 * 60_000;
const FAN_OUT_BATCH = 200;
const DEFAULT_BATCH = 50;
const DEFAULT_CONCURRENCY = 4;
/** A receiver's answer is not read beyond this. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Fans out up to `batch` events not yet fanned out, oldest first: one delivery for each
 * endpoint subscribed to the event's type that existed when it happened (paused ones too:
 * their deliveries wait), then stamps the events. Locks the events it takes (SKIP LOCKED), so
 * two instances fan out different events; the unique (endpoint, event) key makes a repeated
 * fan-out harmless. Answers how many events it took.
 */
export async function fanOutEvents(deps: Pick<Deps, "db">, batch = FAN_OUT_BATCH): Promise<number> {
  const result = (await deps.db.execute(sql`
    with batch as (
      select id, type, occurred_at from ${domainEvents}
      where fanned_out_at is null
      order by seq
      limit ${batch}
      for update skip locked
    ), queued as (
      insert into ${webhookDeliveries} (id, endpoint_id, event_id, event_type)
      select gen_random_uuid(), e.id, b.id, b.type
      from batch b join ${webhookEndpoints} e
        on b.type = any(e.events) and e.created_at <= b.occurred_at
      on conflict do nothing
    )
    update ${domainEvents} set fanned_out_at = now()
    where id in (select id from batch)
    returning id`)) as { rows: unknown[] };
  return result.rows.length;
}

export interface WebhookRunReport {
  delivered: number;
  /** Deliveries the receiver refused (a non-2xx answer, a redirect...): each spent an attempt. */
  failed: number;
  /** Endpoints that could not be reached this run (their deliveries went back untouched). */
  unreachable: string[];
}

type Failure = {
  kind: "unreachable" | "rejected" | "transient";
  message: string;
  status: number | null;
};

/** Sorts a failed POST: could the receiver be reached, and is it worth another attempt? */
function classify(error: unknown): Failure {
  if (!(error instanceof OutboundFetchError))
    return { kind: "transient", message: String(error), status: null };
  const status = /answered (\d{3})/.exec(error.detail)?.[1];
  const message = `${error.code}: ${error.detail}`;
  switch (error.code) {
    case "network":
    case "timeout":
    case "unresolvable":
      return { kind: "unreachable", message, status: null };
    case "blocked_address":
    case "invalid_url":
    case "too_many_redirects":
      // Sending again would be refused the same way: an admin must change the endpoint.
      return { kind: "rejected", message, status: null };
    default:
      return { kind: "transient", message, status: status ? Number(status) : null };
  }
}

const WEBHOOK_OUTBOX = {
  table: webhookDeliveries,
  id: webhookDeliveries.id,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  lockedUntil: webhookDeliveries.lockedUntil,
  lastError: webhookDeliveries.lastError,
};

/** The body of a delivery: `{ id, type, occurredAt, data, contact? }`, contact only if allowed. */
export function webhookBody(
  event: { id: string; type: string; occurredAt: Date; data: unknown; contact: unknown },
  includeContact: boolean,
): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    occurredAt: event.occurredAt.toISOString(),
    data: event.data,
    ...(includeContact && event.contact ? { contact: event.contact } : {}),
  });
}

/**
 * Sends the due deliveries of endpoints that are not paused, at most `batch`, `concurrency`
 * side by side. A 2xx answer delivers; any other answer spends an attempt and is retried with
 * backoff until `retry.maxAttempts`, then kept as `failed`; a refused address or a redirect
 * fails at once. When an endpoint cannot be reached (refused connection, timeout, no such
 * host) its claimed deliveries go back without spending an attempt and all its deliveries
 * wait `outages`' probe interval; those that waited past `retry.maxAgeMs` are set aside.
 */
export async function deliverDueWebhooks(
  deps: Deps,
  config: WebhookConfig,
  options: { batch?: number; concurrency?: number; outages?: Map<string, OutageWatch> } = {},
): Promise<WebhookRunReport> {
  const outages = options.outages ?? new Map<string, OutageWatch>();
  const maxAttempts = config.retry.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const claimed = await claimDue(deps.db, WEBHOOK_OUTBOX, {
    batch: options.batch ?? DEFAULT_BATCH,
    leaseMs: LEASE_MS,
    where: sql`exists (select 1 from ${webhookEndpoints} e where e.id = ${webhookDeliveries.endpointId} and e.paused_at is null)`,
  });
  const report: WebhookRunReport = { delivered: 0, failed: 0, unreachable: [] };
  if (claimed.length === 0) return report;

  const endpoints = new Map(
    (
      await deps.db
        .select()
        .from(webhookEndpoints)
        .where(inArray(webhookEndpoints.id, [...new Set(claimed.map((row) => row.endpointId))]))
    ).map((row) => [row.id, row]),
  );
  const events = new Map(
    (
      await deps.db
        .select()
        .from(domainEvents)
        .where(
          inArray(
            domainEvents.id,
            claimed.map((row) => row.eventId),
          ),
        )
    ).map((row) => [row.id, row]),
  );

  const down = new Map<string, { error: string; ids: string[] }>();
  const queue = [...claimed];
  const bookkeepingErrors: unknown[] = [];

  const sendOne = async (delivery: (typeof claimed)[number]) => {
    const endpoint = endpoints.get(delivery.endpointId);
    const event = events.get(delivery.eventId);
    if (!endpoint || !event) return; // deleted meanwhile: the cascade took the delivery too
    const skipped = down.get(endpoint.id);
    if (skipped) {
      skipped.ids.push(delivery.id);
      return;
    }
    const body = webhookBody(event, endpoint.includeContact);
    const timestamp = Math.floor(Date.now() / 1000);
    let failure: Failure | undefined;
    try {
      await safeFetch(
        endpoint.url,
        { ...config.outbound, maxRedirects: 0, maxBytes: MAX_ANSWER_BYTES },
        {
          "Content-Type": "application/json",
          "User-Agent": "Castellum-Webhooks/1",
          [SIGNATURE_HEADER]: signWebhook(endpoint.secret, timestamp, body),
          [EVENT_ID_HEADER]: event.id,
        },
        { method: "POST", body },
      );
    } catch (error) {
      failure = classify(error);
    }
    if (!failure) {
      await recordDelivered(deps, { deliveryId: delivery.id }, () =>
        deps.db
          .update(webhookDeliveries)
          .set({
            status: "delivered",
            deliveredAt: sql`now()`,
            lockedUntil: null,
            lastError: null,
            lastStatus: 200,
          })
          .where(eq(webhookDeliveries.id, delivery.id)),
      );
      report.delivered += 1;
      const wasDownMs = outages.get(endpoint.id)?.answered();
      outages.delete(endpoint.id);
      if (wasDownMs != null) {
        deps.log.info(
          { webhookId: endpoint.id, unreachableMs: wasDownMs },
          "webhook endpoint answers again: sending what waited",
        );
        await deps.db
          .update(webhookDeliveries)
          .set({ nextAttemptAt: sql`now()` })
          .where(
            and(
              eq(webhookDeliveries.endpointId, endpoint.id),
              eq(webhookDeliveries.status, "pending"),
            ),
          );
      }
      return;
    }
    if (failure.kind === "unreachable") {
      const entry = down.get(endpoint.id) ?? { error: failure.message, ids: [] };
      entry.ids.push(delivery.id);
      down.set(endpoint.id, entry);
      return;
    }
    const lastError = failure.message.slice(0, 1000);
    if (failure.kind === "rejected" || delivery.attempts >= maxAttempts) {
      await deps.db
        .update(webhookDeliveries)
        .set({ status: "failed", lockedUntil: null, lastError, lastStatus: failure.status })
        .where(eq(webhookDeliveries.id, delivery.id));
      deps.log.error(
        {
          webhookId: endpoint.id,
          deliveryId: delivery.id,
          attempts: delivery.attempts,
          err: lastError,
        },
        "webhook delivery failed; given up, kept as failed in the endpoint's log",
      );
    } else {
      const delay = retryDelay(delivery.attempts, config.retry);
      await deps.db
        .update(webhookDeliveries)
        .set({
          lockedUntil: null,
          lastError,
          lastStatus: failure.status,
          nextAttemptAt: sql`now() + ${`${delay} milliseconds`}::interval`,
        })
        .where(eq(webhookDeliveries.id, delivery.id));
      deps.log.warn(
        {
          webhookId: endpoint.id,
          deliveryId: delivery.id,
          attempts: delivery.attempts,
          retryInMs: delay,
          err: lastError,
        },
        "webhook delivery failed; will retry",
      );
    }
    report.failed += 1;
  };

  const lane = async () => {
    for (let delivery = queue.shift(); delivery; delivery = queue.shift()) {
      try {
        await sendOne(delivery);
      } catch (error) {
        bookkeepingErrors.push(error);
      }
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, claimed.length));
  await Promise.all(Array.from({ length: lanes }, lane));

  for (const [endpointId, { error, ids }] of down) {
    report.unreachable.push(endpointId);
    let watch = outages.get(endpointId);
    if (!watch) {
      watch = new OutageWatch(config.probeMinMs ?? 1000, config.probeMaxMs ?? 60_000);
      outages.set(endpointId, watch);
    }
    const { waitMs, isNew } = watch.failed();
    if (isNew)
      deps.log.warn(
        { webhookId: endpointId, err: error },
        "webhook endpoint unreachable: its deliveries wait until it answers",
      );
    await releaseClaims(deps.db, WEBHOOK_OUTBOX, ids, error, waitMs);
    await holdEndpoint(deps, endpointId, waitMs, config.retry, error);
  }
  if (bookkeepingErrors.length > 0) throw bookkeepingErrors[0];
  return report;
}

/**
 * While an endpoint cannot be reached: its other waiting deliveries are held until the next
 * probe (none spends an attempt), and those older than `maxAgeMs` are set aside as failed.
 */
async function holdEndpoint(
  deps: Deps,
  endpointId: string,
  waitMs: number,
  retry: RetryPolicy,
  error: string,
): Promise<void> {
  const pending = and(
    eq(webhookDeliveries.endpointId, endpointId),
    eq(webhookDeliveries.status, "pending"),
    sql`(${webhookDeliveries.lockedUntil} is null or ${webhookDeliveries.lockedUntil} <= now())`,
  );
  await deps.db
    .update(webhookDeliveries)
    .set({
      nextAttemptAt: sql`greatest(${webhookDeliveries.nextAttemptAt}, now() + ${`${waitMs} milliseconds`}::interval)`,
    })
    .where(pending);
  const maxAgeMs = retry.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  await deps.db
    .update(webhookDeliveries)
    .set({
      status: "failed",
      lastError:
        `Not delivered within ${Math.round(maxAgeMs / 3_600_000)} h: the endpoint could not be reached (${error})`.slice(
          0,
          1000,
        ),
    })
    .where(
      and(
        pending,
        lte(webhookDeliveries.createdAt, sql`now() - ${`${maxAgeMs} milliseconds`}::interval`),
      ),
    );
}

/** The dispatcher of one instance: kicked for an admin's test event or a resumed endpoint. */
export type WebhookWorker = PolledWorker;

/**
 * Every `pollMs` and whenever kicked: fans out the new events, then delivers what is due; one
 * run at a time on this instance (other instances run their own; leases keep them apart).
 */
export function startWebhookWorker(
  deps: Deps,
  config: WebhookConfig,
  options: { pollMs?: number; batch?: number; concurrency?: number; jobs?: JobRunner } = {},
): WebhookWorker {
  const batch = options.batch ?? DEFAULT_BATCH;
  const outages = new Map<string, OutageWatch>();
  const jobs = options.jobs ?? new JobRunner(deps.log);
  return jobs.start("webhooks", {
    everyMs: options.pollMs ?? 5000,
    run: async (isStopped) => {
      while ((await fanOutEvents(deps)) >= FAN_OUT_BATCH && !isStopped());
      const report = await deliverDueWebhooks(deps, config, {
        batch,
        concurrency: options.concurrency,
        outages,
      });
      return report.delivered + report.failed >= batch;
    },
  });
}
