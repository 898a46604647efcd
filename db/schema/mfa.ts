import {
  bigint,
  bigserial,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { staffUsers } from "./staff.ts";

/**
 * A staff account's authenticator app (TOTP). The shared secret is sealed with
 * AES-256-GCM under an application secret, never stored in clear. `confirmed_at` is null until
 * the first right code; `last_used_step` is the 30-second step of the last accepted code, so a
 * code is never accepted twice (a guarded UPDATE moves it forward only).
 */
export const staffTotp = pgTable("staff_totp", {
  staffUserId: uuid("staff_user_id")
    .primaryKey()
    .references(() => staffUsers.id, { onDelete: "cascade" }),
  sealedSecret: text("sealed_secret").notNull(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Single-use recovery codes, 10 per batch; only a SHA-256 of each (a 60-bit random code) is
 * kept. A code is spent by `UPDATE ... WHERE used_at IS NULL RETURNING`, so it works once even
 * when two instances receive it at the same moment. A new batch deletes the old one.
 */
export const staffRecoveryCodes = pgTable(
  "staff_recovery_codes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    staffUserId: uuid("staff_user_id")
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("staff_recovery_codes_user_hash_key").on(table.staffUserId, table.codeHash),
  ],
);
