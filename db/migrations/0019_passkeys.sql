CREATE TABLE "passkeys" (
	"id" text PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"staff_user_id" uuid,
	"owner_email" text,
	"public_key" bytea NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" text[] DEFAULT '{}'::text[] NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "passkeys_role_check" CHECK ("role" IN ('staff', 'owner')),
	CONSTRAINT "passkeys_subject_check" CHECK (("role" = 'staff' AND "staff_user_id" IS NOT NULL AND "owner_email" IS NULL) OR ("role" = 'owner' AND "owner_email" IS NOT NULL AND "staff_user_id" IS NULL)),
	CONSTRAINT "passkeys_counter_check" CHECK ("counter" >= 0)
);
--> statement-breakpoint
ALTER TABLE "passkeys" ADD CONSTRAINT "passkeys_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "passkeys_staff_user_idx" ON "passkeys" USING btree ("staff_user_id");--> statement-breakpoint
CREATE INDEX "passkeys_owner_email_idx" ON "passkeys" USING btree ("owner_email");--> statement-breakpoint
CREATE TABLE "webauthn_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"challenge" text NOT NULL,
	"purpose" text NOT NULL,
	"role" text NOT NULL,
	"subject" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "webauthn_challenges_purpose_check" CHECK ("purpose" IN ('register', 'authenticate')),
	CONSTRAINT "webauthn_challenges_role_check" CHECK ("role" IN ('staff', 'owner'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "webauthn_challenges_challenge_key" ON "webauthn_challenges" USING btree ("challenge");--> statement-breakpoint
CREATE INDEX "webauthn_challenges_expires_idx" ON "webauthn_challenges" USING btree ("expires_at");
