import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { guestRequests } from "./requests.ts";

/**
 * People who work in the staff area. `email` is stored lowercased (unique); the password hash
 * is a self-describing PHC-style string (scheme and parameters included), so the cost can rise
 * later without a migration.
 */
export const staffUsers = pgTable(
  "staff_users",
  {
    id: uuid("id").primaryKey(),
    email: text("email").notNull(),
    displayName: text("display_name").notNull(),
    isAdmin: boolean("is_admin").notNull().default(false),
    disabled: boolean("disabled").notNull().default(false),
    passwordHash: text("password_hash").notNull(),
    /** The language of the staff area for this person (en, fr, it, zh). */
    language: text("language").notNull().default("en"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
  },
  (table) => [uniqueIndex("staff_users_email_idx").on(sql`lower(${table.email})`)],
);

/**
 * Signed-in sessions of every role. Only the SHA-256 of the cookie's token is kept. A staff
 * session names its account; an owner session names the owner's email.
 */
export const authSessions = pgTable(
  "auth_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    /** A name for the session that is no secret: how a person ends one of their sessions. */
    id: uuid("id").notNull().defaultRandom(),
    role: text("role", { enum: ["staff", "owner"] }).notNull(),
    /**
     * How far the sign-in has come. `complete` opens what the role may open;
     * `second_factor` (password right, second factor awaited) and `enrolment` (password right,
     * no factor yet while STAFF_MFA_REQUIRED) open only their next step.
     */
    stage: text("stage", { enum: ["complete", "second_factor", "enrolment"] })
      .notNull()
      .default("complete"),
    staffUserId: uuid("staff_user_id").references(() => staffUsers.id, { onDelete: "cascade" }),
    ownerEmail: text("owner_email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** Absolute end: a session never outlives this, however busy. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (table) => [
    uniqueIndex("auth_sessions_id_key").on(table.id),
    index("auth_sessions_staff_user_idx").on(table.staffUserId),
    index("auth_sessions_expires_idx").on(table.expiresAt),
  ],
);

/** One-time links that create the first admin (only while no staff account exists). */
export const staffSetupTokens = pgTable("staff_setup_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
});

/**
 * One-time links mailed by the accounts page: an invitation (24 hours) creates an
 * account at `email`; a password reset (1 hour) sets the password of `staff_user_id`. Only the
 * SHA-256 of the token is kept; `used_at` makes a link single use. The last enabled admin is
 * kept by the trigger `staff_users_keep_an_admin` (migration 0018), not by this table.
 */
export const staffAccountLinks = pgTable(
  "staff_account_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    kind: text("kind", { enum: ["invitation", "password_reset"] }).notNull(),
    email: text("email").notNull(),
    staffUserId: uuid("staff_user_id").references(() => staffUsers.id, { onDelete: "cascade" }),
    isAdmin: boolean("is_admin").notNull().default(false),
    createdBy: uuid("created_by").references(() => staffUsers.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [
    index("staff_account_links_email_idx").on(sql`lower(${table.email})`),
    check("staff_account_links_kind_check", sql`${table.kind} in ('invitation', 'password_reset')`),
  ],
);

/**
 * Fixed-window counters kept in the database: the login limiter's store when no Redis is
 * configured (it must never fail open, so it cannot live in one process's memory).
 */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
});

/** Internal notes staff keep on a request; never shown to the guest. */
export const guestRequestNotes = pgTable(
  "guest_request_notes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => guestRequests.id, { onDelete: "cascade" }),
    authorId: uuid("author_id").references(() => staffUsers.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("guest_request_notes_request_idx").on(table.requestId, table.createdAt)],
);
