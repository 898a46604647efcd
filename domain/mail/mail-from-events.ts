import { and, eq, inArray, isNull } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import { domainEvents, guestRequestMessages, guestRequests } from "#db/schema/index.ts";
import { isLanguage, type Language } from "#i18n/config.ts";
import {
  type ImportCollisionNotice,
  importCollisionMails,
} from "../calendar/import-collision-alerts.ts";
import { nowOf } from "../clock.ts";
import { renderStaffMessage } from "../conversation/message-mail.ts";
import { readStatusLink } from "../conversation/status-link.ts";
import type { Deps } from "../deps.ts";
import type { EventType } from "../events/event-types.ts";
import { type OfferMailFacts, type OfferMailKind, renderOfferMail } from "../offers/offer-mail.ts";
import { queueOwnerRequestMail } from "../owners/owner-request-mail.ts";
import { staffDetailsUrl } from "../staff/collections.ts";
import { enqueueMail, type QueuedMail } from "./mail-outbox.ts";
import {
  renderExpiry,
  renderGuestConfirmation,
  renderStaffNotification,
  renderStaffReminder,
  renderStatusChange,
  type StaffMailSettings,
  withPrivacyNotice,
} from "./templates.ts";
import { isUuid } from "../uuid.ts";

/**
 * Mail as a subscriber of the recorded events: writers record what happened (domain_events, in
 * their transaction) and never queue a request's mail themselves. Each run takes the events not
 * yet mailed, oldest first, renders the mail they call for into the outbox and stamps them
 * `mailed_at`, all in one transaction: an event's mail is queued exactly once, whichever
 * instance takes it and wherever one is killed. Sending is then the outbox's concern
 * (mail-outbox.ts).
 */

/** Where staff mail goes and in which language, and the site's address for links. */
export type EventMailConfig = StaffMailSettings;

/** What the internal part of a request's events holds for mail (see apply-transition.ts). */
export interface StatusChangeNotice {
  /** Staff chose to tell the guest. */
  notifyGuest?: boolean;
  /** The reason as the guest may read it; absent when staff kept it to themselves. */
  sharedReason?: string | null;
}

const OFFER_MAIL_KINDS: Record<string, OfferMailKind> = {
  "offer.sent": "sent",
  "offer.accepted": "accepted",
  "offer.declined": "declined",
  "offer.expired": "expired",
  "booking.cancelled": "cancelled",
  "payment.recorded": "payment",
  "payment.balance_reminder_due": "balanceReminder",
};
/** Which of the offer's steps the guest hears of, and which staff do. */
const GUEST_OFFER_MAIL = new Set<OfferMailKind>([
  "sent",
  "expired",
  "cancelled",
  "payment",
  "balanceReminder",
]);
const STAFF_OFFER_MAIL = new Set<OfferMailKind>(["accepted", "declined", "expired", "cancelled"]);

/** Events taken per transaction. */
export const EVENT_BATCH = 100;

type Event = typeof domainEvents.$inferSelect;
type RequestRow = typeof guestRequests.$inferSelect;

const languageOf = (row: { language: string }): Language =>
  isLanguage(row.language) ? row.language : "en";

const mailRequestOf = (row: RequestRow) => ({
  kind: row.kind,
  reference: row.reference,
  language: languageOf(row),
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  details: row.details,
});

const statusLinkOf = (tx: Database, row: RequestRow, config: EventMailConfig) =>
  readStatusLink(
    { db: tx },
    { requestId: row.id, publicUrl: config.publicUrl, language: row.language },
  );

/**
 * The mail one event calls for, rendered from the request as it stands (an erased or deleted
 * request gets none) and the event's own facts (the status it reached, the reason shown).
 * Owner mail is queued directly, as owner-request-mail.ts renders it per owner.
 */
async function mailOf(
  tx: Database,
  event: Event,
  request: RequestRow,
  config: EventMailConfig,
): Promise<QueuedMail[]> {
  const data = event.data as { status?: string; propertyId?: number };
  // The estate as the event recorded it: a request assigned to an estate after it was sent is
  // the owners' news once, by its `request.estate_assigned`, whenever this runs.
  const ownersOf = async () => {
    if (typeof data.propertyId === "number")
      await queueOwnerRequestMail(tx, {
        requestId: request.id,
        propertyId: data.propertyId,
        publicUrl: config.publicUrl,
      });
  };
  const internal = (event.internal ?? {}) as StatusChangeNotice & {
    dueAt?: string;
    messageId?: number;
  };
  const staffUrl = staffDetailsUrl(config.publicUrl, request.kind, request.id);
  const base = { requestId: request.id };
  switch (event.type as EventType) {
    case "request.created": {
      const statusUrl = await statusLinkOf(tx, request, config);
      await ownersOf();
      return [
        // A request from before status links were kept has no confirmation left to send.
        ...(statusUrl
          ? [
              {
                ...base,
                template: `${request.kind}.confirmation`,
                recipient: request.email,
                ...renderGuestConfirmation(mailRequestOf(request), statusUrl, config.publicUrl),
              },
            ]
          : []),
        {
          ...base,
          template: `${request.kind}.staff`,
          recipient: config.staffEmail,
          ...renderStaffNotification(mailRequestOf(request), config.staffLanguage, staffUrl),
        },
      ];
    }
    case "request.status_changed": {
      if (!internal.notifyGuest || !data.status) return [];
      return [
        {
          ...base,
          template: `${request.kind}.status`,
          recipient: request.email,
          ...renderStatusChange(
            mailRequestOf(request),
            { status: data.status, reason: internal.sharedReason ?? null },
            await statusLinkOf(tx, request, config),
            config.publicUrl,
          ),
        },
      ];
    }
    case "request.expired":
      return [
        {
          ...base,
          template: `${request.kind}.expired`,
          recipient: request.email,
          ...renderExpiry(mailRequestOf(request), config.publicUrl),
        },
      ];
    case "request.reminder_due":
      if (!internal.dueAt) return [];
      return [
        {
          ...base,
          template: `${request.kind}.reminder`,
          recipient: config.staffEmail,
          ...renderStaffReminder(
            { ...mailRequestOf(request), dueAt: new Date(internal.dueAt) },
            config.staffLanguage,
            staffUrl,
          ),
        },
      ];
    case "request.estate_assigned":
      await ownersOf();
      return [];
    case "request.message_sent": {
      if (internal.messageId === undefined) return [];
      const [message] = await tx
        .select({ body: guestRequestMessages.body, authorName: guestRequestMessages.authorName })
        .from(guestRequestMessages)
        .where(
          and(
            eq(guestRequestMessages.id, internal.messageId),
            eq(guestRequestMessages.requestId, request.id),
          ),
        );
      if (!message) return [];
      return [
        {
          ...base,
          template: `${request.kind}.message`,
          recipient: request.email,
          ...withPrivacyNotice(
            renderStaffMessage(
              mailRequestOf(request),
              { body: message.body, authorName: message.authorName ?? "" },
              await statusLinkOf(tx, request, config),
            ),
            languageOf(request),
            config.publicUrl,
          ),
        },
      ];
    }
    case "offer.sent":
    case "offer.accepted":
    case "offer.declined":
    case "offer.expired":
    case "booking.cancelled":
    case "payment.recorded":
    case "payment.balance_reminder_due": {
      const mailKind = OFFER_MAIL_KINDS[event.type];
      if (!mailKind) return [];
      const facts: OfferMailFacts = {
        ...(event.data as Record<string, unknown>),
        ...(event.internal as Record<string, unknown> | null),
        reference: request.reference,
        currency: String(
          (event.data as { currency?: unknown }).currency ??
            (event.internal as { currency?: unknown } | null)?.currency ??
            "",
        ),
        paymentKind: (event.data as { kind?: string }).kind,
      };
      const mails: QueuedMail[] = [];
      if (GUEST_OFFER_MAIL.has(mailKind)) {
        const statusUrl = (await statusLinkOf(tx, request, config)) ?? config.publicUrl;
        const paymentId = (event.data as { paymentId?: unknown }).paymentId;
        mails.push({
          ...base,
          template: `offer.${mailKind}`,
          recipient: request.email,
          ...withPrivacyNotice(
            renderOfferMail(languageOf(request), mailKind, "guest", facts, statusUrl),
            languageOf(request),
            config.publicUrl,
          ),
          // The payment's mail carries its receipt as a PDF, drawn when the mail is sent.
          ...(mailKind === "payment" && typeof paymentId === "number"
            ? { attachment: { kind: "payment_receipt" as const, paymentId } }
            : {}),
        });
      }
      if (STAFF_OFFER_MAIL.has(mailKind))
        mails.push({
          ...base,
          template: `offer.${mailKind}.staff`,
          recipient: config.staffEmail,
          ...renderOfferMail(config.staffLanguage, mailKind, "staff", facts, staffUrl),
        });
      return mails;
    }
    default:
      // Events that call for no mail (a confirmed stay, a guest's message, a block).
      return [];
  }
}

/**
 * Takes up to `batch` events not yet mailed (locked with SKIP LOCKED, so instances take
 * different ones), queues their mail and stamps them, in one transaction. Answers how many
 * events it took: a full batch means more may wait.
 */
export async function mailFromEvents(
  deps: Pick<Deps, "db" | "clock">,
  config: EventMailConfig,
  batch = EVENT_BATCH,
): Promise<number> {
  return withTransaction(deps.db, async (tx) => {
    const events = await tx
      .select()
      .from(domainEvents)
      .where(isNull(domainEvents.mailedAt))
      .orderBy(domainEvents.seq)
      .limit(batch)
      .for("update", { skipLocked: true });
    if (events.length === 0) return 0;
    const requestIds = [
      ...new Set(events.map((event) => (event.data as { id?: unknown }).id).filter(isRequestId)),
    ];
    const requests =
      requestIds.length === 0
        ? []
        : await tx.select().from(guestRequests).where(inArray(guestRequests.id, requestIds));
    const byId = new Map(requests.map((row) => [row.id, row]));
    const mails: QueuedMail[] = [];
    for (const event of events) {
      if (event.type === "calendar.import_collision") {
        mails.push(
          ...(await importCollisionMails(
            tx,
            config,
            event.internal as unknown as ImportCollisionNotice,
          )),
        );
        continue;
      }
      const request = requestOf(event, byId);
      if (!request) continue;
      const queued = await mailOf(tx, event, request, config);
      // An erased request has no guest left to write to: staff still hear of it.
      mails.push(
        ...(request.erasedAt ? queued.filter((mail) => mail.recipient !== request.email) : queued),
      );
    }
    await enqueueMail(tx, mails);
    await tx
      .update(domainEvents)
      .set({ mailedAt: nowOf(deps) })
      .where(
        inArray(
          domainEvents.id,
          events.map((event) => event.id),
        ),
      );
    return events.length;
  });
}

const REQUEST_EVENT = /^(request|offer|payment|booking)\./;

function isRequestId(value: unknown): value is string {
  return typeof value === "string" && isUuid(value);
}

function requestOf(event: Event, byId: Map<string, RequestRow>): RequestRow | undefined {
  if (!REQUEST_EVENT.test(event.type)) return undefined;
  const id = (event.data as { id?: unknown }).id;
  return isRequestId(id) ? byId.get(id) : undefined;
}
