import { eq } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { guestRequests } from "#db/schema/index.ts";
import type { Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { nightsBetween } from "../calendar/nights.ts";
import { enqueueMail } from "../mail/mail-outbox.ts";
import { factsMail, type RenderedMail } from "../mail/templates.ts";
import { countryName, formatDate } from "../requests/summary.ts";
import { countryCodeOf, estateNameIn, guestsOf, ownersToTell } from "./owner-requests.ts";

/** The outbox template of the owner's mail about a new request for their estate. */
export const OWNER_REQUEST_TEMPLATE = "owner.request";

/** The dashboard's Requests tab for an estate, in the owner's language. */
export function ownerRequestsUrl(
  publicUrl: string,
  propertyId: number,
  language: Language,
): string {
  const params = new URLSearchParams({
    estate: String(propertyId),
    tab: "requests",
    lang: language,
  });
  return `${publicUrl}/admin/dashboard?${params}`;
}

export interface OwnerRequestMailFacts {
  reference: string;
  estateName: string;
  firstName: string;
  countryCode: string | null;
  stayStart: string | null;
  stayEnd: string | null;
  guests: number | null;
}

/**
 * The owner's mail about a new request for their estate, in the owner's language: the estate,
 * the dates, the party and the guest's first name and country, and the link to the dashboard
 * where the owner gives a view. No guest contact details (decision 0017): the mail may be
 * forwarded, and staff stay the guest's contact until the stay is confirmed.
 */
export function renderOwnerRequestMail(
  language: Language,
  facts: OwnerRequestMailFacts,
  dashboardUrl: string,
): RenderedMail {
  const t = (key: string, params: Record<string, unknown> = {}) => translate(language, key, params);
  const subject = t("owner.ownerRequests.mail.subject", {
    estate: facts.estateName,
    reference: facts.reference,
  });
  const rows: [string, string][] = [
    [t("owner.ownerRequests.mail.reference"), facts.reference],
    [t("owner.ownerRequests.mail.guest"), facts.firstName],
  ];
  if (facts.countryCode)
    rows.push([t("owner.ownerRequests.mail.country"), countryName(facts.countryCode, language)]);
  if (facts.stayStart && facts.stayEnd)
    rows.push([
      t("owner.ownerRequests.mail.dates"),
      t("owner.ownerRequests.datesNights", {
        start: formatDate(facts.stayStart, language),
        end: formatDate(facts.stayEnd, language),
        count: nightsBetween(facts.stayStart, facts.stayEnd),
      }),
    ]);
  if (facts.guests !== null)
    rows.push([t("owner.ownerRequests.mail.guests"), String(facts.guests)]);
  const intro = t("owner.ownerRequests.mail.intro", { estate: facts.estateName });
  const ask = t("owner.ownerRequests.mail.ask");
  const linkLabel = t("owner.ownerRequests.mail.link");
  return factsMail({
    language,
    subject,
    intro,
    rows,
    ask,
    linkLabel,
    url: dashboardUrl,
    signature: t("mail.signature"),
  });
}

/**
 * Queues, in the caller's transaction, a mail to each owner of the estate a request is now for
 * (at intake for a property booking; when staff assign a general request to an estate), so the
 * mail exists exactly when the request or its assignment commits. Answers how many were queued
 * (none when the estate has no claimed owner).
 */
export async function queueOwnerRequestMail(
  tx: Database,
  input: {
    requestId: string;
    /** The estate the event named: its owners are told only while the request is still for it. */
    propertyId: number;
    publicUrl: string;
  },
): Promise<number> {
  const [request] = await tx
    .select({
      id: guestRequests.id,
      reference: guestRequests.reference,
      propertyId: guestRequests.propertyId,
      firstName: guestRequests.firstName,
      stayStart: guestRequests.stayStart,
      stayEnd: guestRequests.stayEnd,
      details: guestRequests.details,
    })
    .from(guestRequests)
    .where(eq(guestRequests.id, input.requestId));
  if (!request || request.propertyId !== input.propertyId) return 0;
  const propertyId = request.propertyId;
  const owners = await ownersToTell(tx, propertyId);
  const mails = await Promise.all(
    owners.map(async (owner) => ({
      template: OWNER_REQUEST_TEMPLATE,
      recipient: owner.email,
      requestId: request.id,
      ...renderOwnerRequestMail(
        owner.language,
        {
          reference: request.reference,
          estateName: await estateNameIn(tx, propertyId, owner.language),
          firstName: request.firstName,
          countryCode: countryCodeOf(request.details),
          stayStart: request.stayStart,
          stayEnd: request.stayEnd,
          guests: guestsOf(request.details),
        },
        ownerRequestsUrl(input.publicUrl, propertyId, owner.language),
      ),
    })),
  );
  await enqueueMail(tx, mails);
  return mails.length;
}
