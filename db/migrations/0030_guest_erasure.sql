-- When a guest's personal data was erased from a request, by the retention job or on request:
-- the request keeps its reference, kind, dates, estate, status history and amounts. The index
-- serves the retention job's search for requests not yet erased.
ALTER TABLE "guest_requests" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "guest_requests_not_erased_idx" ON "guest_requests" USING btree ("updated_at") WHERE "erased_at" IS NULL;
