-- What a mail carries besides its text, named rather than stored: a payment's receipt is drawn
-- when the mail is sent, from the append-only ledger, so the outbox holds no PDF bytes.
ALTER TABLE "mail_outbox" ADD COLUMN "attachment" jsonb;
