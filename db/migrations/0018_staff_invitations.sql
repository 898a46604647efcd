CREATE TABLE "staff_account_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"email" text NOT NULL,
	"staff_user_id" uuid,
	"is_admin" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "staff_account_links_kind_check" CHECK ("kind" in ('invitation', 'password_reset'))
);--> statement-breakpoint
ALTER TABLE "staff_account_links" ADD CONSTRAINT "staff_account_links_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_account_links" ADD CONSTRAINT "staff_account_links_created_by_staff_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_account_links_email_idx" ON "staff_account_links" USING btree (lower("email"));--> statement-breakpoint
CREATE FUNCTION "staff_users_keep_an_admin"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An enabled admin stops being one (demoted or disabled). Every such change waits for the
  -- others (a transaction-scoped lock), then counts the enabled admins left with a fresh
  -- snapshot: two concurrent demotions of the last two admins cannot both pass.
  IF OLD.is_admin AND NOT OLD.disabled AND NOT (NEW.is_admin AND NOT NEW.disabled) THEN
    PERFORM pg_advisory_xact_lock(hashtext('staff_users_keep_an_admin'));
    IF NOT EXISTS (
      SELECT 1 FROM "staff_users" WHERE "is_admin" AND NOT "disabled" AND "id" <> NEW.id
    ) THEN
      RAISE EXCEPTION 'the last enabled admin cannot be disabled or demoted'
        USING ERRCODE = 'CL001';
    END IF;
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "staff_users_keep_an_admin" AFTER UPDATE OF "is_admin", "disabled" ON "staff_users" FOR EACH ROW EXECUTE FUNCTION "staff_users_keep_an_admin"();
