import { aliasedTable, and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import {
  calendarEntries,
  calendarFeeds,
  calendarImportAlerts,
  guestRequests,
  ownerLanguages,
  properties,
} from "#db/schema/index.ts";
import { DEFAULT_LANGUAGE, isLanguage, type Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { recordEvent } from "../events/record-event.ts";
import type { QueuedMail } from "../mail/mail-outbox.ts";
import { factsMail, type RenderedMail, type StaffMailSettings } from "../mail/templates.ts";
import { estateNameIn } from "../owners/owner-requests.ts";
import { formatDate } from "../requests/summary.ts";
import { feedLabel } from "./collisions.ts";
import { fromDateRange, type Nights } from "./nights.ts";

/**
 * When a feed's sync brings a busy time onto nights a confirmed stay holds, staff (STAFF_EMAIL,
 * in STAFF_LANGUAGE) and the estate's owner (its owner email, in the owner's language) are
 * mailed, once per collision: the imported event (feed and UID) against the stay's request.
 * The sync's transaction writes a `calendar_import_alerts` row and records the internal event
 * `calendar.import_collision`, whose mail the mail job renders (`importCollisionMails`); the
 * row's key is what keeps any later sync, on any instance, from telling the same collision
 * again.
 */

/** The outbox templates of the two mails. */
export const IMPORT_COLLISION_TEMPLATES = {
  staff: "calendar.import_collision.staff",
  owner: "calendar.import_collision.owner",
} as const;

/** What the event of one collision holds for its mail (the guest's name is read when mailing). */
export interface ImportCollisionNotice {
  propertyId: number;
  requestId: string;
  feed: string;
  busy: Nights;
  stay: Nights;
}

/** One imported busy time over a confirmed stay, as the mails tell it. */
export interface ImportCollisionFacts {
  propertyId: number;
  estateName: string;
  feed: string;
  busy: Nights;
  reference: string;
  /** Staff only: the owner is never told the guest's name. */
  guestName: string | null;
  stay: Nights;
}

/** Rows an IN list holds at most (well under PostgreSQL's 65,535 parameters). */
const CHUNK = 500;

/**
 * Tells of the collisions that the busy times `uids` of the feed (just written by its sync)
 * make with confirmed stays, each once ever: the collisions already told, or accepted by staff
 * when they confirmed the stay, are left out. Runs in the sync's transaction, under the feed's
 * row lock. Answers how many collisions were told.
 */
export async function alertImportCollisions(
  tx: Database,
  input: { feedId: string; propertyId: number; uids: readonly string[] },
): Promise<number> {
  if (input.uids.length === 0) return 0;
  const stay = aliasedTable(calendarEntries, "stay");
  const found = [];
  for (let at = 0; at < input.uids.length; at += CHUNK)
    found.push(
      ...(await tx
        .select({
          externalUid: calendarEntries.externalUid,
          busy: calendarEntries.nights,
          stay: stay.nights,
          requestId: guestRequests.id,
          reference: guestRequests.reference,
          firstName: guestRequests.firstName,
          lastName: guestRequests.lastName,
          url: calendarFeeds.url,
        })
        .from(calendarEntries)
        .innerJoin(calendarFeeds, eq(calendarFeeds.id, calendarEntries.feedId))
        .innerJoin(
          stay,
          and(
            eq(stay.propertyId, calendarEntries.propertyId),
            eq(stay.source, "stay"),
            sql`${stay.nights} && ${calendarEntries.nights}`,
          ),
        )
        .innerJoin(guestRequests, eq(guestRequests.id, stay.requestId))
        .where(
          and(
            eq(calendarEntries.feedId, input.feedId),
            inArray(calendarEntries.externalUid, input.uids.slice(at, at + CHUNK)),
          ),
        )
        .orderBy(sql`lower(${calendarEntries.nights})`, guestRequests.reference)),
    );
  if (found.length === 0) return 0;

  // Only the rows this statement writes are new: a collision told before (or a sync racing
  // this one) already holds the key, and DO NOTHING leaves it out of RETURNING.
  const recorded = await tx
    .insert(calendarImportAlerts)
    .values(
      found.map((row) => ({
        feedId: input.feedId,
        externalUid: row.externalUid ?? "",
        requestId: row.requestId,
        cause: "mailed" as const,
      })),
    )
    .onConflictDoNothing()
    .returning({
      externalUid: calendarImportAlerts.externalUid,
      requestId: calendarImportAlerts.requestId,
    });
  const isNew = new Set(recorded.map((row) => `${row.externalUid}\n${row.requestId}`));
  const fresh = found.filter((row) => isNew.has(`${row.externalUid ?? ""}\n${row.requestId}`));
  if (fresh.length === 0) return 0;

  for (const row of fresh) {
    const notice: ImportCollisionNotice = {
      propertyId: input.propertyId,
      requestId: row.requestId,
      feed: feedLabel(row.url),
      busy: fromDateRange(row.busy),
      stay: fromDateRange(row.stay),
    };
    await recordEvent(tx, {
      type: "calendar.import_collision",
      data: { propertyId: input.propertyId, requestId: row.requestId },
      internal: { ...notice },
    });
  }
  return fresh.length;
}

/**
 * The mails of one collision: to staff, with the guest's name, and to the estate's owner when it
 * has an owner email, without it; each in its reader's language. None when the stay's request is
 * gone.
 */
export async function importCollisionMails(
  tx: Database,
  config: StaffMailSettings,
  notice: ImportCollisionNotice,
): Promise<QueuedMail[]> {
  const [request] = await tx
    .select({
      reference: guestRequests.reference,
      firstName: guestRequests.firstName,
      lastName: guestRequests.lastName,
    })
    .from(guestRequests)
    .where(eq(guestRequests.id, notice.requestId));
  if (!request) return [];
  const owner = await estateOwner(tx, notice.propertyId);
  const facts = {
    propertyId: notice.propertyId,
    feed: notice.feed,
    busy: notice.busy,
    reference: request.reference,
    stay: notice.stay,
  };
  const mails: QueuedMail[] = [
    {
      template: IMPORT_COLLISION_TEMPLATES.staff,
      recipient: config.staffEmail,
      requestId: notice.requestId,
      ...renderImportCollisionMail(
        config.staffLanguage,
        {
          ...facts,
          estateName: await estateNameIn(tx, notice.propertyId, config.staffLanguage),
          guestName: `${request.firstName} ${request.lastName}`.trim(),
        },
        staffCalendarUrl(config.publicUrl, notice.propertyId, facts.busy.start),
      ),
    },
  ];
  if (owner)
    mails.push({
      template: IMPORT_COLLISION_TEMPLATES.owner,
      recipient: owner.email,
      requestId: notice.requestId,
      ...renderImportCollisionMail(
        owner.language,
        {
          ...facts,
          estateName: await estateNameIn(tx, notice.propertyId, owner.language),
          guestName: null,
        },
        ownerCalendarUrl(config.publicUrl, notice.propertyId, owner.language),
      ),
    });
  return mails;
}

/** The estate's owner email and the language they chose (English when they chose none). */
async function estateOwner(
  tx: Database,
  propertyId: number,
): Promise<{ email: string; language: Language } | null> {
  const [row] = await tx
    .select({ email: properties.ownerEmail, language: ownerLanguages.language })
    .from(properties)
    .leftJoin(ownerLanguages, sql`${ownerLanguages.email} = lower(${properties.ownerEmail})`)
    .where(eq(properties.id, propertyId));
  const email = row?.email?.trim();
  if (!email) return null;
  return { email, language: isLanguage(row?.language) ? row.language : DEFAULT_LANGUAGE };
}

function staffCalendarUrl(publicUrl: string, propertyId: number, from: string): string {
  return `${publicUrl}/admin/estates/${String(propertyId)}/calendar?${new URLSearchParams({ from })}`;
}

function ownerCalendarUrl(publicUrl: string, propertyId: number, language: Language): string {
  const params = new URLSearchParams({
    estate: String(propertyId),
    tab: "calendar",
    lang: language,
  });
  return `${publicUrl}/admin/dashboard?${params}`;
}

/**
 * The mail about one imported busy time over a confirmed stay, in `language`: the estate, the
 * feed, the busy dates, the stay's reference and dates (and, for staff, the guest's name), and
 * a link to the estate's calendar. The stay stands; the mail asks people to settle it.
 */
export function renderImportCollisionMail(
  language: Language,
  facts: ImportCollisionFacts,
  calendarUrl: string,
): RenderedMail {
  const t = (key: string, params: Record<string, unknown> = {}) => translate(language, key, params);
  const dates = (nights: Nights) =>
    t("calendarCollision.dates", {
      start: formatDate(nights.start, language),
      end: formatDate(nights.end, language),
    });
  const subject = t("mail.importCollision.subject", {
    estate: facts.estateName,
    dates: dates(facts.busy),
  });
  const rows: [string, string][] = [
    [t("mail.importCollision.estate"), facts.estateName],
    [t("mail.importCollision.feed"), facts.feed],
    [t("mail.importCollision.busy"), dates(facts.busy)],
    [t("mail.importCollision.stay"), `${facts.reference}, ${dates(facts.stay)}`],
  ];
  if (facts.guestName) rows.push([t("mail.importCollision.guest"), facts.guestName]);
  const intro = t("mail.importCollision.intro", {
    estate: facts.estateName,
    feed: facts.feed,
    reference: facts.reference,
  });
  const ask = t("mail.importCollision.ask");
  const linkLabel = t("mail.importCollision.link");
  return factsMail({
    language,
    subject,
    intro,
    rows,
    ask,
    linkLabel,
    url: calendarUrl,
    signature: t("mail.signature"),
  });
}
