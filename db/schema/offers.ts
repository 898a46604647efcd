import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { guestRequests } from "./requests.ts";

/**
 * The price staff offer a guest for a request's stay, and the money that moves for it.
 *
 * An offer copies the lines and terms it was sent with (later rate changes do not reach it).
 * A request has at most one live offer (sent or accepted): the partial unique index refuses a
 * second, whichever instance sends it. Amounts are integer minor units of `currency`
 * (docs/decisions/0032); the checks keep deposit + balance = total in the database itself.
 */
export const offers = pgTable(
  "offers",
  {
    id: uuid("id").primaryKey(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => guestRequests.id, { onDelete: "cascade" }),
    propertyId: integer("property_id").notNull(),
    /** sent → accepted | declined | expired | withdrawn (domain/offers/offers.ts). */
    status: text("status", {
      enum: ["sent", "accepted", "declined", "expired", "withdrawn"],
    }).notNull(),
    currency: text("currency").notNull(),
    /** The priced lines (domain/pricing/quote.ts PriceLine), in the order the guest reads them. */
    lines: jsonb("lines").$type<Record<string, unknown>[]>().notNull(),
    tax: bigint("tax", { mode: "number" }).notNull(),
    taxIncluded: boolean("tax_included").notNull(),
    total: bigint("total", { mode: "number" }).notNull(),
    deposit: bigint("deposit", { mode: "number" }).notNull(),
    balance: bigint("balance", { mode: "number" }).notNull(),
    balanceDueOn: date("balance_due_on", { mode: "string" }),
    checkIn: date("check_in", { mode: "string" }).notNull(),
    checkOut: date("check_out", { mode: "string" }).notNull(),
    guests: integer("guests").notNull(),
    cancellationPolicy: text("cancellation_policy").notNull(),
    /** Staff's words to the guest, shown with the offer. */
    note: text("note"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Set on acceptance: unpaid by then, the nights are released and the booking cancelled. */
    depositDueAt: timestamp("deposit_due_at", { withTimezone: true }),
    /** Set by the one run that sent the balance reminder. */
    balanceRemindedAt: timestamp("balance_reminded_at", { withTimezone: true }),
    /** A $CASL transaction the guest says pays this offer, for staff to check. */
    guestCaslTx: text("guest_casl_tx"),
    /** What the policy gives back, fixed when a confirmed booking is cancelled. */
    refundDue: bigint("refund_due", { mode: "number" }),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("offers_one_live_idx")
      .on(t.requestId)
      .where(sql`${t.status} IN ('sent', 'accepted')`),
    index("offers_request_idx").on(t.requestId, t.createdAt),
    index("offers_expiry_idx")
      .on(t.expiresAt)
      .where(sql`${t.status} = 'sent'`),
    index("offers_deposit_due_idx")
      .on(t.depositDueAt)
      .where(sql`${t.status} = 'accepted'`),
  ],
);

/**
 * The ledger: one row per payment received or refund paid out, never changed or deleted (the
 * trigger refuses it), so every balance shown is a sum over it. `provider_id` is the payment
 * provider's own id (a Stripe Checkout Session): the unique index records it once, however
 * often the provider tells us.
 */
export const payments = pgTable(
  "payments",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => guestRequests.id),
    offerId: uuid("offer_id")
      .notNull()
      .references(() => offers.id),
    kind: text("kind", { enum: ["deposit", "balance", "refund"] }).notNull(),
    method: text("method", { enum: ["bank_transfer", "card", "casl"] }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    reference: text("reference").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
    /** The staff member's email, or "stripe" for a payment the provider reported. */
    recordedBy: text("recorded_by").notNull(),
    provider: text("provider"),
    providerId: text("provider_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    /** Past FINANCIAL_RECORDS_YEARS: `reference` blanked and `provider_id` cleared. */
    anonymisedAt: timestamp("anonymised_at", { withTimezone: true }),
  },
  (t) => [
    index("payments_request_idx").on(t.requestId, t.id),
    uniqueIndex("payments_provider_idx")
      .on(t.provider, t.providerId)
      .where(sql`${t.providerId} IS NOT NULL`),
    index("payments_not_anonymised_idx")
      .on(t.receivedAt)
      .where(sql`${t.anonymisedAt} IS NULL`),
  ],
);
