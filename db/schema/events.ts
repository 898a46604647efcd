import { sql } from "drizzle-orm";
import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * What happened in Castellum that systems outside it may follow: one row per event,
 * written in the same transaction as the change it describes, so an event exists exactly when
 * its change committed (the transactional outbox). The webhook dispatcher fans each event out
 * to the endpoints subscribed to its type and stamps `fanned_out_at`; the mail subscriber turns
 * it into the mail it calls for and stamps `mailed_at`, in one transaction.
 * - `id` is the event's identity, sent to receivers for deduplication;
 * - `seq` orders events as they were recorded;
 * - `data` holds no guest contact details; `contact` holds them, sent only to endpoints an admin
 *   allowed to receive them;
 * - `internal` holds what Castellum's own subscribers need and no receiver is sent (whether the
 *   guest is to be told, the reason they are shown).
 */
export const domainEvents = pgTable(
  "domain_events",
  {
    id: uuid("id").primaryKey(),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity().notNull(),
    type: text("type").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).defaultNow().notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    contact: jsonb("contact").$type<Record<string, unknown>>(),
    fannedOutAt: timestamp("fanned_out_at", { withTimezone: true }),
    internal: jsonb("internal").$type<Record<string, unknown>>(),
    mailedAt: timestamp("mailed_at", { withTimezone: true }),
  },
  (table) => [
    index("domain_events_pending_idx")
      .on(table.seq)
      .where(sql`${table.fannedOutAt} is null`),
    index("domain_events_unmailed_idx")
      .on(table.seq)
      .where(sql`${table.mailedAt} is null`),
    index("domain_events_personal_idx")
      .on(table.occurredAt)
      .where(sql`${table.contact} is not null or ${table.internal} is not null`),
  ],
);
