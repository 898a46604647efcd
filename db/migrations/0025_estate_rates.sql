-- Every version of an estate's rates (currency, nightly price, seasons, fees, tax, deposit,
-- balance terms, cancellation policy), kept so staff can put an earlier one back. The latest
-- revision per estate is its rates now; the unique key numbers revisions once per estate.
CREATE TABLE "estate_rate_revisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"property_id" integer NOT NULL,
	"revision" integer NOT NULL,
	"rates" jsonb NOT NULL,
	"actor_role" text NOT NULL,
	"actor_email" text,
	"revert_of" integer,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "estate_rate_revisions_property_revision_key" UNIQUE("property_id","revision"),
	CONSTRAINT "estate_rate_revisions_actor_role_check" CHECK ("actor_role" IN ('staff', 'owner', 'seed')),
	CONSTRAINT "estate_rate_revisions_revision_check" CHECK ("revision" >= 1)
);--> statement-breakpoint
ALTER TABLE "estate_rate_revisions" ADD CONSTRAINT "estate_rate_revisions_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "estate_rate_revisions_created_idx" ON "estate_rate_revisions" USING btree ("property_id","created_at");
