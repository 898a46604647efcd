import { sql } from "drizzle-orm";
import { bigserial, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { guestRequests } from "./requests.ts";
import { staffUsers } from "./staff.ts";

/**
 * The conversation between staff and the guest of one request, separate from the
 * internal notes: the guest sees every row here on their status page. A guest's message is
 * unread until a member of staff reads the thread (`read_at`, shared by all staff); staff
 * messages have no read marker.
 */
export const guestRequestMessages = pgTable(
  "guest_request_messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => guestRequests.id, { onDelete: "cascade" }),
    author: text("author", { enum: ["staff", "guest"] }).notNull(),
    /** The staff account that wrote it (null for the guest, or an account since deleted). */
    staffUserId: uuid("staff_user_id").references(() => staffUsers.id, { onDelete: "set null" }),
    /** The staff member's display name when written; null for the guest. */
    authorName: text("author_name"),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (table) => [
    index("guest_request_messages_request_idx").on(table.requestId, table.id),
    // The inbox counts unread guest messages per request.
    index("guest_request_messages_unread_idx")
      .on(table.requestId)
      .where(sql`${table.author} = 'guest' and ${table.readAt} is null`),
  ],
);

/**
 * The guest's status-link token, sealed (AES-256-GCM under an application secret), so a staff
 * message can mail the guest their link: `guest_requests` keeps only the token's hash, which
 * cannot rebuild it. Requests sent before this table existed have no row; their mails point to the
 * confirmation mail instead.
 */
export const guestRequestStatusLinks = pgTable("guest_request_status_links", {
  requestId: uuid("request_id")
    .primaryKey()
    .references(() => guestRequests.id, { onDelete: "cascade" }),
  sealedToken: text("sealed_token").notNull(),
});
