import { rmSync } from "node:fs";
import { join } from "node:path";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import {
  domainEvents,
  guestRequestMessages,
  guestRequestNotes,
  guestRequests,
  guestRequestStatusHistory,
  guestRequestStatusLinks,
  mailOutbox,
  offers,
  ownerRequestViews,
} from "#db/schema/index.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { recordEvent } from "../events/record-event.ts";
import { ANY_OPEN_STATUSES_SQL } from "../requests/process.ts";
import { recordSecurityEvent, type SecurityClient } from "../security/security-log.ts";

/**
 * Erasing a guest's personal data from a request (docs/privacy.md). The request keeps what a
 * calendar, a count or the accounts need: its reference, kind, status and history, estate,
 * nights, party size and dates, offers and the ledger's amounts. It loses the guest's name,
 * email, phone and every text they or others wrote about them: the form's free text, the
 * conversation, staff's notes, the reasons in its history, the owner's note, the offer's note,
 * the mail sent about it (the outbox's rows and the .eml files on disk), the contact details its
 * events carried, and the status link (a link to a request with nobody in it is no use).
 */

/** What the form's `details` keep once erased: facts about the stay, none about the person. */
export const KEPT_DETAILS = [
  "bookingType",
  "checkInDate",
  "checkOutDate",
  "startDate",
  "endDate",
  "dateMode",
  "flexibleDates",
  "flexibilityDays",
  "adults",
  "children",
  "estimatedGuests",
  "numberOfGuests",
  "bedroomsRequired",
  "propertyId",
  "propertyName",
  "paymentMethod",
  "preferredRegion",
] as const;

function keptDetails(details: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    KEPT_DETAILS.filter((key) => key in details).map((key) => [key, details[key]]),
  );
}

/**
 * Erases request `requestId`'s guest data in `tx` (its row locked by the caller), and the mail
 * files written for it under `mailDirectory`. False when it was erased already or is gone.
 */
export async function eraseRequestGuestData(
  tx: Database,
  input: { requestId: string; now: Date; mailDirectory?: string },
): Promise<boolean> {
  const { requestId, now } = input;
  const [row] = await tx
    .select({ details: guestRequests.details, erasedAt: guestRequests.erasedAt })
    .from(guestRequests)
    .where(eq(guestRequests.id, requestId));
  if (!row || row.erasedAt !== null) return false;
  await tx
    .update(guestRequests)
    .set({
      firstName: "",
      lastName: "",
      email: "",
      phone: "",
      details: keptDetails(row.details),
      // Unique and never a hash of a token: the status link finds nothing.
      statusTokenHash: `erased:${requestId}`,
      erasedAt: now,
    })
    .where(eq(guestRequests.id, requestId));
  await tx.delete(guestRequestMessages).where(eq(guestRequestMessages.requestId, requestId));
  await tx.delete(guestRequestNotes).where(eq(guestRequestNotes.requestId, requestId));
  await tx.delete(guestRequestStatusLinks).where(eq(guestRequestStatusLinks.requestId, requestId));
  await tx
    .update(guestRequestStatusHistory)
    .set({ reason: null })
    .where(eq(guestRequestStatusHistory.requestId, requestId));
  await tx
    .update(ownerRequestViews)
    .set({ note: null })
    .where(eq(ownerRequestViews.requestId, requestId));
  await tx.update(offers).set({ note: null }).where(eq(offers.requestId, requestId));
  await tx
    .update(domainEvents)
    .set({ contact: null })
    .where(sql`${domainEvents.data}->>'id' = ${requestId}`);
  const mails = await tx
    .delete(mailOutbox)
    .where(eq(mailOutbox.requestId, requestId))
    .returning({ id: mailOutbox.id });
  // Last, so a failure above leaves the files with the rows that name them.
  if (input.mailDirectory)
    for (const mail of mails) rmSync(join(input.mailDirectory, `${mail.id}.eml`), { force: true });
  return true;
}

export interface RetentionConfig {
  /** Days after a request's last activity its guest data is kept (decimals allowed). */
  retentionDays: number;
  /** Where mail is written as .eml files when no relay is set. */
  mailDirectory?: string;
  batchSize?: number;
}

/**
 * Requests past retention: closed (no open status) and quiet for `retentionDays` since their
 * last activity, the latest of their last change, the stay's end and the last message.
 */
function pastRetention(cutoff: Date) {
  const lastActivity = sql`greatest(
    ${guestRequests.updatedAt},
    coalesce(${guestRequests.stayEnd}::timestamptz, ${guestRequests.updatedAt}),
    coalesce((select max(${guestRequestMessages.createdAt}) from ${guestRequestMessages} where ${guestRequestMessages.requestId} = ${guestRequests.id}), ${guestRequests.updatedAt})
  )`;
  return and(
    isNull(guestRequests.erasedAt),
    sql`${guestRequests.status} not in ${sql.raw(ANY_OPEN_STATUSES_SQL)}`,
    sql`${lastActivity} < ${cutoff}`,
  );
}

/**
 * One pass of the retention job: erases every request past retention, a batch per transaction.
 * Every instance runs it; each batch locks its requests (SKIP LOCKED: another instance takes
 * others) and a request already erased is not erased again, so each erasure happens once.
 */
export async function runGuestDataRetention(
  deps: Pick<Deps, "db" | "clock">,
  config: RetentionConfig,
): Promise<number> {
  const now = nowOf(deps);
  const cutoff = new Date(now.getTime() - config.retentionDays * 86_400_000);
  const batch = config.batchSize ?? 50;
  let erased = 0;
  for (;;) {
    const done = await withTransaction(deps.db, async (tx) => {
      const rows = await tx
        .select({ id: guestRequests.id })
        .from(guestRequests)
        .where(pastRetention(cutoff))
        .orderBy(guestRequests.updatedAt)
        .limit(batch)
        .for("update", { skipLocked: true });
      let count = 0;
      for (const { id } of rows)
        if (
          await eraseRequestGuestData(tx, {
            requestId: id,
            now,
            mailDirectory: config.mailDirectory,
          })
        )
          count += 1;
      return { seen: rows.length, count };
    });
    erased += done.count;
    if (done.seen < batch) return erased;
  }
}

/** What an erasure on request takes (or would take). */
export interface GuestErasure {
  requests: number;
  messages: number;
  mails: number;
  references: string[];
}

/**
 * Erases now the guest data of every request sent from `email` (any case), at an admin's word
 * (GDPR art. 17): the same erasure as retention's, open requests included. With `dryRun` it
 * only counts. Subscribers hear `guest.erased` with the references and no contact; the security
 * log keeps who, why and which references, never the address itself.
 */
export async function eraseGuestOnRequest(
  deps: Pick<Deps, "db" | "clock">,
  input: {
    email: string;
    reason: string;
    dryRun: boolean;
    actor: { staffUserId: string; email: string };
    client?: SecurityClient;
    mailDirectory?: string;
  },
): Promise<GuestErasure> {
  const now = nowOf(deps);
  return withTransaction(deps.db, async (tx) => {
    const rows = await tx
      .select({ id: guestRequests.id, reference: guestRequests.reference })
      .from(guestRequests)
      .where(
        and(
          sql`lower(${guestRequests.email}) = ${input.email.toLowerCase()}`,
          isNull(guestRequests.erasedAt),
        ),
      )
      .orderBy(guestRequests.createdAt)
      .for("update");
    const ids = rows.map((row) => row.id);
    const [messages, mails] =
      ids.length === 0
        ? [0, 0]
        : await Promise.all([
            countWhere(tx, guestRequestMessages, inArray(guestRequestMessages.requestId, ids)),
            countWhere(tx, mailOutbox, inArray(mailOutbox.requestId, ids)),
          ]);
    const erasure = {
      requests: rows.length,
      messages,
      mails,
      references: rows.map((row) => row.reference),
    };
    if (input.dryRun || rows.length === 0) return erasure;
    for (const { id } of rows)
      await eraseRequestGuestData(tx, { requestId: id, now, mailDirectory: input.mailDirectory });
    await recordEvent(tx, {
      type: "guest.erased",
      data: { references: erasure.references, requests: erasure.requests },
      occurredAt: now,
    });
    await recordSecurityEvent(tx, {
      type: "personal_data.erased",
      actor: { kind: "staff", ...input.actor },
      client: input.client,
      data: { reason: input.reason, requests: erasure.requests, references: erasure.references },
    });
    return erasure;
  });
}

async function countWhere(
  tx: Database,
  table: typeof guestRequestMessages | typeof mailOutbox,
  where: ReturnType<typeof inArray>,
): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(where);
  return row?.n ?? 0;
}
