CREATE TABLE "guest_request_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"author" text NOT NULL,
	"staff_user_id" uuid,
	"author_name" text,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "guest_request_status_links" (
	"request_id" uuid PRIMARY KEY NOT NULL,
	"sealed_token" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "guest_request_messages" ADD CONSTRAINT "guest_request_messages_request_id_guest_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."guest_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guest_request_messages" ADD CONSTRAINT "guest_request_messages_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guest_request_status_links" ADD CONSTRAINT "guest_request_status_links_request_id_guest_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."guest_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "guest_request_messages_request_idx" ON "guest_request_messages" USING btree ("request_id","id");--> statement-breakpoint
CREATE INDEX "guest_request_messages_unread_idx" ON "guest_request_messages" USING btree ("request_id") WHERE "guest_request_messages"."author" = 'guest' and "guest_request_messages"."read_at" is null;
