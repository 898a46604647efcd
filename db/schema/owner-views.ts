import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { properties } from "./catalogue.ts";
import { guestRequests } from "./requests.ts";

/**
 * The owner's view of a pending request for their estate: 'Agree' or
 * 'Decline' with an optional note, for staff to weigh before they decide. Every view is kept;
 * the latest one counts. `property_id` is the estate the request was for when the view was
 * given (a request staff move to another estate keeps the views given on the first).
 */
export const ownerRequestViews = pgTable(
  "owner_request_views",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => guestRequests.id, { onDelete: "cascade" }),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    agree: boolean("agree").notNull(),
    note: text("note"),
    /** "owner", or "staff" for an admin recording it on the owner's behalf from the dashboard. */
    actorRole: text("actor_role", { enum: ["owner", "staff"] }).notNull(),
    actorEmail: text("actor_email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("owner_request_views_request_idx").on(t.requestId, t.createdAt)],
);

/**
 * The language an owner last used (the verification page or the dashboard), keyed by the
 * owner's lowercased email: their mails about requests are written in it.
 */
export const ownerLanguages = pgTable("owner_languages", {
  email: text("email").primaryKey(),
  language: text("language").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
