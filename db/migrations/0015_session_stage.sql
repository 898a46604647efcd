ALTER TABLE "auth_sessions" ADD COLUMN "id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD COLUMN "stage" text DEFAULT 'complete' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "auth_sessions_id_key" ON "auth_sessions" USING btree ("id");
