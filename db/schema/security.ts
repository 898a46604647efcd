import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * The security log: sign-ins, second factors, account changes, refused access,
 * exports, owner codes, feed and webhook changes. Append-only: triggers (migration 0014) refuse
 * every UPDATE and TRUNCATE, and every DELETE but the retention prune's, which sets
 * `castellum.security_events_prune` for its own transaction. No foreign key to staff_users, so
 * nothing done to an account can rewrite its history.
 */
export const securityEvents = pgTable(
  "security_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    type: text("type").notNull(),
    /** Who acted: a staff account, an owner (by email), someone not signed in, or the system. */
    actorKind: text("actor_kind", { enum: ["staff", "owner", "anonymous", "system"] }).notNull(),
    staffUserId: uuid("staff_user_id"),
    /** The email the actor used or was known by (a failed sign-in's typed address included). */
    actorEmail: text("actor_email"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    /** What happened, beyond the type: the reason, the target, the path. Never a secret. */
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [
    index("security_events_at_idx").on(table.at),
    index("security_events_type_at_idx").on(table.type, table.at),
    index("security_events_staff_user_at_idx").on(table.staffUserId, table.at),
  ],
);
