-- Past the years the law keeps accounting records (FINANCIAL_RECORDS_YEARS), a payment keeps
-- its amount, kind, method, currency and dates, and loses what may identify the payer: the
-- reference typed for a transfer and the provider's id. The ledger stays append-only otherwise:
-- that one change, once, only inside a transaction that asks for it.
ALTER TABLE "payments" ADD COLUMN "anonymised_at" timestamp with time zone;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "payments_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE'
		AND current_setting('castellum.payments_anonymise', true) = 'on'
		AND OLD.anonymised_at IS NULL AND NEW.anonymised_at IS NOT NULL
		AND NEW.reference = '' AND NEW.provider_id IS NULL
		AND NEW.id = OLD.id AND NEW.request_id = OLD.request_id AND NEW.offer_id = OLD.offer_id
		AND NEW.kind = OLD.kind AND NEW.method = OLD.method AND NEW.amount = OLD.amount
		AND NEW.currency = OLD.currency AND NEW.received_at = OLD.received_at
		AND NEW.recorded_by = OLD.recorded_by AND NEW.created_at = OLD.created_at
		AND NEW.provider IS NOT DISTINCT FROM OLD.provider THEN
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'payments is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
-- The hourly pruning of records on the guest data's clock reads only rows still holding data.
CREATE INDEX "payments_not_anonymised_idx" ON "payments" USING btree ("received_at") WHERE "anonymised_at" IS NULL;--> statement-breakpoint
CREATE INDEX "domain_events_personal_idx" ON "domain_events" USING btree ("occurred_at") WHERE "contact" IS NOT NULL OR "internal" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_done_idx" ON "webhook_deliveries" USING btree ("created_at") WHERE "status" <> 'pending';--> statement-breakpoint
CREATE INDEX "mail_outbox_unattached_idx" ON "mail_outbox" USING btree ("created_at") WHERE "request_id" IS NULL;
