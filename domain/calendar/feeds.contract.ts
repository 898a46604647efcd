import { z } from "zod";
import {
  DateTimeSchema,
  defineOperation,
  error,
  IGNORED_BODY_ERRORS,
  invalid,
  JSON_BODY_ERRORS,
  PUBLIC,
  type SecurityRequirements,
  STAFF_SESSION,
} from "../api/operation.ts";
import { MAX_URL_LENGTH } from "../outbound/outbound-errors.ts";
import {
  EstateIdSchema,
  EstateQuerySchema,
  estateGuardAnswers,
} from "../owners/owners.contract.ts";
import { parseEstateId } from "../staff/estates.schema.ts";
import { adminGuardAnswers } from "../staff/staff-auth.contract.ts";
import { FEED_ERROR_CODES, MAX_SKIPPED_LISTED, SKIPPED_EVENT_REASONS } from "./feed-errors.ts";
import { CalendarFeedSettingsSchema } from "./feed-settings.schema.ts";

/**
 * The iCal calls: an estate's secret export feed (public, behind its
 * token), its rotation, and the external feeds it imports, for staff (any estate) and for the
 * owner (their own). Browser-safe: the feeds panel calls these through `callApi`.
 */

const OWNER_OR_STAFF: SecurityRequirements = [{ ownerSession: [] }, { staffSession: [] }];

/** An estate id in a path; a malformed one names no estate (404, not 400). */
const EstatePathIdSchema = z
  .preprocess((value) => parseEstateId(value) ?? value, EstateIdSchema)
  .describe("The estate's id");
/** A feed's id in a path; a malformed one names no feed (404). */
const FeedIdSchema = z.uuid().describe("The feed's id (`id` of a CalendarFeed)");

const SkippedEventSchema = z
  .object({
    uid: z.string().nullable().describe("The event's UID, when it has one"),
    summary: z.string().nullable().describe("Its SUMMARY (shortened), when it has one"),
    line: z.number().int().min(0).describe("The line of its BEGIN:VEVENT in the feed (1-based)"),
    reason: z
      .enum(SKIPPED_EVENT_REASONS)
      .describe(
        "Why, as a code the interface translates: `no_start` (no readable DTSTART), `unreadable` (the parser refused it)",
      ),
    detail: z.string().describe("Short English detail, for support"),
  })
  .meta({ id: "SkippedCalendarEvent", description: "An event of a feed that could not be read" });

export const CalendarFeedSchema = z
  .object({
    id: z.uuid(),
    url: z.string().describe("The address, as stored (the URL parser's form of what was typed)"),
    createdAt: DateTimeSchema,
    lastAttemptAt: DateTimeSchema.nullable().describe("The last sync, whatever its outcome"),
    lastSuccessAt: DateTimeSchema.nullable().describe("The last sync that read the feed"),
    lastError: z
      .object({
        code: z.enum(FEED_ERROR_CODES).describe("Why, as a code the interface translates"),
        detail: z.string().describe("Short English detail, for support"),
      })
      .nullable()
      .describe("Why the last sync failed; null when it succeeded or none ran yet"),
    eventCount: z.number().int().min(0).describe("Busy times read at the last success"),
    nextSyncAt: DateTimeSchema,
    timedEventsClose: z
      .boolean()
      .describe("Whether its timed (not all-day) events close nights; all-day events always do"),
    passOn: z
      .boolean()
      .describe("Whether the estate's export feed lists its busy times (as `Busy`)"),
    nightsClosed: z
      .number()
      .int()
      .min(0)
      .describe("Nights, from the day of the last success on, that its busy times close"),
    timedNightsClosed: z
      .number()
      .int()
      .min(0)
      .describe("Of `nightsClosed`, the nights its timed events close"),
    skippedEvents: z
      .array(SkippedEventSchema)
      .max(MAX_SKIPPED_LISTED)
      .describe(
        `Events the last success could not read and left out (the others were read), at most ${MAX_SKIPPED_LISTED}, by line`,
      ),
    skippedCount: z.number().int().min(0).describe("How many events the last success left out"),
  })
  .meta({ id: "CalendarFeed", description: "An external calendar (iCal feed) an estate imports" });

export const CalendarFeedsSchema = z
  .object({
    feeds: z.array(CalendarFeedSchema).describe("Oldest first"),
    icalUrl: z
      .string()
      .describe("The estate's secret export feed address, to give the other channels"),
    syncMinutes: z.number().positive().describe("Minutes between two reads of each feed"),
  })
  .meta({ id: "CalendarFeeds" });

export const IcalUrlSchema = z
  .object({ icalUrl: z.string().describe("The new secret address; the previous one answers 404") })
  .meta({ id: "IcalUrl" });

/**
 * An iCal feed's address as people paste it. Apple and Outlook hand out `webcal://` (and
 * `webcals://`) addresses: those name the same feed over HTTPS, so they are read as `https://`.
 */
const FeedUrlSchema = z
  .string({ error: "owner.calendarFeeds.errors.urlInvalid" })
  .max(MAX_URL_LENGTH, "owner.calendarFeeds.errors.urlTooLong")
  .refine(
    (value) => /^\s*(https?|webcals?):\/\/\S+\s*$/i.test(value),
    "owner.calendarFeeds.errors.urlInvalid",
  )
  .transform((value) => value.trim().replace(/^webcals?:\/\//i, "https://"))
  .describe(
    "An http or https address of an iCal feed; a webcal:// (or webcals://) address is read as https://",
  );

export const NewCalendarFeedSchema = z
  .strictObject({ url: FeedUrlSchema })
  .meta({ id: "NewCalendarFeed" });

export const NewOwnerCalendarFeedSchema = z
  .strictObject({
    url: FeedUrlSchema,
    propertyId: EstateIdSchema.optional().describe("The estate, when the query does not name it"),
  })
  .meta({ id: "NewOwnerCalendarFeed" });

const ADD_DESCRIPTION =
  "The address must be http or https, and its host must resolve to public addresses only (no loopback, private or link-local network); it is checked again at every fetch. " +
  "The feed is read within a minute, then every ICAL_SYNC_MINUTES; its busy events close the estate's nights as imported busy times.";
const ADD_REFUSED = invalid(
  "Not an http(s) address, too long, a host that does not resolve or resolves to a private address, an address the estate already imports, too many feeds, or malformed JSON (`errors[0].path` is `url`)",
);
const SYNC_DESCRIPTION =
  "Fetches and reads the feed now (at most 10 s) and answers it with its new state: `lastError` says why a failure failed. " +
  "A failure keeps the busy times of the last success.";
const SETTINGS_DESCRIPTION =
  "Changes the feed's choices; those the body leaves out stay. Turning `timedEventsClose` off keeps timed (not all-day) events from closing nights (a one-hour event no longer closes its whole day); changing it makes the feed read again within a minute. " +
  "`passOn` lists the feed's busy times in the estate's export feed, so the other sites the estate is let on see them; events that came from Castellum are never imported back.";
const SETTINGS_REFUSED = invalid(
  "Neither choice given, a choice that is not a boolean, an unknown field, or malformed JSON",
);
const ROTATE_DESCRIPTION =
  "Makes a new secret address for the estate's export feed. The previous address answers 404 from now on: every channel that reads it needs the new one.";
const noFeed = "No such feed on this estate (another estate's feeds included), or a malformed id";

export const getCalendarExport = defineOperation({
  id: "getCalendarExport",
  method: "get",
  path: "/api/ical/{feed}",
  summary: "An estate's calendar, for other channels (iCal)",
  tags: ["calendar"],
  description:
    "The estate's confirmed stays and blocks as all-day busy events (RFC 5545), from a month ago on: `SUMMARY` is `Reserved` or `Blocked`, nothing personal (no guest, contact, note or kind of block). The calendar is named after the estate (`X-WR-CALNAME`: `<estate> (Castellum)`). " +
    "UIDs are stable. Imported busy times are listed (as `Busy`) only from the feeds whose `passOn` is chosen. Every event carries `X-CASTELLUM-ORIGIN` and a UID at this site's host, and an imported event bearing either is never read back, so two channels importing each other cannot echo through Castellum. The address is secret: staff and the owner read it and can rotate it.",
  security: PUBLIC,
  params: z.object({
    feed: z.string().max(200).describe("`<token>.ics`, as the estate's `icalUrl` ends"),
  }),
  responses: {
    200: {
      description: "The calendar",
      contentType: "text/calendar",
      schema: z.string(),
      headers: {
        "Cache-Control": {
          description: "`private, no-store`: the address is a secret",
          schema: z.string(),
        },
      },
    },
    404: error("No estate opens with this token: malformed, forged, or rotated away", [
      "not_found",
    ]),
  },
});

const estatePath = "/api/admin/estates/{id}";
const estateParams = z.object({ id: EstatePathIdSchema });
const estateFeedParams = z.object({ id: EstatePathIdSchema, feedId: FeedIdSchema });
const noEstate = error("No estate with this id", ["estate_not_found"]);

export const listEstateCalendarFeeds = defineOperation({
  id: "listEstateCalendarFeeds",
  method: "get",
  path: `${estatePath}/calendar-feeds`,
  summary: "An estate's imported calendars and its export address",
  tags: ["calendar"],
  security: STAFF_SESSION,
  params: estateParams,
  responses: {
    200: { description: "The feeds, and the export address", schema: CalendarFeedsSchema },
    404: noEstate,
    ...adminGuardAnswers(false),
  },
});

export const addEstateCalendarFeed = defineOperation({
  id: "addEstateCalendarFeed",
  method: "post",
  path: `${estatePath}/calendar-feeds`,
  summary: "Import an external calendar into an estate's",
  description: ADD_DESCRIPTION,
  tags: ["calendar"],
  security: STAFF_SESSION,
  params: estateParams,
  body: { schema: NewCalendarFeedSchema },
  responses: {
    201: { description: "Added, not yet read", schema: CalendarFeedSchema },
    400: ADD_REFUSED,
    404: noEstate,
    ...JSON_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const removeEstateCalendarFeed = defineOperation({
  id: "removeEstateCalendarFeed",
  method: "delete",
  path: `${estatePath}/calendar-feeds/{feedId}`,
  summary: "Stop importing a calendar",
  description: "The busy times it brought go with it, and the nights they closed open again.",
  tags: ["calendar"],
  security: STAFF_SESSION,
  params: estateFeedParams,
  responses: {
    204: { description: "Removed" },
    404: error(`No estate with this id; or ${noFeed.toLowerCase()}`, [
      "estate_not_found",
      "feed_not_found",
    ]),
    ...IGNORED_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

/** A feed is read at most once a minute, whoever asks (domain/calendar/feed-sync.ts). */
const SYNC_TOO_SOON = {
  ...error("The feed was read (or is being read) less than a minute ago", ["sync_too_soon"]),
  headers: {
    "Retry-After": {
      description: "Seconds until it may be read again",
      schema: z.number().int().min(1),
    },
  },
};

export const syncEstateCalendarFeed = defineOperation({
  id: "syncEstateCalendarFeed",
  method: "post",
  path: `${estatePath}/calendar-feeds/{feedId}/sync`,
  summary: "Read an imported calendar now",
  description: SYNC_DESCRIPTION,
  tags: ["calendar"],
  security: STAFF_SESSION,
  params: estateFeedParams,
  responses: {
    200: { description: "The feed after the sync", schema: CalendarFeedSchema },
    404: error(`No estate with this id; or ${noFeed.toLowerCase()}`, [
      "estate_not_found",
      "feed_not_found",
    ]),
    429: SYNC_TOO_SOON,
    ...IGNORED_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const updateEstateCalendarFeed = defineOperation({
  id: "updateEstateCalendarFeed",
  method: "patch",
  path: `${estatePath}/calendar-feeds/{feedId}`,
  summary: "Change an imported calendar's choices",
  description: SETTINGS_DESCRIPTION,
  tags: ["calendar"],
  security: STAFF_SESSION,
  params: estateFeedParams,
  body: { schema: CalendarFeedSettingsSchema },
  responses: {
    200: { description: "The feed with its new choices", schema: CalendarFeedSchema },
    400: SETTINGS_REFUSED,
    404: error(`No estate with this id; or ${noFeed.toLowerCase()}`, [
      "estate_not_found",
      "feed_not_found",
    ]),
    ...JSON_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const rotateEstateIcalUrl = defineOperation({
  id: "rotateEstateIcalUrl",
  method: "post",
  path: `${estatePath}/ical-url`,
  summary: "Give an estate's export feed a new secret address",
  description: ROTATE_DESCRIPTION,
  tags: ["calendar"],
  security: STAFF_SESSION,
  params: estateParams,
  responses: {
    200: { description: "The new address", schema: IcalUrlSchema },
    404: noEstate,
    ...IGNORED_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

const ownerPath = "/api/property-owners";
const ownerFeedParams = z.object({ feedId: FeedIdSchema });

export const listOwnerCalendarFeeds = defineOperation({
  id: "listOwnerCalendarFeeds",
  method: "get",
  path: `${ownerPath}/calendar-feeds`,
  summary: "The estate's imported calendars and its export address",
  tags: ["calendar"],
  security: OWNER_OR_STAFF,
  query: EstateQuerySchema,
  responses: {
    200: { description: "The feeds, and the export address", schema: CalendarFeedsSchema },
    ...estateGuardAnswers(false),
  },
});

export const addOwnerCalendarFeed = defineOperation({
  id: "addOwnerCalendarFeed",
  method: "post",
  path: `${ownerPath}/calendar-feeds`,
  summary: "Import an external calendar into the estate's",
  description: ADD_DESCRIPTION,
  tags: ["calendar"],
  security: OWNER_OR_STAFF,
  query: EstateQuerySchema,
  body: { schema: NewOwnerCalendarFeedSchema },
  responses: {
    201: { description: "Added, not yet read", schema: CalendarFeedSchema },
    400: ADD_REFUSED,
    ...JSON_BODY_ERRORS,
    ...estateGuardAnswers(true),
  },
});

export const removeOwnerCalendarFeed = defineOperation({
  id: "removeOwnerCalendarFeed",
  method: "delete",
  path: `${ownerPath}/calendar-feeds/{feedId}`,
  summary: "Stop importing a calendar",
  description: "The busy times it brought go with it, and the nights they closed open again.",
  tags: ["calendar"],
  security: OWNER_OR_STAFF,
  params: ownerFeedParams,
  query: EstateQuerySchema,
  responses: {
    204: { description: "Removed" },
    ...IGNORED_BODY_ERRORS,
    ...estateGuardAnswers(true, `; or ${noFeed.toLowerCase()}`, ["feed_not_found"]),
  },
});

export const syncOwnerCalendarFeed = defineOperation({
  id: "syncOwnerCalendarFeed",
  method: "post",
  path: `${ownerPath}/calendar-feeds/{feedId}/sync`,
  summary: "Read an imported calendar now",
  description: SYNC_DESCRIPTION,
  tags: ["calendar"],
  security: OWNER_OR_STAFF,
  params: ownerFeedParams,
  query: EstateQuerySchema,
  responses: {
    200: { description: "The feed after the sync", schema: CalendarFeedSchema },
    429: SYNC_TOO_SOON,
    ...IGNORED_BODY_ERRORS,
    ...estateGuardAnswers(true, `; or ${noFeed.toLowerCase()}`, ["feed_not_found"]),
  },
});

export const updateOwnerCalendarFeed = defineOperation({
  id: "updateOwnerCalendarFeed",
  method: "patch",
  path: `${ownerPath}/calendar-feeds/{feedId}`,
  summary: "Change an imported calendar's choices",
  description: SETTINGS_DESCRIPTION,
  tags: ["calendar"],
  security: OWNER_OR_STAFF,
  params: ownerFeedParams,
  query: EstateQuerySchema,
  body: { schema: CalendarFeedSettingsSchema },
  responses: {
    200: { description: "The feed with its new choices", schema: CalendarFeedSchema },
    400: SETTINGS_REFUSED,
    ...JSON_BODY_ERRORS,
    ...estateGuardAnswers(true, `; or ${noFeed.toLowerCase()}`, ["feed_not_found"]),
  },
});

export const rotateOwnerIcalUrl = defineOperation({
  id: "rotateOwnerIcalUrl",
  method: "post",
  path: `${ownerPath}/calendar/ical-url`,
  summary: "Give the estate's export feed a new secret address",
  description: ROTATE_DESCRIPTION,
  tags: ["calendar"],
  security: OWNER_OR_STAFF,
  query: EstateQuerySchema,
  responses: {
    200: { description: "The new address", schema: IcalUrlSchema },
    ...IGNORED_BODY_ERRORS,
    ...estateGuardAnswers(true),
  },
});

export const CALENDAR_FEED_OPERATIONS = [
  getCalendarExport,
  listEstateCalendarFeeds,
  addEstateCalendarFeed,
  removeEstateCalendarFeed,
  syncEstateCalendarFeed,
  updateEstateCalendarFeed,
  rotateEstateIcalUrl,
  listOwnerCalendarFeeds,
  addOwnerCalendarFeed,
  removeOwnerCalendarFeed,
  syncOwnerCalendarFeed,
  updateOwnerCalendarFeed,
  rotateOwnerIcalUrl,
];
