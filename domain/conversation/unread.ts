import { sql } from "drizzle-orm";

/**
 * How many of the guest's messages on a request no member of staff has read yet: an SQL
 * expression over `guest_requests`, for the inbox's rows (served by a partial index). Written
 * with qualified names: drizzle leaves a select's columns unqualified, and `id` inside the
 * subquery would be the message's own.
 */
export const unreadMessagesOf = sql<number>`(select count(*)::int from "guest_request_messages" m where m."request_id" = "guest_requests"."id" and m."author" = 'guest' and m."read_at" is null)`;
