CREATE TABLE "media_originals" (
	"sha256" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "owner_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"language" text DEFAULT 'en' NOT NULL,
	"proven_at" timestamp with time zone,
	"proof_hash" text,
	"proof_expires_at" timestamp with time zone,
	"claimed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "property_claims" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"property_id" integer NOT NULL,
	"email" text NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "property_field_edits" (
	"property_id" integer NOT NULL,
	"field" text NOT NULL,
	"lang" text NOT NULL,
	"edited_by_role" text NOT NULL,
	"edited_by" text NOT NULL,
	"edited_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "property_field_edits_property_id_field_lang_pk" PRIMARY KEY("property_id","field","lang")
);
--> statement-breakpoint
CREATE TABLE "property_revisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"property_id" integer NOT NULL,
	"field" text NOT NULL,
	"lang" text NOT NULL,
	"old_value" jsonb,
	"new_value" jsonb,
	"actor_role" text NOT NULL,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reverted_at" timestamp with time zone,
	"reverted_by" text,
	"revert_of" bigint
);
--> statement-breakpoint
CREATE TABLE "property_stale_translations" (
	"property_id" integer NOT NULL,
	"field" text NOT NULL,
	"lang" text NOT NULL,
	"source_lang" text NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "property_stale_translations_property_id_field_lang_pk" PRIMARY KEY("property_id","field","lang")
);
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "website_url" text;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "starting_price" jsonb;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "price_range" jsonb;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "postal_code" text;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "website_info" jsonb;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "scraped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "property_images" ADD COLUMN "selected_rank" integer;--> statement-breakpoint
ALTER TABLE "property_images" ADD COLUMN "uploaded_by" text;--> statement-breakpoint
ALTER TABLE "property_images" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "property_translations" ADD COLUMN "services" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "property_translations" ADD COLUMN "accommodation_description" text;--> statement-breakpoint
ALTER TABLE "property_claims" ADD CONSTRAINT "property_claims_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_field_edits" ADD CONSTRAINT "property_field_edits_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_revisions" ADD CONSTRAINT "property_revisions_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_stale_translations" ADD CONSTRAINT "property_stale_translations_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "owner_codes_email_idx" ON "owner_codes" USING btree ("email");--> statement-breakpoint
CREATE INDEX "owner_codes_proof_idx" ON "owner_codes" USING btree ("proof_hash");--> statement-breakpoint
CREATE INDEX "property_claims_email_idx" ON "property_claims" USING btree ("email");--> statement-breakpoint
CREATE INDEX "property_claims_property_idx" ON "property_claims" USING btree ("property_id");--> statement-breakpoint
CREATE INDEX "property_revisions_property_idx" ON "property_revisions" USING btree ("property_id","created_at");--> statement-breakpoint
CREATE INDEX "property_images_selected_idx" ON "property_images" USING btree ("property_id","selected_rank");--> statement-breakpoint
UPDATE "property_images" SET "selected_rank" = "position" WHERE "is_selected";
