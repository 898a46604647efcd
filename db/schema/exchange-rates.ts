import { sql } from "drizzle-orm";
import { check, date, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The euro reference rates of the ECB's daily file, for the approximate price in a guest's own
 * currency (domain/pricing/exchange-rates.ts). One row per currency an estate may price in
 * other than the euro, whose rate is 1 by definition. `rate` is units of the currency per euro,
 * the decimal exactly as published (numeric, never a float); `as_of` is the day the ECB set
 * it, `fetched_at` when this site read it: a refresh waits a day from the last one, whichever
 * instance made it. A refresh rewrites every row in one statement, so readers see one day's
 * rates, never a mix.
 */
export const exchangeRates = pgTable(
  "exchange_rates",
  {
    currency: text("currency").primaryKey(),
    rate: numeric("rate").notNull(),
    asOf: date("as_of", { mode: "string" }).notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    check(
      "exchange_rates_currency_check",
      sql`${t.currency} ~ '^[A-Z]{3}$' AND ${t.currency} <> 'EUR'`,
    ),
    check("exchange_rates_rate_check", sql`${t.rate} > 0`),
  ],
);
