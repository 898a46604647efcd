-- btree_gist lets one GiST index hold the estate (=) and the nights (&&): the exclusion
-- constraint below. PostgreSQL ships it in contrib; PGlite loads it from its contrib bundle.
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
CREATE TABLE "calendar_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"property_id" integer NOT NULL,
	"nights" daterange NOT NULL,
	"source" text NOT NULL,
	"kind" text,
	"note" text,
	"request_id" uuid,
	"feed_id" uuid,
	"external_uid" text,
	"summary" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calendar_exports" (
	"property_id" integer PRIMARY KEY NOT NULL,
	"generation" integer DEFAULT 1 NOT NULL,
	"rotated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calendar_feeds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"property_id" integer NOT NULL,
	"url" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"next_sync_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"event_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "guest_request_status_history" ADD COLUMN "event" text DEFAULT 'status' NOT NULL;--> statement-breakpoint
ALTER TABLE "guest_request_status_history" ADD COLUMN "stay_property_id" integer;--> statement-breakpoint
ALTER TABLE "guest_request_status_history" ADD COLUMN "stay_start" date;--> statement-breakpoint
ALTER TABLE "guest_request_status_history" ADD COLUMN "stay_end" date;--> statement-breakpoint
ALTER TABLE "guest_requests" ADD COLUMN "stay_start" date;--> statement-breakpoint
ALTER TABLE "guest_requests" ADD COLUMN "stay_end" date;--> statement-breakpoint
ALTER TABLE "calendar_entries" ADD CONSTRAINT "calendar_entries_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_entries" ADD CONSTRAINT "calendar_entries_request_id_guest_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."guest_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_entries" ADD CONSTRAINT "calendar_entries_feed_id_calendar_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."calendar_feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_exports" ADD CONSTRAINT "calendar_exports_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_entries_property_nights_idx" ON "calendar_entries" USING gist ("property_id","nights");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_entries_request_idx" ON "calendar_entries" USING btree ("request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_entries_feed_uid_idx" ON "calendar_entries" USING btree ("feed_id","external_uid");--> statement-breakpoint
CREATE INDEX "calendar_feeds_property_idx" ON "calendar_feeds" USING btree ("property_id");--> statement-breakpoint
CREATE INDEX "calendar_feeds_due_idx" ON "calendar_feeds" USING btree ("next_sync_at");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_property_url_idx" ON "calendar_feeds" USING btree ("property_id","url");--> statement-breakpoint
-- A range of nights always has a start and an end, and at least one night.
ALTER TABLE "calendar_entries" ADD CONSTRAINT "calendar_entries_nights_bounded" CHECK (NOT isempty("nights") AND NOT lower_inf("nights") AND NOT upper_inf("nights"));--> statement-breakpoint
ALTER TABLE "calendar_entries" ADD CONSTRAINT "calendar_entries_source_shape" CHECK (
  ("source" = 'stay' AND "request_id" IS NOT NULL AND "kind" IS NULL AND "feed_id" IS NULL)
  OR ("source" = 'block' AND "kind" IS NOT NULL AND "request_id" IS NULL AND "feed_id" IS NULL)
  OR ("source" = 'external' AND "feed_id" IS NOT NULL AND "external_uid" IS NOT NULL AND "request_id" IS NULL AND "kind" IS NULL)
);--> statement-breakpoint
-- The rule that must never break: no two stays, and no stay and block, share a night of one
-- estate. Imported busy times stay outside it (they are shown as collisions instead).
ALTER TABLE "calendar_entries" ADD CONSTRAINT "calendar_entries_no_overlap" EXCLUDE USING gist ("property_id" WITH =, "nights" WITH &&) WHERE ("source" <> 'external');--> statement-breakpoint
ALTER TABLE "guest_requests" ADD CONSTRAINT "guest_requests_stay_order" CHECK ("stay_end" > "stay_start");--> statement-breakpoint
-- Property bookings already stored: their nights from the form (a same-day stay is one night).
UPDATE "guest_requests" SET
  "stay_start" = ("details"->>'startDate')::date,
  "stay_end" = GREATEST(("details"->>'endDate')::date, ("details"->>'startDate')::date + 1)
WHERE "kind" = 'property_booking'
  AND "details"->>'startDate' ~ '^\d{4}-\d{2}-\d{2}$'
  AND "details"->>'endDate' ~ '^\d{4}-\d{2}-\d{2}$';--> statement-breakpoint
-- Confirmed ones take their nights; of two already confirmed on the same nights, the earlier
-- confirmation keeps them (the other stays Confirmed, and the staff calendar shows it unplaced).
INSERT INTO "calendar_entries" ("id", "property_id", "nights", "source", "request_id")
SELECT gen_random_uuid(), r."property_id", daterange(r."stay_start", r."stay_end"), 'stay', r."id"
FROM "guest_requests" r
JOIN "properties" p ON p."id" = r."property_id"
WHERE r."status" = 'Confirmed' AND r."stay_start" IS NOT NULL
ORDER BY r."updated_at", r."id"
ON CONFLICT DO NOTHING;