-- Offers staff send for a request's stay, and the ledger of the money paid for them. One live
-- offer (sent or accepted) per request; deposit + balance = total; the ledger is append-only.
CREATE TABLE "offers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL REFERENCES "guest_requests"("id") ON DELETE cascade,
	"property_id" integer NOT NULL,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"lines" jsonb NOT NULL,
	"tax" bigint NOT NULL,
	"tax_included" boolean NOT NULL,
	"total" bigint NOT NULL,
	"deposit" bigint NOT NULL,
	"balance" bigint NOT NULL,
	"balance_due_on" date,
	"check_in" date NOT NULL,
	"check_out" date NOT NULL,
	"guests" integer NOT NULL,
	"cancellation_policy" text NOT NULL,
	"note" text,
	"expires_at" timestamp with time zone NOT NULL,
	"deposit_due_at" timestamp with time zone,
	"balance_reminded_at" timestamp with time zone,
	"guest_casl_tx" text,
	"refund_due" bigint,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	CONSTRAINT "offers_status_check" CHECK ("status" IN ('sent', 'accepted', 'declined', 'expired', 'withdrawn')),
	CONSTRAINT "offers_amounts_check" CHECK ("total" > 0 AND "deposit" >= 0 AND "balance" >= 0 AND "deposit" + "balance" = "total"),
	CONSTRAINT "offers_nights_check" CHECK ("check_out" > "check_in")
);--> statement-breakpoint
CREATE UNIQUE INDEX "offers_one_live_idx" ON "offers" USING btree ("request_id") WHERE "status" IN ('sent', 'accepted');--> statement-breakpoint
CREATE INDEX "offers_request_idx" ON "offers" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE INDEX "offers_expiry_idx" ON "offers" USING btree ("expires_at") WHERE "status" = 'sent';--> statement-breakpoint
CREATE INDEX "offers_deposit_due_idx" ON "offers" USING btree ("deposit_due_at") WHERE "status" = 'accepted';--> statement-breakpoint
CREATE TABLE "payments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL REFERENCES "guest_requests"("id"),
	"offer_id" uuid NOT NULL REFERENCES "offers"("id"),
	"kind" text NOT NULL,
	"method" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"reference" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"recorded_by" text NOT NULL,
	"provider" text,
	"provider_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payments_kind_check" CHECK ("kind" IN ('deposit', 'balance', 'refund')),
	CONSTRAINT "payments_method_check" CHECK ("method" IN ('bank_transfer', 'card', 'casl')),
	CONSTRAINT "payments_amount_check" CHECK ("amount" > 0)
);--> statement-breakpoint
CREATE INDEX "payments_request_idx" ON "payments" USING btree ("request_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_idx" ON "payments" USING btree ("provider","provider_id") WHERE "provider_id" IS NOT NULL;--> statement-breakpoint
CREATE FUNCTION "payments_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'payments is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "payments_no_update" BEFORE UPDATE ON "payments" FOR EACH ROW EXECUTE FUNCTION "payments_append_only"();--> statement-breakpoint
CREATE TRIGGER "payments_no_delete" BEFORE DELETE ON "payments" FOR EACH ROW EXECUTE FUNCTION "payments_append_only"();
