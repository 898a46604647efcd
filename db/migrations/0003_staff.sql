CREATE TABLE "auth_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"staff_user_id" uuid,
	"owner_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "guest_request_notes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"author_id" uuid,
	"author_name" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_setup_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "staff_users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"display_name" text NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"password_hash" text NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "guest_requests_kind_created_idx";--> statement-breakpoint
ALTER TABLE "guest_request_status_history" ADD COLUMN "changed_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "guest_request_status_history" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "guest_request_status_history" ADD COLUMN "reason_shared" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "guest_requests" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "guest_requests" ADD COLUMN "phone" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "guest_requests" ADD COLUMN "member_status" text;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guest_request_notes" ADD CONSTRAINT "guest_request_notes_request_id_guest_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."guest_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guest_request_notes" ADD CONSTRAINT "guest_request_notes_author_id_staff_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_sessions_staff_user_idx" ON "auth_sessions" USING btree ("staff_user_id");--> statement-breakpoint
CREATE INDEX "auth_sessions_expires_idx" ON "auth_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "guest_request_notes_request_idx" ON "guest_request_notes" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_users_email_idx" ON "staff_users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "guest_requests_kind_status_created_idx" ON "guest_requests" USING btree ("kind","status","created_at","id");--> statement-breakpoint
CREATE INDEX "guest_requests_email_idx" ON "guest_requests" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "guest_requests_property_idx" ON "guest_requests" USING btree ("property_id");--> statement-breakpoint
CREATE INDEX "mail_outbox_failed_idx" ON "mail_outbox" USING btree ("created_at") WHERE "mail_outbox"."status" = 'failed';--> statement-breakpoint
CREATE INDEX "guest_requests_kind_created_idx" ON "guest_requests" USING btree ("kind","created_at","id");--> statement-breakpoint
-- Requests stored before this migration: copy the searchable facts out of the form.
UPDATE "guest_requests" SET "phone" = coalesce("details"->>'phoneNumber', "details"->>'phone', ''), "member_status" = "details"->>'memberStatus';
