CREATE TABLE "media_variants" (
	"image_key" text NOT NULL,
	"width" integer NOT NULL,
	"format" text NOT NULL,
	"etag" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_variants_image_key_width_format_pk" PRIMARY KEY("image_key","width","format")
);
--> statement-breakpoint
CREATE TABLE "properties" (
	"id" integer PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"region" text NOT NULL,
	"bedrooms" integer NOT NULL,
	"guest_capacity" integer NOT NULL,
	"members_only" boolean DEFAULT false NOT NULL,
	"owner_email" text NOT NULL,
	"amenity_keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "properties_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "property_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"property_id" integer NOT NULL,
	"position" integer NOT NULL,
	"key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"source" jsonb NOT NULL,
	"is_selected" boolean DEFAULT true NOT NULL,
	CONSTRAINT "property_images_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "property_translations" (
	"property_id" integer NOT NULL,
	"lang" text NOT NULL,
	"name" text NOT NULL,
	"location" text NOT NULL,
	"summary" text NOT NULL,
	"amenities" text[] NOT NULL,
	"activities" text[] NOT NULL,
	"historical_significance" text,
	CONSTRAINT "property_translations_property_id_lang_pk" PRIMARY KEY("property_id","lang")
);
--> statement-breakpoint
ALTER TABLE "property_images" ADD CONSTRAINT "property_images_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_translations" ADD CONSTRAINT "property_translations_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_variants_created_idx" ON "media_variants" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "property_images_position_idx" ON "property_images" USING btree ("property_id","position");