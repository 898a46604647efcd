import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import { properties } from "./catalogue.ts";

/**
 * Every version of an estate's rates, kept: the latest revision is the estate's rates now, and
 * staff may put an earlier one back (a new revision with its content). `revision` counts from 1
 * per estate; the unique key makes two saves at once take two numbers or fail, never share
 * one. `rates` is the body domain/pricing/rates.schema.ts validates, amounts in minor units.
 */
export const estateRateRevisions = pgTable(
  "estate_rate_revisions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    rates: jsonb("rates").$type<Record<string, unknown>>().notNull(),
    /** Who saved it: "staff", "owner", or "seed" for the demo catalogue's. */
    actorRole: text("actor_role", { enum: ["staff", "owner", "seed"] }).notNull(),
    /** The staff member's or owner's email; null for the seed. */
    actorEmail: text("actor_email"),
    /** The revision this one put back, when it is a revert. */
    revertOf: integer("revert_of"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    unique("estate_rate_revisions_property_revision_key").on(t.propertyId, t.revision),
    index("estate_rate_revisions_created_idx").on(t.propertyId, t.createdAt),
  ],
);
