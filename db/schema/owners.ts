import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { properties } from "./catalogue.ts";

/**
 * One-time codes that prove an owner controls the estate's contact email. Only the code's
 * SHA-256 is kept. A new code for an email deletes the previous one. Once the code is proven,
 * `proof_hash` holds the hash of the claim ticket (a cookie) that lets the claim step run once.
 */
export const ownerCodes = pgTable(
  "owner_codes",
  {
    id: uuid("id").primaryKey(),
    /** Lowercased. */
    email: text("email").notNull(),
    codeHash: text("code_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    ip: text("ip"),
    language: text("language").notNull().default("en"),
    provenAt: timestamp("proven_at", { withTimezone: true }),
    proofHash: text("proof_hash"),
    proofExpiresAt: timestamp("proof_expires_at", { withTimezone: true }),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
  },
  (t) => [
    index("owner_codes_email_idx").on(t.email),
    index("owner_codes_proof_idx").on(t.proofHash),
  ],
);

/**
 * Every wrong owner code, per email: the daily cap on guesses counts these
 * rows, across codes, so a new code does not reset it and every instance sees the same count.
 */
export const ownerCodeFailures = pgTable(
  "owner_code_failures",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** Lowercased. */
    email: text("email").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    ip: text("ip"),
  },
  (t) => [index("owner_code_failures_email_at_idx").on(t.email, t.at)],
);

/**
 * Every claim of an estate: who (the proven email), when and from where. A claim is bound to
 * the address it was made with: when the estate's owner email changes, a trigger
 * (`property_owner_email_ends_claims`, migration 0016) sets `ended_at` on its live claims and
 * deletes the former address's owner sessions that no other live claim keeps, so changing the
 * email back revives nothing. Only a claim without `ended_at` grants access.
 */
export const propertyClaims = pgTable(
  "property_claims",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull().defaultNow(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [
    index("property_claims_email_idx").on(t.email),
    index("property_claims_property_idx").on(t.propertyId),
  ],
);

/**
 * Provenance: a row says that a person (owner or staff) has set this field, so the demo seed
 * and catalogue imports leave it alone. `lang` is a language for translated text, or "*".
 */
export const propertyFieldEdits = pgTable(
  "property_field_edits",
  {
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    field: text("field").notNull(),
    lang: text("lang").notNull(),
    editedByRole: text("edited_by_role", { enum: ["owner", "staff"] }).notNull(),
    editedBy: text("edited_by").notNull(),
    editedAt: timestamp("edited_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.propertyId, t.field, t.lang] })],
);

/** Every change a person made to an estate: field, old and new value, who and when. */
export const propertyRevisions = pgTable(
  "property_revisions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    field: text("field").notNull(),
    lang: text("lang").notNull(),
    oldValue: jsonb("old_value"),
    newValue: jsonb("new_value"),
    actorRole: text("actor_role", { enum: ["owner", "staff"] }).notNull(),
    actor: text("actor").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set on a revision that a later revert undid. */
    revertedAt: timestamp("reverted_at", { withTimezone: true }),
    revertedBy: text("reverted_by"),
    /** On the revision a revert wrote: the revision it undid. */
    revertOf: bigint("revert_of", { mode: "number" }),
  },
  (t) => [index("property_revisions_property_idx").on(t.propertyId, t.createdAt)],
);

/**
 * Translated text that fell behind: when a person edits a field in one language, the other
 * languages of that field are flagged here until someone edits them too.
 */
export const propertyStaleTranslations = pgTable(
  "property_stale_translations",
  {
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    field: text("field").notNull(),
    lang: text("lang").notNull(),
    sourceLang: text("source_lang").notNull(),
    since: timestamp("since", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.propertyId, t.field, t.lang] })],
);
