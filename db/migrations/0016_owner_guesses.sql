CREATE TABLE "owner_code_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text
);
--> statement-breakpoint
CREATE INDEX "owner_code_failures_email_at_idx" ON "owner_code_failures" USING btree ("email","at");--> statement-breakpoint
ALTER TABLE "property_claims" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
UPDATE "property_claims" AS c SET "ended_at" = now() FROM "properties" AS p WHERE p."id" = c."property_id" AND lower(p."owner_email") <> c."email" AND c."ended_at" IS NULL;--> statement-breakpoint
CREATE FUNCTION "property_owner_email_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "property_claims" SET "ended_at" = now() WHERE "property_id" = NEW."id" AND "ended_at" IS NULL;
	DELETE FROM "auth_sessions" AS s
	WHERE s."role" = 'owner'
		AND s."owner_email" = lower(OLD."owner_email")
		AND NOT EXISTS (
			SELECT 1 FROM "property_claims" AS c
			JOIN "properties" AS p ON p."id" = c."property_id"
			WHERE c."email" = s."owner_email" AND c."ended_at" IS NULL AND lower(p."owner_email") = c."email"
		);
	RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "property_owner_email_ends_claims" AFTER UPDATE OF "owner_email" ON "properties" FOR EACH ROW WHEN (lower(OLD."owner_email") IS DISTINCT FROM lower(NEW."owner_email")) EXECUTE FUNCTION "property_owner_email_changed"();
