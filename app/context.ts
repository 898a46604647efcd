import { createContext } from "react-router";
import type { GuestRequestDetail } from "#domain/offers/guest-view.ts";
import type { Message } from "#domain/conversation/messages.contract.ts";
import type { WebhookEndpointView } from "#domain/webhooks/endpoints.ts";
import type { BotCheckClientConfig } from "#domain/bot-check/config.ts";
import type { EstateCalendarAnswer } from "#domain/calendar/calendar.contract.ts";
import type { CalendarFeed } from "./components/calendar/feeds-api.ts";
import type { CataloguePage, SearchInput } from "#domain/catalogue/read-properties.ts";
import type { Property, PropertyImage } from "#domain/catalogue/property.ts";
import type { Currency } from "#domain/pricing/money.ts";
import type { Nights } from "#domain/calendar/nights.ts";
import type { GuestRequestView } from "#domain/requests/intake/request-status.ts";
import type { Language } from "#i18n/config.ts";
import type { SignedIn } from "#domain/auth/sessions.ts";
import type { StaffUser } from "#domain/staff/staff-user.ts";
import type { UndeliveredMailList } from "#domain/mail/outbox-health.ts";
import type { RequestKind } from "#domain/requests/options.ts";
import type { InboxOverview, InboxPage, RequestDetail } from "#domain/staff/inbox.ts";
import type { InboxFilter } from "#domain/staff/inbox.schema.ts";
import type { EstateActor, OwnerPropertyDetails } from "#domain/owners/owner-property.ts";
import type { StaffEstateRow } from "#domain/owners/revisions.ts";
import type { StaffEstateRecord } from "#domain/staff/estates.ts";
import type {
  SecurityEventItem,
  SecurityEventPageQuery,
} from "#domain/security/security-log.contract.ts";

/**
 * What the public pages' loaders may do: the domain functions they need, bound to the database
 * by the server (no HTTP hop). Loaders never see the database itself.
 */
export interface PublicPages {
  /** The image that stands for the site in share previews and on the home page. */
  getFeaturedImage: () => Promise<PropertyImage | null>;
  /** The estates with these slugs, in this language (the home page's featured ones). */
  listPropertiesBySlug: (input: { slugs: string[]; language: Language }) => Promise<Property[]>;
  /** One page of the catalogue for a filter. */
  searchProperties: (input: SearchInput) => Promise<CataloguePage>;
  /** One estate by id or slug. @throws NotFoundError */
  getProperty: (input: { idOrSlug: string; language: Language }) => Promise<Property>;
  /** An estate's taken nights within [from, to), merged: what guests may see of its calendar. */
  readUnavailableNights: (input: {
    propertyId: number;
    from: string;
    to: string;
  }) => Promise<Nights[]>;
  /** The lowest nightly price of an estate and its currency, or null while it has no rates. */
  readFromPrice: (propertyId: number) => Promise<{ currency: Currency; nightly: number } | null>;
  /** A guest's request by the token of their status link, or null. */
  findRequestByStatusToken: (token: string) => Promise<GuestRequestView | null>;
  /** The guest's view of the request behind a status token (offer, payments, ways to pay), or null. */
  readGuestRequest: (token: string, language: Language) => Promise<GuestRequestDetail | null>;
  /** The conversation with staff of the request behind a status token, or null. */
  readThreadByStatusToken: (token: string) => Promise<Message[] | null>;
}
export const publicPagesContext = createContext<PublicPages>();

/** Facts about the request the server has already settled. */
export interface RequestInfo {
  language: Language;
  /** Public origin for canonical and alternate links, without a trailing slash. */
  publicUrl: string;
  /** Where the whitepaper link points (the configured URL, or the site's own PDF). */
  whitepaperUrl: string | null;
  /** How the forms' bot check is drawn (null: the server takes no requests, e.g. some tests). */
  botCheck: BotCheckClientConfig | null;
  /** How far ahead a property booking may run (BOOKING_HORIZON_MONTHS). */
  bookingHorizonMonths: number;
  /** Where guests write about their personal data (PRIVACY_CONTACT_EMAIL). */
  privacyContactEmail: string;
  /** Days a guest's data is kept after the last activity (GUEST_DATA_RETENTION_DAYS). */
  guestDataRetentionDays: number;
  /** Years payments keep the payer's identifiers (FINANCIAL_RECORDS_YEARS). */
  financialRecordsYears: number;
}
export const requestInfoContext = createContext<RequestInfo>();

/**
 * Where a page's server-side failure is logged: the server's logger, whose error serializer
 * keeps guest data out (server/logger.ts). Null outside the server (standard error then).
 */
export const pageErrorLogContext = createContext<((error: unknown) => void) | null>(null);

/**
 * This request's Content-Security-Policy nonce (server/middleware/security-headers.ts): the
 * page's inline scripts carry it. Null where no policy names one (tests without the server).
 */
export const cspNonceContext = createContext<string | null>(null);

/**
 * What a rendered public page goes through before it leaves, so that it paints first: its
 * critical CSS inlined (server/critical-css.ts), its module script and whole stylesheet held
 * until the first screen has painted (server/deferred-loading.ts). Null elsewhere: the server
 * sets it for the public pages of a production build, so it never reaches the browser bundle,
 * and the staff pages keep their ordinary stylesheet and scripts.
 */
export const firstPaintContext = createContext<((html: string) => Promise<string>) | null>(null);

/**
 * The signed-in person of this request (staff or owner), or null; settled by the server. A staff
 * sign-in short of its second factor is never here (see `signInStepContext`).
 */
export const sessionContext = createContext<SignedIn | null>(null);

/** A staff sign-in short of its second factor: set for the sign-in and enrolment pages only. */
export interface PendingSignIn {
  user: StaffUser;
  stage: "second_factor" | "enrolment";
}
export const signInStepContext = createContext<PendingSignIn | null>(null);

/**
 * What the staff pages may do: the domain functions they need, bound to the database by the
 * server, and the rule of who may enter. Loaders never see the database itself.
 */
export interface StaffPages {
  adminEmailDomain: string;
  listInbox: (filter: InboxFilter) => Promise<InboxPage>;
  countInboxByStatus: (
    kind: RequestKind,
  ) => Promise<{ total: number; byStatus: Record<string, number> }>;
  getInboxOverview: () => Promise<InboxOverview>;
  /** One request of this kind with its status history and notes, or null. */
  getRequestDetail: (kind: RequestKind, id: string) => Promise<RequestDetail | null>;
  listUndeliveredMail: () => Promise<UndeliveredMailList>;
  /** The webhook endpoints, without their secrets. */
  listWebhooks: () => Promise<WebhookEndpointView[]>;
  isSetupTokenUsable: (token: string) => Promise<boolean>;
  /** Estates by id and name, for the property filter. */
  /** The estate filter's choices: estates with property bookings, and the one chosen. */
  listBookedEstateChoices: (
    language: Language,
    include?: number,
  ) => Promise<{ id: number; name: string }[]>;
  /** Estates' names in the staff's language, by id (a guest's request stores the guest's). */
  nameEstates: (
    language: Language,
    ids: readonly (number | null)[],
  ) => Promise<Record<number, string>>;
  /** One page of the estates (by id, after `after`), matching `q` in a name or the owner email. */
  listEstates: (input: {
    language: Language;
    q?: string;
    after?: number;
  }) => Promise<{ estates: StaffEstateRow[]; nextAfter: number | null }>;
  /**
   * One estate's name and calendar over [from, to) as staff see it, with its export feed URL.
   * @throws NotFoundError
   */
  getEstateCalendar: (input: {
    propertyId: number;
    from: string;
    to: string;
    language: Language;
  }) => Promise<{
    estate: { id: number; name: string; location: string };
    calendar: EstateCalendarAnswer;
    /** The feeds the estate imports, for the feeds panel. */
    feeds: CalendarFeed[];
    /** ICAL_SYNC_MINUTES. */
    syncMinutes: number;
  }>;
  /** One estate's record, history and stale translations. @throws NotFoundError */
  getEstate: (
    actor: EstateActor & { role: "staff" },
    input: { propertyId: number; language: Language },
  ) => Promise<StaffEstateRecord>;
  /** The ways an account can pass the sign-in's second step. */
  secondFactorMethods: (staffUserId: string) => Promise<("totp" | "passkey" | "recovery")[]>;
  /** The signed-in person's factors, for their security page, and STAFF_MFA_REQUIRED. */
  getSecondFactors: (
    staffUserId: string,
  ) => Promise<{ totp: boolean; recoveryCodesLeft: number; required: boolean }>;
  /** One page of the security log, newest first. */
  listSecurityEvents: (
    query: SecurityEventPageQuery,
  ) => Promise<{ events: SecurityEventItem[]; nextCursor: number | null }>;
}
export const staffPagesContext = createContext<StaffPages | null>(null);

/**
 * What the owner dashboard's loader may do, bound to the database by the server. The guard
 * (who may open which estate) runs inside these functions, never only in the page.
 */
export interface OwnerPages {
  adminEmailDomain: string;
  /**
   * The dashboard's record for `actor`: an owner gets one of their claimed estates (`estateId`
   * or their first); a staff admin gets the estate `estateId`.
   */
  loadDashboard: (
    actor: EstateActor,
    /** `language`: of the estate's text; `pageLanguage`: the owner's, kept for their mails. */
    input: { estateId?: number; language: Language; pageLanguage?: Language },
  ) => Promise<
    | { outcome: "ok"; details: OwnerPropertyDetails }
    | { outcome: "not_found" }
    | { outcome: "forbidden" }
    | { outcome: "no_estate" }
  >;
}
export const ownerPagesContext = createContext<OwnerPages | null>(null);
