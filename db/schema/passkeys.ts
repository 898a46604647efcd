import {
  bigint,
  customType,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { staffUsers } from "./staff.ts";

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/**
 * WebAuthn credentials: a staff account's or an owner's passkeys, several each. The
 * id is the credential id (base64url) the authenticator chose; a check constraint ties the row to
 * exactly one subject of its role (migration 0019).
 */
export const passkeys = pgTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    role: text("role", { enum: ["staff", "owner"] }).notNull(),
    staffUserId: uuid("staff_user_id").references(() => staffUsers.id, { onDelete: "cascade" }),
    ownerEmail: text("owner_email"),
    /** The COSE public key, as the authenticator gave it at registration. */
    publicKey: bytea("public_key").notNull(),
    /** The signature counter last seen: an assertion with a lower one (a clone) is refused. */
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports").array().notNull().default([]),
    /** The person's own label ("Work laptop"). */
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [
    index("passkeys_staff_user_idx").on(table.staffUserId),
    index("passkeys_owner_email_idx").on(table.ownerEmail),
  ],
);

/**
 * The challenges handed to a browser for one registration or sign-in, 5 minutes each. Spent by a
 * guarded UPDATE (`used_at IS NULL AND expires_at > now()`), so each works once across every
 * instance. `subject` is the staff id or owner email it was issued to; null for passkey-first.
 */
export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    challenge: text("challenge").notNull(),
    purpose: text("purpose", { enum: ["register", "authenticate"] }).notNull(),
    role: text("role", { enum: ["staff", "owner"] }).notNull(),
    subject: text("subject"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("webauthn_challenges_challenge_key").on(table.challenge),
    index("webauthn_challenges_expires_idx").on(table.expiresAt),
  ],
);
