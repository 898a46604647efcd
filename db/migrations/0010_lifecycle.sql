-- Requests answered on time: a due time per request, when staff are reminded, and per-estate
-- response hours. Written by hand (the integrator regenerates the snapshot).
ALTER TABLE "guest_requests" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "guest_requests" ADD COLUMN "remind_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "guest_requests" ADD COLUMN "reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "guest_request_status_history" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "response_hours" double precision;--> statement-breakpoint
-- Requests already open when this runs get the default window (48 hours) from now, not from
-- their arrival: an old request must not expire the moment the release starts. Membership
-- applications get none (they expire only when MEMBERSHIP_RESPONSE_HOURS is set, from intake).
UPDATE "guest_requests"
   SET "due_at" = now() + interval '48 hours', "remind_at" = now() + interval '36 hours'
 WHERE "kind" IN ('booking_request', 'property_booking')
   AND "status" IN ('New', 'Contacted', 'In progress');--> statement-breakpoint
CREATE INDEX "guest_requests_open_due_idx" ON "guest_requests" USING btree ("due_at") WHERE "guest_requests"."status" IN ('New', 'Contacted', 'In progress', 'In review') AND "guest_requests"."due_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "guest_requests_remind_idx" ON "guest_requests" USING btree ("remind_at") WHERE "guest_requests"."reminded_at" IS NULL AND "guest_requests"."remind_at" IS NOT NULL;
