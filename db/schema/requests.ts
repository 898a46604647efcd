import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * Every request a guest sends: general booking requests, property bookings and membership
 * applications. Common facts are columns (for the staff area's filters); the validated form is
 * kept whole in `details`. The guest's status page finds a row by the SHA-256 of its token.
 */
export const guestRequests = pgTable(
  "guest_requests",
  {
    id: uuid("id").primaryKey(),
    kind: text("kind", { enum: ["booking_request", "property_booking", "membership"] }).notNull(),
    reference: text("reference").notNull().unique(),
    // Booking statuses, then those of membership applications (decisions.md):
    // REQUEST_STATUSES of domain/requests/options.ts (db/ sits below domain/, so the list is
    // repeated here; domain/staff/statuses.test.ts keeps the two equal).
    status: text("status", {
      enum: [
        "New",
        "Contacted",
        "In progress",
        "Offered",
        "Awaiting deposit",
        "Confirmed",
        "Rejected",
        "Cancelled",
        "In review",
        "Accepted",
        "Declined",
      ],
    })
      .notNull()
      .default("New"),
    /** Raised by every staff change: a change made against an older version is refused. */
    version: integer("version").notNull().default(1),
    language: text("language").notNull(),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    /** Copied out of `details` for the staff inbox's search and filters. */
    phone: text("phone").notNull().default(""),
    memberStatus: text("member_status"),
    propertyId: integer("property_id"),
    /**
     * The nights [stay_start, stay_end) the request would take on `property_id`: a property
     * booking's dates from the form, a general request's once staff assign it an estate. A
     * Confirmed request with both holds a `stay` row in calendar_entries.
     */
    stayStart: date("stay_start", { mode: "string" }),
    stayEnd: date("stay_end", { mode: "string" }),
    details: jsonb("details").$type<Record<string, unknown>>().notNull(),
    statusTokenHash: text("status_token_hash").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    // Requests answered on time (domain/requests/lifecycle.ts). `due_at`: when an open request
    // is closed by the system (null: never); `remind_at`: when staff are reminded (3/4 of the
    // window); `reminded_at`: set by the one run that sent the reminder.
    dueAt: timestamp("due_at", { withTimezone: true }),
    remindAt: timestamp("remind_at", { withTimezone: true }),
    remindedAt: timestamp("reminded_at", { withTimezone: true }),
    /** When the guest's personal data was erased (domain/privacy/erase-guest.ts); null: kept. */
    erasedAt: timestamp("erased_at", { withTimezone: true }),
  },
  (table) => [
    index("guest_requests_open_due_idx")
      .on(table.dueAt)
      .where(
        sql`${table.status} IN ('New', 'Contacted', 'In progress', 'In review') AND ${table.dueAt} IS NOT NULL`,
      ),
    index("guest_requests_remind_idx")
      .on(table.remindAt)
      .where(sql`${table.remindedAt} IS NULL AND ${table.remindAt} IS NOT NULL`),
    // The inbox pages newest first by (created_at, id) within a kind, optionally by status.
    index("guest_requests_kind_created_idx").on(table.kind, table.createdAt, table.id),
    index("guest_requests_kind_status_created_idx").on(
      table.kind,
      table.status,
      table.createdAt,
      table.id,
    ),
    index("guest_requests_email_idx").on(sql`lower(${table.email})`),
    // The retention job looks for requests whose guest data is still held.
    index("guest_requests_not_erased_idx")
      .on(table.updatedAt)
      .where(sql`${table.erasedAt} IS NULL`),
    // The inbox search matches fragments (ILIKE '%…%') of email, name and phone digits:
    // trigram indexes (pg_trgm, in PostgreSQL's contrib and bundled with PGlite) serve them.
    index("guest_requests_email_trgm_idx").using("gin", sql`${table.email} gin_trgm_ops`),
    index("guest_requests_name_trgm_idx").using(
      "gin",
      sql`(${table.firstName} || ' ' || ${table.lastName}) gin_trgm_ops`,
    ),
    index("guest_requests_phone_digits_trgm_idx").using(
      "gin",
      sql`regexp_replace(${table.phone}, '[^0-9]', '', 'g') gin_trgm_ops`,
    ),
    index("guest_requests_property_idx").on(table.propertyId),
  ],
);

/** Who changed a request's status, when, from what to what (the first row: created as New). */
export const guestRequestStatusHistory = pgTable(
  "guest_request_status_history",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => guestRequests.id, { onDelete: "cascade" }),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    /** "guest" for the first row, else the staff member's email. */
    changedBy: text("changed_by").notNull(),
    changedByUserId: uuid("changed_by_user_id"),
    /** Required when the new status refuses the request (Rejected, Declined). */
    reason: text("reason"),
    /** Whether the guest's status page shows the reason. */
    reasonShared: boolean("reason_shared").notNull().default(false),
    /**
     * `status` for a change of status; `stay` when staff set the estate and nights the request
     * would take (the status then stays as it was: from = to); `due` when staff moved the due
     * time (from = to as well).
     */
    event: text("event", { enum: ["status", "stay", "due"] })
      .notNull()
      .default("status"),
    stayPropertyId: integer("stay_property_id"),
    stayStart: date("stay_start", { mode: "string" }),
    stayEnd: date("stay_end", { mode: "string" }),
    /** For a `due` event (staff extended the request), the new due time. */
    dueAt: timestamp("due_at", { withTimezone: true }),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("guest_request_status_history_request_idx").on(table.requestId)],
);

/**
 * The first answer given to an Idempotency-Key, per endpoint, so a retry gets the same answer
 * and stores nothing new. Written in the transaction that stores the request.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    bodyHash: text("body_hash").notNull(),
    responseStatus: integer("response_status").notNull(),
    responseBody: jsonb("response_body").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.scope, table.key] }),
    index("idempotency_keys_expires_idx").on(table.expiresAt),
  ],
);

/** Bot-check tokens already spent, kept until they would have expired anyway. */
export const usedBotTokens = pgTable(
  "used_bot_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("used_bot_tokens_expires_idx").on(table.expiresAt)],
);

/**
 * Mail waiting to go out. A worker claims due rows, sends them and marks them sent; a failure
 * pushes `next_attempt_at` back (exponential, capped). After MAIL_MAX_ATTEMPTS failures the row
 * is `failed` and waits for staff to retry or discard it: an outage delays mail, and nothing is
 * dropped without a person deciding.
 */
/** A file a mail carries, named: drawn when the mail is sent (domain/mail/mail-outbox.ts). */
export type MailAttachmentRef = { kind: "payment_receipt"; paymentId: number };

export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey(),
    requestId: uuid("request_id").references(() => guestRequests.id, { onDelete: "set null" }),
    template: text("template").notNull(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    attachment: jsonb("attachment").$type<MailAttachmentRef>(),
    /** failed: gave up after the bounded attempts, waiting for staff to retry or discard. */
    status: text("status", { enum: ["pending", "sent", "failed", "discarded"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (table) => [
    index("mail_outbox_due_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    index("mail_outbox_failed_idx")
      .on(table.createdAt)
      .where(sql`${table.status} = 'failed'`),
    index("mail_outbox_unattached_idx")
      .on(table.createdAt)
      .where(sql`${table.requestId} is null`),
  ],
);

/** Secrets the application makes for itself on first start (shared by every instance). */
export const appSecrets = pgTable("app_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
