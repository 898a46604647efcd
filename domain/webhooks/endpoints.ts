import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { domainEvents, webhookDeliveries, webhookEndpoints } from "#db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { ValidationError } from "../errors.ts";
import type { WebhookEventType as EventType } from "../events/event-types.ts";
import {
  checkOutboundUrl,
  OutboundFetchError,
  type OutboundPolicy,
} from "../outbound/safe-fetch.ts";
import { newWebhookSecret } from "./signature.ts";

/**
 * The endpoints admins register to follow Castellum's events, and their delivery
 * log. The dispatcher (dispatch.ts) fans events out to them and delivers.
 */

/** Endpoints one site may register. */
export const MAX_WEBHOOK_ENDPOINTS = 20;
/** The event type of a test delivery, sent to one endpoint only on an admin's request. */
export const TEST_EVENT_TYPE = "webhook.test";

/** An endpoint as admins see it: never its secret. */
export interface WebhookEndpointView {
  id: string;
  url: string;
  events: EventType[];
  includeContact: boolean;
  paused: boolean;
  createdBy: string;
  createdAt: Date;
  /** Deliveries waiting (due, retrying, or held while paused). */
  pendingCount: number;
  /** Deliveries given up on. */
  failedCount: number;
  lastDeliveredAt: Date | null;
}

/** One row of an endpoint's delivery log. */
export interface WebhookDeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

const URL_MESSAGES: Partial<Record<OutboundFetchError["code"], string>> = {
  blocked_address: "staff.webhooks.errors.privateAddress",
  unresolvable: "staff.webhooks.errors.unresolvable",
};
const refuseUrl = (message: string) => new ValidationError([{ path: "url", message }]);

/**
 * Registers an endpoint and answers its signing secret, which is shown this once. Refuses (a
 * ValidationError on `url`) an address that is not http(s), whose host does not resolve or
 * resolves to a loopback, private or link-local address (unless `outbound` allows them), or
 * one past MAX_WEBHOOK_ENDPOINTS. It receives the events recorded from now on.
 */
export async function registerWebhook(
  deps: Pick<Deps, "db">,
  outbound: OutboundPolicy,
  input: { url: string; events: EventType[]; includeContact: boolean; createdBy: string },
): Promise<{ id: string; secret: string }> {
  let url: URL;
  try {
    url = await checkOutboundUrl(input.url.trim(), outbound);
  } catch (error) {
    if (!(error instanceof OutboundFetchError)) throw error;
    throw refuseUrl(URL_MESSAGES[error.code] ?? "staff.webhooks.errors.urlInvalid");
  }
  const [held] = await deps.db.select({ count: count() }).from(webhookEndpoints);
  if ((held?.count ?? 0) >= MAX_WEBHOOK_ENDPOINTS) throw refuseUrl("staff.webhooks.errors.tooMany");
  const id = randomUUID();
  const secret = newWebhookSecret();
  await deps.db.insert(webhookEndpoints).values({
    id,
    url: url.toString(),
    events: [...new Set(input.events)],
    secret,
    includeContact: input.includeContact,
    createdBy: input.createdBy,
  });
  return { id, secret };
}

/**
 * The endpoint's id, qualified: drizzle writes a column of a one-table select without its
 * table, which inside the correlated subqueries below would name the delivery's own `id`.
 */
const ENDPOINT_ID = sql.raw(`"webhook_endpoints"."id"`);

const ENDPOINT_COLUMNS = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  events: webhookEndpoints.events,
  includeContact: webhookEndpoints.includeContact,
  pausedAt: webhookEndpoints.pausedAt,
  createdBy: webhookEndpoints.createdBy,
  createdAt: webhookEndpoints.createdAt,
  pendingCount:
    sql`(select count(*) from ${webhookDeliveries} d where d.endpoint_id = ${ENDPOINT_ID} and d.status = 'pending')`.mapWith(
      Number,
    ),
  failedCount:
    sql`(select count(*) from ${webhookDeliveries} d where d.endpoint_id = ${ENDPOINT_ID} and d.status = 'failed')`.mapWith(
      Number,
    ),
  lastDeliveredAt: sql<
    string | Date | null
  >`(select max(d.delivered_at) from ${webhookDeliveries} d where d.endpoint_id = ${ENDPOINT_ID})`,
};

type EndpointRow = {
  [K in keyof typeof ENDPOINT_COLUMNS]: K extends "lastDeliveredAt"
    ? string | Date | null
    : K extends "pendingCount" | "failedCount"
      ? number
      : (typeof webhookEndpoints.$inferSelect)[K & keyof typeof webhookEndpoints.$inferSelect];
};

function endpointView(row: EndpointRow): WebhookEndpointView {
  const { pausedAt, lastDeliveredAt, ...rest } = row;
  return {
    ...rest,
    events: rest.events as EventType[],
    paused: pausedAt !== null,
    lastDeliveredAt: lastDeliveredAt === null ? null : new Date(lastDeliveredAt),
  };
}

/** Every endpoint, oldest first. */
export async function listWebhooks(deps: Pick<Deps, "db">): Promise<WebhookEndpointView[]> {
  const rows = await deps.db
    .select(ENDPOINT_COLUMNS)
    .from(webhookEndpoints)
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
  return rows.map(endpointView);
}

/** One endpoint, or null. */
export async function getWebhook(
  deps: Pick<Deps, "db">,
  id: string,
): Promise<WebhookEndpointView | null> {
  const [row] = await deps.db
    .select(ENDPOINT_COLUMNS)
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id));
  return row ? endpointView(row) : null;
}

/**
 * Pauses or resumes an endpoint; null when there is none. While paused its events are still
 * queued for it (docs/decisions/0018-webhooks.md); once resumed it gets them, oldest first.
 */
export async function setWebhookPaused(
  deps: Pick<Deps, "db">,
  id: string,
  paused: boolean,
): Promise<WebhookEndpointView | null> {
  await deps.db
    .update(webhookEndpoints)
    .set({ pausedAt: paused ? sql`coalesce(${webhookEndpoints.pausedAt}, now())` : null })
    .where(eq(webhookEndpoints.id, id));
  if (!paused)
    // What waited while paused is due now, not after a backoff it did not earn.
    await deps.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now()` })
      .where(
        and(
          eq(webhookDeliveries.endpointId, id),
          eq(webhookDeliveries.status, "pending"),
          eq(webhookDeliveries.attempts, 0),
        ),
      );
  return getWebhook(deps, id);
}

/** Deletes an endpoint and its delivery log (nothing more is sent to it); false when none. */
export async function deleteWebhook(deps: Pick<Deps, "db">, id: string): Promise<boolean> {
  const removed = await deps.db
    .delete(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id))
    .returning({ id: webhookEndpoints.id });
  return removed.length > 0;
}

/**
 * Gives an endpoint a new signing secret and answers it (shown this once); null when there is
 * no such endpoint. Every delivery from now on, retries included, is signed with the new one.
 */
export async function rotateWebhookSecret(
  deps: Pick<Deps, "db">,
  id: string,
): Promise<{ id: string; secret: string } | null> {
  const secret = newWebhookSecret();
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({ secret })
    .where(eq(webhookEndpoints.id, id))
    .returning({ id: webhookEndpoints.id });
  return row ? { id: row.id, secret } : null;
}

/**
 * Queues a test event (`webhook.test`) for this endpoint only, due at once, paused or not
 * (it waits like any other while paused). Answers the delivery, or null when no endpoint.
 */
export async function sendTestWebhook(
  deps: Pick<Deps, "db">,
  id: string,
  input: { by: string },
): Promise<WebhookDeliveryView | null> {
  return deps.db.transaction(async (tx) => {
    const [endpoint] = await tx
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, id));
    if (!endpoint) return null;
    const eventId = randomUUID();
    // Recorded as fanned out already: it is this endpoint's alone.
    await tx.insert(domainEvents).values({
      id: eventId,
      type: TEST_EVENT_TYPE,
      data: { endpointId: id, by: input.by, test: true },
      fannedOutAt: sql`now()`,
    });
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({ id: randomUUID(), endpointId: id, eventId, eventType: TEST_EVENT_TYPE })
      .returning();
    return delivery ? deliveryView(delivery) : null;
  });
}

function deliveryView(row: typeof webhookDeliveries.$inferSelect): WebhookDeliveryView {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
  };
}

/** An endpoint's deliveries, newest first, at most `limit`; null when there is no endpoint. */
export async function listWebhookDeliveries(
  deps: Pick<Deps, "db">,
  id: string,
  input: { limit?: number } = {},
): Promise<WebhookDeliveryView[] | null> {
  const endpoint = await getWebhook(deps, id);
  if (!endpoint) return null;
  const rows = await deps.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, id))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(input.limit ?? 100);
  return rows.map(deliveryView);
}
