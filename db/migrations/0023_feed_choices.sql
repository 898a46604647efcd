-- Per imported calendar feed: whether its timed (not all-day) events close nights (as they
-- always did, by default), whether the estate's export passes its busy times on (off by
-- default), and what its last read found: the nights its events close from that day on (and
-- how many of them timed events close), and the events it could not read (at most 20 listed,
-- with their count), so a partly read feed says what it left out.
ALTER TABLE "calendar_feeds" ADD COLUMN "timed_events_close" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD COLUMN "pass_on" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD COLUMN "nights_closed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD COLUMN "timed_nights_closed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD COLUMN "skipped_events" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD COLUMN "skipped_count" integer DEFAULT 0 NOT NULL;
