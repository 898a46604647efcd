-- Mail follows the recorded events: each event says in `internal` what Castellum's own
-- subscribers need (never sent to webhook receivers), and `mailed_at` marks an event whose mail
-- is in the outbox. Events recorded before this migration had their mail queued by the writer:
-- they are marked mailed, so none is sent twice.
ALTER TABLE "domain_events" ADD COLUMN "internal" jsonb;--> statement-breakpoint
ALTER TABLE "domain_events" ADD COLUMN "mailed_at" timestamp with time zone;--> statement-breakpoint
UPDATE "domain_events" SET "mailed_at" = "occurred_at";--> statement-breakpoint
CREATE INDEX "domain_events_unmailed_idx" ON "domain_events" USING btree ("seq") WHERE "domain_events"."mailed_at" is null;
