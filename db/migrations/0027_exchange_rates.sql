-- The euro reference rates of the ECB's daily file, one row per currency an estate may price in
-- other than the euro (whose rate is 1): units of the currency per euro as published, the day
-- the ECB set them and when this site fetched them. A refresh rewrites every row at once.
CREATE TABLE "exchange_rates" (
	"currency" text PRIMARY KEY NOT NULL,
	"rate" numeric NOT NULL,
	"as_of" date NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "exchange_rates_currency_check" CHECK ("currency" ~ '^[A-Z]{3}$' AND "currency" <> 'EUR'),
	CONSTRAINT "exchange_rates_rate_check" CHECK ("rate" > 0)
);
