-- Each collision between a busy time imported from a calendar feed and a confirmed stay is
-- told to people once: the mail and this row are written in the sync's transaction, and the
-- key stops any later sync (on any instance) from telling the same collision again. A row is
-- also written when staff confirm a stay knowingly over an imported busy time: they know.
CREATE TABLE "calendar_import_alerts" (
	"feed_id" uuid NOT NULL,
	"external_uid" text NOT NULL,
	"request_id" uuid NOT NULL,
	"cause" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_import_alerts_pk" PRIMARY KEY("feed_id","external_uid","request_id")
);
--> statement-breakpoint
ALTER TABLE "calendar_import_alerts" ADD CONSTRAINT "calendar_import_alerts_feed_id_calendar_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."calendar_feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_import_alerts" ADD CONSTRAINT "calendar_import_alerts_request_id_guest_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."guest_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_import_alerts_request_idx" ON "calendar_import_alerts" USING btree ("request_id");
