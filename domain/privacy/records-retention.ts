import { rmSync } from "node:fs";
import { join } from "node:path";
import { and, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { withTransaction } from "#db/client.ts";
import { domainEvents, mailOutbox, offers, payments, webhookDeliveries } from "#db/schema/index.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";

/**
 * The records around requests that hold personal data of their own, pruned on the guest data's
 * clock (docs/privacy.md): mail not about a request (owners' codes, staff invitations and reset
 * links, mail whose request was deleted) once delivered or given up, the contact copied into
 * events and what the mail job kept beside it, and webhook deliveries' logs. And the payments
 * past the years the law keeps accounting records, which lose what may identify the payer.
 * Each step is a delete or an update of rows still holding data: two instances running it at
 * once do the work once between them.
 */
export interface RecordsRetentionConfig {
  /** Days a guest's data is kept (GUEST_DATA_RETENTION_DAYS): the same clock for these records. */
  retentionDays: number;
  /** Years a payment keeps its identifiers (FINANCIAL_RECORDS_YEARS). */
  financialRecordsYears: number;
  /** Where mail is written as .eml files when no relay is set. */
  mailDirectory?: string;
}

export interface RecordsPruned {
  mails: number;
  events: number;
  deliveries: number;
  payments: number;
}

const DAY_MS = 86_400_000;

export async function pruneRecords(
  deps: Pick<Deps, "db" | "clock">,
  config: RecordsRetentionConfig,
): Promise<RecordsPruned> {
  const now = nowOf(deps);
  const cutoff = new Date(now.getTime() - config.retentionDays * DAY_MS);
  const financialCutoff = new Date(now.getTime() - config.financialRecordsYears * 365.25 * DAY_MS);

  // Mail about a request goes with the request's guest data; the rest once it is done with.
  const mails = await deps.db
    .delete(mailOutbox)
    .where(
      and(
        isNull(mailOutbox.requestId),
        inArray(mailOutbox.status, ["sent", "discarded"]),
        lt(mailOutbox.createdAt, cutoff),
      ),
    )
    .returning({ id: mailOutbox.id });
  if (config.mailDirectory)
    for (const mail of mails) rmSync(join(config.mailDirectory, `${mail.id}.eml`), { force: true });

  // An event keeps what happened; the contact it carried and the text its mail needed go, once
  // no delivery of it is still to be made.
  const events = await deps.db
    .update(domainEvents)
    .set({ contact: null, internal: null })
    .where(
      and(
        lt(domainEvents.occurredAt, cutoff),
        isNotNull(domainEvents.mailedAt),
        sql`(${domainEvents.contact} is not null or ${domainEvents.internal} is not null)`,
        sql`not exists (select 1 from ${webhookDeliveries} where ${webhookDeliveries.eventId} = ${domainEvents.id} and ${webhookDeliveries.status} = 'pending')`,
      ),
    )
    .returning({ id: domainEvents.id });

  const deliveries = await deps.db
    .delete(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.status, ["delivered", "failed"]),
        lt(webhookDeliveries.createdAt, cutoff),
      ),
    )
    .returning({ id: webhookDeliveries.id });

  // The ledger refuses every change but this one, and only when the transaction asks for it.
  const anonymised = await withTransaction(deps.db, async (tx) => {
    await tx.execute(sql`select set_config('castellum.payments_anonymise', 'on', true)`);
    return tx
      .update(payments)
      .set({ reference: "", providerId: null, anonymisedAt: now })
      .where(and(isNull(payments.anonymisedAt), lt(payments.receivedAt, financialCutoff)))
      .returning({ id: payments.id });
  });

  // The $CASL transaction a guest named for an offer leads to their wallet: it goes with the
  // payments' identifiers.
  await deps.db
    .update(offers)
    .set({ guestCaslTx: null })
    .where(and(isNotNull(offers.guestCaslTx), lt(offers.createdAt, financialCutoff)));

  return {
    mails: mails.length,
    events: events.length,
    deliveries: deliveries.length,
    payments: anonymised.length,
  };
}
