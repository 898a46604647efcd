import { z } from "zod";
import {
  defineOperation,
  error,
  IGNORED_BODY_ERRORS,
  invalid,
  JSON_BODY_ERRORS,
  STAFF_SESSION,
} from "../api/operation.ts";
import {
  EstateIdSchema,
  EstateQuerySchema,
  estateGuardAnswers,
  OWNER_OR_STAFF,
} from "../owners/owners.contract.ts";
import { REQUEST_STATUSES } from "../requests/options.ts";
import { parseEstateId } from "../staff/estates.schema.ts";
import { adminGuardAnswers } from "../staff/staff-auth.contract.ts";
import {
  BlockInputSchema,
  CALENDAR_WINDOW_SHAPE,
  CalendarWindowQuerySchema,
  checkCalendarWindow,
  MAX_BLOCK_NIGHTS,
  MAX_CALENDAR_MONTHS,
} from "./block.schema.ts";
import {
  BLOCK_KINDS,
  CalendarCollisionSchema,
  CollidingEntrySchema,
  IsoDateSchema,
} from "./calendar.schema.ts";

/**
 * An estate's calendar as staff and its owner read and change it:
 * the stays, pending requests, blocks and imported busy times over a window of nights, and
 * the blocks they add and remove. Written once for the routes, the document and the pages.
 */

const CalendarRequestEntrySchema = z
  .object({
    requestId: z.guid(),
    collection: z
      .enum(["bookings", "booking-requests"])
      .describe(
        "Where staff read the request: /api/bookings/{id} (a property booking) or /api/booking-requests/{id} (a general request)",
      ),
    reference: z.string(),
    status: z.enum(REQUEST_STATUSES),
    start: IsoDateSchema,
    end: IsoDateSchema.describe("The check-out day (exclusive)"),
    guestName: z
      .string()
      .nullable()
      .describe("For staff; always null for the owner, who sees no guest's name or contact"),
    guests: z.number().int().nullable().describe("The number of guests the request gave"),
  })
  .meta({ id: "CalendarRequest" });

export const CalendarBlockSchema = z
  .object({
    id: z.guid(),
    start: IsoDateSchema,
    end: IsoDateSchema.describe("The day after the last night blocked (exclusive)"),
    kind: z.enum(BLOCK_KINDS),
    note: z.string().nullable().describe("Seen by staff and the owner only"),
    createdBy: z.enum(["staff", "owner"]),
    removable: z
      .boolean()
      .describe("Whether the caller may remove it: staff any block, an owner the owners' blocks"),
  })
  .meta({ id: "CalendarBlock" });

export const AddedBlockSchema = CalendarBlockSchema.extend({
  pendingRequests: z
    .array(CalendarRequestEntrySchema)
    .describe(
      "Pending requests (New, Contacted, In progress) that want some of the blocked nights, earliest first: " +
        "the block is kept and the requests are not changed, but confirming one would now be refused",
    ),
}).meta({ id: "AddedBlock" });

const CalendarExternalBusySchema = z
  .object({
    id: z.guid(),
    start: IsoDateSchema,
    end: IsoDateSchema.describe("The day after the last busy night (exclusive)"),
    feedId: z.guid().describe("The imported calendar feed it came from"),
    summary: z.string().nullable().describe("The event's summary as the feed gave it"),
  })
  .meta({ id: "CalendarExternalBusy" });

const CalendarCollisionEntrySchema = z
  .object({
    external: CalendarExternalBusySchema,
    collidesWith: CollidingEntrySchema.extend({
      id: z.guid().describe("The block's id, or the calendar entry of the stay"),
    }),
  })
  .meta({
    id: "CalendarImportCollision",
    description:
      "An imported busy time over a confirmed stay or a block: kept and shown, it never cancels the stay",
  });

export const EstateCalendarSchema = z
  .object({
    propertyId: EstateIdSchema,
    from: IsoDateSchema,
    to: IsoDateSchema.describe("The day after the last night of the window (exclusive)"),
    stays: z
      .array(CalendarRequestEntrySchema)
      .describe("Confirmed stays with nights in the window, earliest first"),
    tentative: z
      .array(CalendarRequestEntrySchema)
      .describe("Requests still pending (New, Contacted, In progress): they close no nights"),
    unplaced: z
      .array(CalendarRequestEntrySchema)
      .describe(
        "Confirmed requests whose nights are not on the calendar (confirmed on taken nights before the calendar existed)",
      ),
    blocks: z.array(CalendarBlockSchema),
    external: z.array(CalendarExternalBusySchema).describe("Busy times of imported calendars"),
    collisions: z.array(CalendarCollisionEntrySchema),
    icalUrl: z
      .string()
      .meta({ format: "uri" })
      .describe("The estate's secret export feed (iCal): never shown to guests"),
  })
  .meta({ id: "EstateCalendar" });

/** A block id in a path: anything but a UUID names no block (404). */
const BlockIdSchema = z.guid().describe("The block's id");

/** An estate id in a path: a malformed one names no estate (404), as on the other estate calls. */
const PathEstateIdSchema = z
  .preprocess((value) => parseEstateId(value) ?? value, EstateIdSchema)
  .describe("The estate's id");

/** A 409 of nights a confirmed stay or a block holds: the collision, with its code. */
export const CalendarCollisionAnswerSchema = CalendarCollisionSchema.extend({
  code: z.literal("calendar_collision"),
}).meta({ id: "CalendarCollisionAnswer" });

const WINDOW_DESCRIPTION =
  `The nights [from, to), at most ${MAX_CALENDAR_MONTHS} months: confirmed stays, pending requests (tentative), blocks, busy times imported from other calendars, ` +
  "and each imported busy time that overlaps a stay or block (a collision, kept and shown). ";
const BLOCK_DESCRIPTION =
  `Closes the nights [start, end) (at most ${MAX_BLOCK_NIGHTS}, not all in the past) for a reason of \`kind\`, with an optional note staff and the owner see. ` +
  "Refused with 409, naming what holds them, when a confirmed stay or another block takes one of the nights; the database's exclusion constraint refuses it whoever writes. " +
  "Imported busy times and pending requests do not refuse a block; the answer names the pending requests it lies over (`pendingRequests`, without the guest's name for the owner). " +
  "Cached availability drops on every instance.";
const blockCollision = {
  description:
    "A confirmed stay or another block holds one of the nights; nothing was written. `collidesWith` names each.",
  schema: CalendarCollisionAnswerSchema,
};
const badWindow = invalid(
  `\`from\` or \`to\` not a date, \`to\` not after \`from\`, or more than ${MAX_CALENDAR_MONTHS} months apart`,
);
const badBlock = invalid(
  `A missing or invalid date or kind, \`end\` not after \`start\`, more than ${MAX_BLOCK_NIGHTS} nights, nights all in the past, a note over the limit, an unknown field, or malformed JSON`,
);

export const getEstateCalendar = defineOperation({
  id: "getEstateCalendar",
  method: "get",
  path: "/api/admin/estates/{id}/calendar",
  summary: "An estate's calendar",
  tags: ["calendar"],
  description: `${WINDOW_DESCRIPTION}With the guest's name, and the estate's export feed URL.`,
  security: STAFF_SESSION,
  params: z.object({ id: PathEstateIdSchema }),
  query: CalendarWindowQuerySchema,
  responses: {
    200: { description: "The calendar over the window", schema: EstateCalendarSchema },
    400: badWindow,
    404: error("No estate with this id", ["estate_not_found"]),
    ...adminGuardAnswers(false),
  },
});

export const addEstateBlock = defineOperation({
  id: "addEstateBlock",
  method: "post",
  path: "/api/admin/estates/{id}/blocks",
  summary: "Block an estate's nights",
  tags: ["calendar"],
  description: BLOCK_DESCRIPTION,
  security: STAFF_SESSION,
  params: z.object({ id: PathEstateIdSchema }),
  body: { schema: BlockInputSchema },
  responses: {
    201: {
      description: "The block, and the pending requests it lies over",
      schema: AddedBlockSchema,
    },
    400: badBlock,
    404: error("No estate with this id", ["estate_not_found"]),
    409: blockCollision,
    ...JSON_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const removeEstateBlock = defineOperation({
  id: "removeEstateBlock",
  method: "delete",
  path: "/api/admin/estates/{id}/blocks/{blockId}",
  summary: "Remove a block",
  tags: ["calendar"],
  description:
    "Frees the block's nights (whoever made it). Stays and imported busy times are not blocks: they are not removed here. Cached availability drops on every instance.",
  security: STAFF_SESSION,
  params: z.object({ id: PathEstateIdSchema, blockId: BlockIdSchema }),
  responses: {
    204: { description: "Removed" },
    404: error("No such estate, or no block of it with this id", [
      "estate_not_found",
      "block_not_found",
    ]),
    ...IGNORED_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const getOwnerCalendar = defineOperation({
  id: "getOwnerCalendar",
  method: "get",
  path: "/api/property-owners/calendar",
  summary: "The estate's calendar, for its owner",
  tags: ["calendar"],
  description:
    `${WINDOW_DESCRIPTION}The owner sees each stay's and request's reference, dates and number of guests, never the guest's name or contact; ` +
    "a staff admin calling it sees what the staff calendar shows. With the estate's export feed URL.",
  security: OWNER_OR_STAFF,
  query: EstateQuerySchema.extend(CALENDAR_WINDOW_SHAPE).superRefine(checkCalendarWindow),
  responses: {
    200: { description: "The calendar over the window", schema: EstateCalendarSchema },
    400: badWindow,
    ...estateGuardAnswers(false),
  },
});

export const addOwnerBlock = defineOperation({
  id: "addOwnerBlock",
  method: "post",
  path: "/api/property-owners/blocks",
  summary: "Block the estate's nights, as its owner",
  tags: ["calendar"],
  description: `${BLOCK_DESCRIPTION} The estate is named with \`?propertyId=\` (an owner may leave it out: their first estate).`,
  security: OWNER_OR_STAFF,
  query: EstateQuerySchema,
  body: { schema: BlockInputSchema },
  responses: {
    201: {
      description: "The block, and the pending requests it lies over",
      schema: AddedBlockSchema,
    },
    400: badBlock,
    409: blockCollision,
    ...JSON_BODY_ERRORS,
    ...estateGuardAnswers(true),
  },
});

const ownerGuard = estateGuardAnswers(true, "; or no block of the estate with this id", [
  "block_not_found",
]);

export const removeOwnerBlock = defineOperation({
  id: "removeOwnerBlock",
  method: "delete",
  path: "/api/property-owners/blocks/{blockId}",
  summary: "Remove a block, as the estate's owner",
  tags: ["calendar"],
  description:
    "An owner removes the blocks owners made; a block staff made (maintenance the network arranged, say) stays until staff remove it. " +
    "A staff admin calling it removes any block of the estate. Cached availability drops on every instance.",
  security: OWNER_OR_STAFF,
  params: z.object({ blockId: BlockIdSchema }),
  query: EstateQuerySchema,
  responses: {
    204: { description: "Removed" },
    ...IGNORED_BODY_ERRORS,
    ...ownerGuard,
    403: error(`${ownerGuard[403].description}; or an owner removing a block staff made`, [
      "forbidden",
      "cross_origin",
      "staff_block",
    ]),
  },
});

export const CALENDAR_VIEW_OPERATIONS = [
  getEstateCalendar,
  addEstateBlock,
  removeEstateBlock,
  getOwnerCalendar,
  addOwnerBlock,
  removeOwnerBlock,
];

/** An estate's calendar as the calls answer it. */
export type EstateCalendarAnswer = z.output<typeof EstateCalendarSchema>;
export type CalendarBlockAnswer = z.output<typeof CalendarBlockSchema>;
export type AddedBlockAnswer = z.output<typeof AddedBlockSchema>;
