-- Trigram matching for the staff inbox search (a trusted extension: PostgreSQL contrib, bundled with PGlite).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "guest_requests_email_trgm_idx" ON "guest_requests" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "guest_requests_name_trgm_idx" ON "guest_requests" USING gin (("first_name" || ' ' || "last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "guest_requests_phone_digits_trgm_idx" ON "guest_requests" USING gin (regexp_replace("phone", '[^0-9]', '', 'g') gin_trgm_ops);