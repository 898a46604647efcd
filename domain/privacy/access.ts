import { and, asc, desc, inArray, isNotNull, sql } from "drizzle-orm";
import {
  domainEvents,
  guestRequestMessages,
  guestRequests,
  mailOutbox,
  ownerRequestViews,
} from "#db/schema/index.ts";
import { LANGUAGES, type Language } from "#i18n/config.ts";
import type { Deps } from "../deps.ts";
import { recordSecurityEvent, type SecurityClient } from "../security/security-log.ts";

/**
 * Everything Castellum holds about a guest's email address (GDPR art. 15): the requests they
 * sent with every field of their forms, the conversation, the mails sent about them, the views
 * estate owners gave, and the events that carried their contact details to subscribers. For an
 * admin to read and send them; every look-up is written to the security log.
 */
export interface PersonalDataReport {
  email: string;
  requests: {
    reference: string;
    kind: string;
    status: string;
    language: string;
    firstName: string;
    lastName: string;
    email: string;
    phone: string;
    stayStart: string | null;
    stayEnd: string | null;
    details: Record<string, unknown>;
    createdAt: string;
    updatedAt: string;
  }[];
  messages: { reference: string; author: string; body: string; createdAt: string }[];
  mails: {
    reference: string | null;
    template: string;
    subject: string;
    status: string;
    createdAt: string;
    sentAt: string | null;
  }[];
  ownerViews: { reference: string; agree: boolean; note: string | null; createdAt: string }[];
  events: { reference: string | null; type: string; occurredAt: string }[];
}

export async function readPersonalData(
  deps: Pick<Deps, "db">,
  input: {
    email: string;
    actor: { staffUserId: string; email: string };
    client?: SecurityClient;
    /** Read for a copy sent to the guest in this language: logged as an export, not a look-up. */
    exportLanguage?: Language;
  },
): Promise<PersonalDataReport> {
  const email = input.email.trim().toLowerCase();
  const requests = await deps.db
    .select()
    .from(guestRequests)
    .where(sql`lower(${guestRequests.email}) = ${email}`)
    .orderBy(asc(guestRequests.createdAt), asc(guestRequests.id));
  const ids = requests.map((row) => row.id);
  const referenceOf = new Map(requests.map((row) => [row.id, row.reference]));
  const [messages, mails, views, events] =
    ids.length === 0
      ? [[], [], [], []]
      : await Promise.all([
          deps.db
            .select()
            .from(guestRequestMessages)
            .where(inArray(guestRequestMessages.requestId, ids))
            .orderBy(asc(guestRequestMessages.id)),
          deps.db
            .select()
            .from(mailOutbox)
            .where(inArray(mailOutbox.requestId, ids))
            .orderBy(asc(mailOutbox.createdAt)),
          deps.db
            .select()
            .from(ownerRequestViews)
            .where(inArray(ownerRequestViews.requestId, ids))
            .orderBy(asc(ownerRequestViews.id)),
          deps.db
            .select({
              type: domainEvents.type,
              occurredAt: domainEvents.occurredAt,
              data: domainEvents.data,
            })
            .from(domainEvents)
            .where(
              and(
                isNotNull(domainEvents.contact),
                inArray(sql<string>`${domainEvents.data}->>'id'`, ids),
              ),
            )
            .orderBy(asc(domainEvents.seq)),
        ]);
  await recordSecurityEvent(deps.db, {
    type: input.exportLanguage ? "personal_data.exported" : "personal_data.viewed",
    actor: { kind: "staff", ...input.actor },
    client: input.client,
    data: {
      subject: email,
      requests: requests.length,
      ...(input.exportLanguage ? { language: input.exportLanguage } : {}),
    },
  });
  return {
    email,
    requests: requests.map((row) => ({
      reference: row.reference,
      kind: row.kind,
      status: row.status,
      language: row.language,
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      phone: row.phone,
      stayStart: row.stayStart,
      stayEnd: row.stayEnd,
      details: row.details,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    })),
    messages: messages.map((row) => ({
      reference: referenceOf.get(row.requestId) ?? "",
      author: row.author,
      body: row.body,
      createdAt: row.createdAt.toISOString(),
    })),
    mails: mails.map((row) => ({
      reference: row.requestId ? (referenceOf.get(row.requestId) ?? null) : null,
      template: row.template,
      subject: row.subject,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt ? row.sentAt.toISOString() : null,
    })),
    ownerViews: views.map((row) => ({
      reference: referenceOf.get(row.requestId) ?? "",
      agree: row.agree,
      note: row.note,
      createdAt: row.createdAt.toISOString(),
    })),
    events: events.map((row) => ({
      reference: referenceOf.get(String((row.data as { id?: unknown }).id)) ?? null,
      type: row.type,
      occurredAt: row.occurredAt.toISOString(),
    })),
  };
}

/** The language of the latest request sent from `email`, or null when there is none. */
export async function latestRequestLanguage(
  deps: Pick<Deps, "db">,
  email: string,
): Promise<Language | null> {
  const [row] = await deps.db
    .select({ language: guestRequests.language })
    .from(guestRequests)
    .where(sql`lower(${guestRequests.email}) = ${email.trim().toLowerCase()}`)
    .orderBy(desc(guestRequests.createdAt))
    .limit(1);
  return row && (LANGUAGES as readonly string[]).includes(row.language)
    ? (row.language as Language)
    : null;
}
