-- The network's share of an estate's stays on its owner's statements, in percent, when it is
-- not the site's OWNER_COMMISSION_PERCENT (null). Staff set it; owners read it.
ALTER TABLE "properties" ADD COLUMN "commission_percent" double precision;--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_commission_percent_check" CHECK ("commission_percent" IS NULL OR ("commission_percent" >= 0 AND "commission_percent" <= 100));
