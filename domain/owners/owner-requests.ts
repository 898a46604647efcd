import { moneyOfRequests, type OfferMoney } from "../offers/ledger.ts";
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import {
  calendarEntries,
  guestRequests,
  ownerLanguages,
  ownerRequestViews,
  properties,
  propertyClaims,
  propertyTranslations,
} from "#db/schema/index.ts";
import { DEFAULT_LANGUAGE, isLanguage, type Language } from "#i18n/config.ts";
import { findCollisions } from "../calendar/collisions.ts";
import type { Deps } from "../deps.ts";
import type { RequestStatus } from "../requests/options.ts";
import { countryName } from "../requests/summary.ts";
import { listOwnerEstates, normaliseEmail } from "./estates.ts";
import {
  COLLECTION_OF_KIND,
  type NightsState,
  OWNER_REQUEST_COLLECTIONS,
  OWNER_REQUESTS_LIMIT,
  type OwnerRequestCollection,
  PENDING_STATUSES,
} from "./owner-requests.schema.ts";
import type { EstateActor } from "./owner-property.ts";
import { isUuid } from "../uuid.ts";

/**
 * The owner in the loop (decision 0017): the requests for an owner's estate
 * as the owner sees them, the view (agree or decline, with a note) the owner gives on a pending
 * one, and what staff read of those views. What an owner sees of a guest is decided once, here:
 * before a stay is confirmed the first name, country, party size and dates; once it is
 * confirmed the surname too. Never the email, phone or the guest's free text.
 */

export interface OwnerView {
  agree: boolean;
  note: string | null;
  givenBy: "owner" | "staff";
  /** The email of whoever gave it: the owner, or the admin who recorded it for them. */
  givenByEmail: string;
  givenAt: string;
}

export interface OwnerRequest {
  collection: OwnerRequestCollection;
  id: string;
  reference: string;
  status: RequestStatus;
  receivedAt: string;
  propertyId: number;
  stayStart: string | null;
  stayEnd: string | null;
  guests: number | null;
  firstName: string;
  /** Only once the stay is confirmed (decision 0017). */
  lastName: string | null;
  countryCode: string | null;
  country: string | null;
  nights: NightsState;
  /** Whether the owner may give (or change) a view: the request is still pending. */
  canGiveView: boolean;
  /** The latest view; every earlier one is kept for staff. */
  view: OwnerView | null;
  /** The offer's total and what was paid on it, once staff sent one. */
  money: OfferMoney | null;
}

/** The party size the guest gave, whichever form it came from. */
export function guestsOf(details: Record<string, unknown>): number | null {
  const number = (value: unknown) =>
    typeof value === "number" && Number.isInteger(value) ? value : null;
  const direct = number(details.numberOfGuests) ?? number(details.estimatedGuests);
  if (direct !== null) return direct;
  const adults = number(details.adults);
  return adults === null ? null : adults + (number(details.children) ?? 0);
}

/** The guest's country of residence (ISO code), when the form asked for it. */
export function countryCodeOf(details: Record<string, unknown>): string | null {
  const code = details.countryOfResidence;
  return typeof code === "string" && /^[A-Z]{2}$/.test(code) ? code : null;
}

function toView(row: typeof ownerRequestViews.$inferSelect): OwnerView {
  return {
    agree: row.agree,
    note: row.note,
    givenBy: row.actorRole,
    givenByEmail: row.actorEmail,
    givenAt: row.createdAt.toISOString(),
  };
}

/** The latest owner view of each request in `requestIds` (requests without one are absent). */
export async function latestOwnerViews(
  db: Database,
  requestIds: readonly string[],
): Promise<Map<string, OwnerView>> {
  if (requestIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([ownerRequestViews.requestId])
    .from(ownerRequestViews)
    .where(inArray(ownerRequestViews.requestId, [...requestIds]))
    .orderBy(
      ownerRequestViews.requestId,
      desc(ownerRequestViews.createdAt),
      desc(ownerRequestViews.id),
    );
  return new Map(rows.map((row) => [row.requestId, toView(row)]));
}

/** Every owner view of a request, oldest first (for the history staff read). */
export async function listOwnerViews(db: Database, requestId: string): Promise<OwnerView[]> {
  const rows = await db
    .select()
    .from(ownerRequestViews)
    .where(eq(ownerRequestViews.requestId, requestId))
    .orderBy(asc(ownerRequestViews.createdAt), asc(ownerRequestViews.id));
  return rows.map(toView);
}

/**
 * The requests for an estate that the actor may open (`estateAccess` has checked the estate):
 * its property bookings and the general requests staff assigned to it, newest first, with
 * what an owner sees of each guest and whether the nights are free.
 */
export async function listOwnerRequests(
  deps: Pick<Deps, "db">,
  input: { propertyId: number; language: Language },
): Promise<OwnerRequest[]> {
  const { db } = deps;
  const rows = await db
    .select({
      id: guestRequests.id,
      kind: guestRequests.kind,
      reference: guestRequests.reference,
      status: guestRequests.status,
      createdAt: guestRequests.createdAt,
      propertyId: guestRequests.propertyId,
      stayStart: guestRequests.stayStart,
      stayEnd: guestRequests.stayEnd,
      firstName: guestRequests.firstName,
      lastName: guestRequests.lastName,
      details: guestRequests.details,
      placed: calendarEntries.id,
    })
    .from(guestRequests)
    .leftJoin(calendarEntries, eq(calendarEntries.requestId, guestRequests.id))
    .where(
      and(
        eq(guestRequests.propertyId, input.propertyId),
        inArray(guestRequests.kind, ["property_booking", "booking_request"]),
      ),
    )
    .orderBy(desc(guestRequests.createdAt), desc(guestRequests.id))
    .limit(OWNER_REQUESTS_LIMIT);
  const [views, money] = await Promise.all([
    latestOwnerViews(
      db,
      rows.map((row) => row.id),
    ),
    moneyOfRequests(
      db,
      rows.map((row) => row.id),
    ),
  ]);
  return Promise.all(
    rows.map(async (row): Promise<OwnerRequest> => {
      const status = row.status as RequestStatus;
      const pending = PENDING_STATUSES.includes(status);
      let nights: NightsState = null;
      if (row.placed) nights = "held";
      else if (pending && row.stayStart && row.stayEnd) {
        const taken = await findCollisions(
          db,
          input.propertyId,
          { start: row.stayStart, end: row.stayEnd },
          { ignoreRequestId: row.id },
        );
        nights = taken.length > 0 ? "taken" : "free";
      }
      const countryCode = countryCodeOf(row.details);
      return {
        collection: COLLECTION_OF_KIND[row.kind]!,
        id: row.id,
        reference: row.reference,
        status,
        receivedAt: row.createdAt.toISOString(),
        propertyId: input.propertyId,
        stayStart: row.stayStart,
        stayEnd: row.stayEnd,
        guests: guestsOf(row.details),
        firstName: row.firstName,
        lastName: status === "Confirmed" ? row.lastName : null,
        countryCode,
        country: countryCode ? countryName(countryCode, input.language) : null,
        nights,
        canGiveView: pending,
        view: views.get(row.id) ?? null,
        money: money.get(row.id) ?? null,
      };
    }),
  );
}

export type GiveViewResult =
  | { outcome: "recorded"; view: OwnerView }
  | { outcome: "not_found" }
  | { outcome: "closed"; status: RequestStatus };

/**
 * Records an owner's view of a pending request for one of their estates. A request that is not
 * for an estate the actor may open is `not_found`, whether it exists or not (an owner learns
 * nothing of another estate's requests); one staff already decided is `closed`. Each view is
 * kept; the latest counts.
 */
export async function giveOwnerView(
  deps: Pick<Deps, "db" | "log">,
  input: {
    actor: EstateActor;
    collection: OwnerRequestCollection;
    id: string;
    agree: boolean;
    note?: string;
  },
): Promise<GiveViewResult> {
  const { actor } = input;
  if (!isUuid(input.id)) return { outcome: "not_found" };
  const [request] = await deps.db
    .select({
      id: guestRequests.id,
      status: guestRequests.status,
      propertyId: guestRequests.propertyId,
    })
    .from(guestRequests)
    .where(
      and(
        eq(guestRequests.id, input.id),
        eq(guestRequests.kind, OWNER_REQUEST_COLLECTIONS[input.collection]),
      ),
    );
  if (!request || request.propertyId === null) return { outcome: "not_found" };
  if (actor.role === "owner") {
    const mine = await listOwnerEstates(deps, { email: actor.email, language: DEFAULT_LANGUAGE });
    if (!mine.some((estate) => estate.id === request.propertyId)) return { outcome: "not_found" };
  }
  const status = request.status as RequestStatus;
  if (!PENDING_STATUSES.includes(status)) return { outcome: "closed", status };
  const note = input.note?.trim() ? input.note.trim() : null;
  const [row] = await deps.db
    .insert(ownerRequestViews)
    .values({
      requestId: request.id,
      propertyId: request.propertyId,
      agree: input.agree,
      note,
      actorRole: actor.role,
      actorEmail: normaliseEmail(actor.email),
    })
    .returning();
  deps.log.info(
    { requestId: request.id, propertyId: request.propertyId, agree: input.agree, by: actor.role },
    "owner view recorded",
  );
  return { outcome: "recorded", view: toView(row!) };
}

/** Remembers the language an owner last used, for their mails. */
export async function rememberOwnerLanguage(
  deps: Pick<Deps, "db">,
  email: string,
  language: Language,
): Promise<void> {
  await deps.db
    .insert(ownerLanguages)
    .values({ email: normaliseEmail(email), language })
    .onConflictDoUpdate({
      target: ownerLanguages.email,
      set: { language, updatedAt: sql`now()` },
      // A dashboard visit in the same language need not rewrite the row.
      setWhere: sql`${ownerLanguages.language} <> ${language}`,
    });
}

/**
 * The owners to tell of a request for an estate: each email that claimed the estate and is
 * still its contact on record (as `listOwnerEstates` grants access), with the language that
 * owner last used (English when never recorded).
 */
export async function ownersToTell(
  db: Database,
  propertyId: number,
): Promise<{ email: string; language: Language }[]> {
  const rows = await db
    .selectDistinct({ email: propertyClaims.email, language: ownerLanguages.language })
    .from(propertyClaims)
    .innerJoin(properties, eq(properties.id, propertyClaims.propertyId))
    .leftJoin(ownerLanguages, eq(ownerLanguages.email, propertyClaims.email))
    .where(
      and(
        eq(propertyClaims.propertyId, propertyId),
        isNull(propertyClaims.endedAt),
        sql`lower(${properties.ownerEmail}) = ${propertyClaims.email}`,
      ),
    );
  return rows.map((row) => ({
    email: row.email,
    language: isLanguage(row.language) ? row.language : DEFAULT_LANGUAGE,
  }));
}

/** The estate's name in `language` (English when it has none in it). */
export async function estateNameIn(
  db: Database,
  propertyId: number,
  language: Language,
): Promise<string> {
  const rows = await db
    .select({ lang: propertyTranslations.lang, name: propertyTranslations.name })
    .from(propertyTranslations)
    .where(
      and(
        eq(propertyTranslations.propertyId, propertyId),
        inArray(propertyTranslations.lang, [language, DEFAULT_LANGUAGE]),
      ),
    );
  return (
    rows.find((row) => row.lang === language)?.name ?? rows[0]?.name ?? `#${String(propertyId)}`
  );
}
