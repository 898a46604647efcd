import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * The addresses outside Castellum that follow its events (signed webhooks).
 * - `events`: the event types the endpoint subscribed to;
 * - `secret`: the signing secret, kept as it was given out, since every delivery is signed
 *   with it (docs/decisions/0018-webhooks.md); never listed, never logged;
 * - `paused_at`: set while an admin paused the endpoint: its deliveries wait, none is lost;
 * - `include_contact`: an admin allowed guest contact details in its events.
 */
export const webhookEndpoints = pgTable("webhook_endpoints", {
  id: uuid("id").primaryKey(),
  url: text("url").notNull(),
  events: text("events").array().notNull(),
  secret: text("secret").notNull(),
  includeContact: boolean("include_contact").default(false).notNull(),
  pausedAt: timestamp("paused_at", { withTimezone: true }),
  createdBy: text("created_by").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
});

/**
 * One event to one endpoint: the webhook outbox. Unique per (endpoint, event), so a fan-out
 * run twice makes no second delivery. `status` is `pending` (due at `next_attempt_at`,
 * claimed by a sender while `locked_until` is ahead), `delivered` or `failed` (given up).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: uuid("event_id").notNull(),
    eventType: text("event_type").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .default("pending")
      .notNull(),
    attempts: integer("attempts").default(0).notNull(),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).defaultNow().notNull(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("webhook_deliveries_endpoint_event_key").on(table.endpointId, table.eventId),
    index("webhook_deliveries_due_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    index("webhook_deliveries_log_idx").on(table.endpointId, table.createdAt),
    index("webhook_deliveries_done_idx")
      .on(table.createdAt)
      .where(sql`${table.status} <> 'pending'`),
  ],
);
