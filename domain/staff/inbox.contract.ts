import { z } from "zod";
import {
  DateTimeSchema,
  defineOperation,
  type Operation,
  error,
  invalid,
  JSON_BODY_ERRORS,
  STAFF_SESSION,
} from "../api/operation.ts";
import {
  MEMBER_STATUSES,
  REQUEST_KINDS,
  REQUEST_STATUSES,
  type RequestKind,
  type RequestStatus,
  statusesOf,
} from "../requests/options.ts";
import { MONEY_STATES } from "../offers/offer.schema.ts";
import { processOf } from "../requests/process.ts";
import { STAFF_COLLECTIONS } from "./collections.ts";
import { InboxFilterSchema, NoteSchema, StatusChangeSchema } from "./inbox.schema.ts";
import { adminGuardAnswers } from "./staff-auth.contract.ts";
import { EstateIdSchema } from "../owners/owners.contract.ts";
import { OwnerViewSchema } from "../owners/owner-requests.contract.ts";
import { addDays, isIsoDate } from "../calendar/nights.ts";
import { CalendarCollisionAnswerSchema } from "../calendar/calendar.contract.ts";
import {
  CollidingEntrySchema,
  ImportedBusySchema,
  ImportedBusyWarningSchema,
  IsoDateSchema,
  type StayKind,
} from "../calendar/calendar.schema.ts";

/**
 * The staff inbox's calls: the overview, and for each kind of request its collection (list,
 * export, read, change status, add a note), written once for the routes, the document and the
 * staff pages. The answers' schemas are the domain's types (`domain/staff/inbox.ts`).
 */

const COUNT = z.number().int().min(0);

export const InboxItemSchema = z
  .object({
    id: z.guid(),
    kind: z.enum(REQUEST_KINDS),
    reference: z.string().meta({ examples: ["BR-7K4Q-2MXD"] }),
    status: z.enum(REQUEST_STATUSES),
    version: z
      .number()
      .int()
      .min(1)
      .describe("Raised by every status change; send it back with a change to detect conflicts"),
    language: z.string().describe("The language the guest used"),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().meta({ format: "email" }),
    phone: z.string(),
    memberStatus: z.enum(MEMBER_STATUSES).nullable(),
    propertyId: z.number().int().nullable(),
    stayStart: IsoDateSchema.nullable().describe(
      "The first night the request would take on `propertyId`: a property booking's check-in, a general request's once staff set its stay",
    ),
    stayEnd: IsoDateSchema.nullable().describe("The check-out day (exclusive)"),
    createdAt: DateTimeSchema,
    updatedAt: DateTimeSchema,
    unreadMessages: COUNT.describe(
      "The guest's messages no member of staff has read yet (reading the thread reads them)",
    ),
    details: z
      .record(z.string(), z.unknown())
      .describe(
        "The validated form as the guest sent it; its fields are those of BookingRequest, PropertyBooking or MembershipApplication",
      ),
    dueAt: DateTimeSchema.nullable().describe(
      "When the system closes the request if it is still open (Rejected, or Declined for a membership application); null: never",
    ),
    overdue: z
      .boolean()
      .describe("Still open and past its due time: the next lifecycle run closes it"),
    erasedAt: DateTimeSchema.nullable().describe(
      "When the guest's personal data was erased (after retention, or on request): the name, contact and free text are empty; null while kept",
    ),
    money: z
      .object({
        state: z.enum(MONEY_STATES),
        currency: z.string(),
        total: z.number().int().describe("The offer's total, in minor units"),
        outstanding: z
          .number()
          .int()
          .describe("What the guest still owes, in minor units (refunds not counted)"),
        dueOn: IsoDateSchema.nullable().describe(
          "The day the state points at: the offer's expiry, the deposit's or the balance's due day",
        ),
      })
      .nullable()
      .describe(
        "Where the request's money stands (its live offer and the ledger); null without an offer in play",
      ),
    // The estate owner's latest view, for staff to weigh before they decide.
    ownerView: OwnerViewSchema.nullable().describe(
      "The latest view the estate's owner gave on the request (agree or decline, with a note); null when none",
    ),
  })
  .meta({ id: "InboxItem", description: "One request as the inbox lists it" });

export const StatusHistoryEntrySchema = z
  .object({
    fromStatus: z.enum(REQUEST_STATUSES).nullable(),
    toStatus: z.enum(REQUEST_STATUSES),
    changedBy: z
      .string()
      .describe('The email of the staff member, "guest" for the first row, "system" for an expiry'),
    changedAt: DateTimeSchema,
    reason: z.string().nullable(),
    reasonShared: z.boolean().describe("Whether the guest sees the reason"),
    event: z
      .enum(["status", "stay", "due"])
      .describe(
        "`stay`: staff set the estate and nights; `due`: staff moved the due time; in both the status did not change",
      ),
    dueAt: DateTimeSchema.nullable().describe("For a `due` event, the new due time"),
    stay: z
      .object({ propertyId: z.number().int(), start: IsoDateSchema, end: IsoDateSchema })
      .nullable()
      .describe("For a `stay` event, the estate and nights set"),
  })
  .meta({ id: "StatusHistoryEntry" });

export const RequestNoteSchema = z
  .object({
    id: z.number().int(),
    authorName: z.string(),
    body: z.string(),
    createdAt: DateTimeSchema,
  })
  .meta({ id: "Note", description: "An internal note, for staff only" });

export const RequestDetailSchema = InboxItemSchema.extend({
  history: z.array(StatusHistoryEntrySchema),
  notes: z.array(RequestNoteSchema),
  stayHeld: z
    .boolean()
    .describe("Whether the request's nights are taken in the estate's calendar (it is Confirmed)"),
  ownerViews: z
    .array(OwnerViewSchema)
    .describe("Every view the estate's owner gave, oldest first; the last one counts"),
  collisions: z
    .array(CollidingEntrySchema)
    .describe(
      "The confirmed stays and blocks that share a night with this request's stay: confirming it now would be refused (409)",
    ),
  importedBusy: z
    .array(ImportedBusySchema)
    .describe(
      "Busy times of imported calendars on this request's nights: staff confirm over them only with `confirmOverImported`",
    ),
}).meta({
  id: "RequestDetail",
  description: "One request with its status history and internal notes, oldest first",
});

const NewNoteSchema = NoteSchema.meta({ id: "NewNote" });

export const StatusConflictSchema = z
  .object({
    message: z.string(),
    code: z
      .enum(["version_conflict", "request_closed"])
      .describe(
        "`version_conflict`: changed by someone else since `version`; `request_closed`: no longer open",
      ),
    current: RequestDetailSchema,
  })
  .meta({ id: "StatusConflict" });

const byStatus = (description: string) =>
  z.partialRecord(z.enum(REQUEST_STATUSES), COUNT).describe(description);

export const WeeklyCountsSchema = z.object({
  weekStart: z.iso.date().describe("The week's Monday (UTC)"),
  byStatus: byStatus("Requests per status; a status without requests is left out"),
});

export const InboxOverviewSchema = z.object({
  weeks: z
    .array(WeeklyCountsSchema)
    .describe("Requests of every kind per week of arrival and current status, oldest week first"),
  waitingOver48h: COUNT.describe("Requests still New more than 48 hours after they arrived"),
  overdue: COUNT.describe("Open requests past their due time, which the next lifecycle run closes"),
  offersAwaitingAnswer: COUNT.describe("Offers sent that the guest has not answered yet"),
  balancesOverdue: COUNT.describe(
    "Confirmed bookings whose balance was due before today and is not paid in full",
  ),
});

export const StatusCountsSchema = z.object({
  total: COUNT,
  byStatus: byStatus("Requests per status; every status of the kind is listed, 0 included"),
});

const OverviewSchema = InboxOverviewSchema.extend({
  counts: z.object(
    Object.fromEntries(REQUEST_KINDS.map((kind) => [kind, StatusCountsSchema])) as Record<
      RequestKind,
      typeof StatusCountsSchema
    >,
  ),
}).meta({ id: "Overview" });

export const getInboxOverview = defineOperation({
  id: "getInboxOverview",
  method: "get",
  path: "/api/admin/overview",
  summary: "Counts for the inbox's overview",
  tags: ["staff"],
  security: STAFF_SESSION,
  responses: {
    200: { description: "Counts per kind and status, and per week", schema: OverviewSchema },
    ...adminGuardAnswers(false),
  },
});

/** How each collection is named in operationIds and descriptions. */
const COLLECTION_NAMES: Record<RequestKind, { one: string; many: string; label: string }> = {
  booking_request: { one: "BookingRequest", many: "BookingRequests", label: "booking request" },
  property_booking: { one: "PropertyBooking", many: "PropertyBookings", label: "property booking" },
  membership: {
    one: "MembershipApplication",
    many: "MembershipApplications",
    label: "membership application",
  },
};

const emptyAsUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

/** The statuses of a kind as a zod enum, refused with the inbox's own message. */
const statusOf = (kind: RequestKind) =>
  z.enum(statusesOf(kind) as [RequestStatus, ...RequestStatus[]], "staff.validation.statusInvalid");

/**
 * The inbox filter as query parameters, `kind` being the collection's path. A status this kind
 * never has is refused with 400, as the inbox page refuses it.
 */
function filterQuery(kind: RequestKind) {
  const filter = InboxFilterSchema.shape;
  return z.object({
    status: z
      .preprocess(emptyAsUndefined, statusOf(kind).optional())
      .describe("Only requests in this status"),
    q: filter.q.describe(
      "A reference (exact), part of the guest's email or name, or at least three digits of the phone number",
    ),
    from: filter.from.describe("Sent on or after this day (YYYY-MM-DD, UTC)"),
    to: filter.to.describe("Sent on or before this day (YYYY-MM-DD, UTC)"),
    propertyId: filter.propertyId.describe("Only requests for this property"),
    memberStatus: filter.memberStatus.describe("Only guests with this member status"),
    money: filter.money.describe(
      "Only requests whose money is in this state today: an offer awaiting the guest, a deposit or balance to collect, a balance past its due day, paid in full, or a refund owed",
    ),
    sort: filter.sort.describe("Newest or oldest first, or `due`: open requests soonest due first"),
  });
}

/** List, export, read, change and annotate the requests of one kind. */
export function collectionOperations(kind: RequestKind) {
  const path = `/api${STAFF_COLLECTIONS[kind]}`;
  const { one, many, label } = COLLECTION_NAMES[kind];
  const statuses = statusesOf(kind);
  const refusals = processOf(kind).refusals;
  const params = z.object({
    // A malformed id is a request that does not exist (404): the format is documented, not enforced.
    id: z.string().meta({ format: "uuid" }).describe(`The ${label}'s id`),
  });
  const notFound = error(`No ${label} with this id`, ["not_found"]);
  const filter = filterQuery(kind);

  const list = defineOperation({
    id: `list${many}`,
    method: "get",
    path,
    summary: `List ${label}s`,
    tags: ["inbox"],
    description: `One page of ${label}s, newest first unless \`sort=oldest\`. Pages follow a cursor, so a request arriving meanwhile neither repeats nor hides a row.`,
    security: STAFF_SESSION,
    query: filter.extend({
      after: InboxFilterSchema.shape.after.describe(
        "Where the page starts: the cursor in the previous page's Link header",
      ),
      limit: InboxFilterSchema.shape.limit.describe("Requests per page"),
    }),
    responses: {
      200: {
        description: "One page",
        headers: {
          "X-Total-Count": {
            description: "How many requests match the filter, on every page",
            schema: COUNT,
          },
          Link: {
            description: `The next page, when there is one: \`<{site}${path}?after=…>; rel="next"\`, the site's public address first`,
            // Only when there is a next page.
            schema: z.string().optional(),
          },
        },
        schema: z.array(InboxItemSchema),
      },
      400: invalid("Invalid filter: a status this kind never has, a bad date, cursor or limit"),
      ...adminGuardAnswers(false),
    },
  });

  const exportCsv = defineOperation({
    id: `export${many}Csv`,
    method: "get",
    path: `${path}/export.csv`,
    summary: `Export ${label}s as CSV`,
    tags: ["inbox"],
    description:
      "Every request that matches the filter, not one page, in the list's order. UTF-8 with a byte-order mark; " +
      "column headers, statuses and options in the caller's language. A cell a spreadsheet would run as a formula starts with an apostrophe.",
    security: STAFF_SESSION,
    query: filter,
    responses: {
      200: {
        description: "The CSV file",
        headers: {
          "Content-Disposition": {
            description: `\`attachment; filename="${kind}-YYYY-MM-DD.csv"\` (today's date)`,
            schema: z.string(),
          },
        },
        contentType: "text/csv",
        schema: z.string(),
      },
      400: invalid("Invalid filter"),
      ...adminGuardAnswers(false),
    },
  });

  const get = defineOperation({
    id: `get${one}`,
    method: "get",
    path: `${path}/{id}`,
    summary: `One ${label} with its history and notes`,
    tags: ["inbox"],
    security: STAFF_SESSION,
    params,
    responses: {
      200: { description: `The ${label}`, schema: RequestDetailSchema },
      404: notFound,
      ...adminGuardAnswers(false),
    },
  });

  const updateStatus = defineOperation({
    id: `update${one}Status`,
    method: "patch",
    path: `${path}/{id}`,
    summary: `Change a ${label}'s status`,
    tags: ["inbox"],
    description:
      `The statuses of a ${label}: ${statuses.join(", ")}. ${refusals.join(" and ")} ${refusals.length === 1 ? "needs" : "need"} a \`reason\`. ` +
      "The change and its reason join the request's history; `shareReason` shows the reason to the guest, `notifyGuest` mails them. " +
      "Confirming over busy times of imported calendars takes `confirmOverImported: true`; a confirmed stay or a block of the estate refuses it whatever. " +
      "With `version` (the request's version when it was read), a request someone changed since is left as it is: 409.",
    security: STAFF_SESSION,
    params,
    body: {
      schema: StatusChangeSchema.extend({ status: statusOf(kind) }).meta({
        id: `${one}StatusChange`,
      }),
    },
    responses: {
      200: { description: "Changed: the request as it is now", schema: RequestDetailSchema },
      400: invalid(
        `Validation failed: a status a ${label} cannot have, ${refusals.join(" or ")} without a reason, or malformed JSON`,
      ),
      404: notFound,
      409: {
        description:
          "Nothing was written; `code` says why. Either changed by someone else since `version` (`version_conflict`; `current` is the request as it is now), " +
          "or, for Confirmed, the request's nights collide with a confirmed stay or a block of its estate (`calendar_collision`; `collidesWith` names them), " +
          "or imported calendars hold some of them and `confirmOverImported` was not given (`imported_busy`; `importedBusy` names them)",
        schema: z.union([
          StatusConflictSchema,
          CalendarCollisionAnswerSchema,
          ImportedBusyWarningSchema,
        ]),
      },
      ...JSON_BODY_ERRORS,
      ...adminGuardAnswers(true),
    },
  });

  const addNote = defineOperation({
    id: `add${one}Note`,
    method: "post",
    path: `${path}/{id}/notes`,
    summary: `Add an internal note to a ${label}`,
    tags: ["inbox"],
    description: "Notes are for staff only; the guest never sees them.",
    security: STAFF_SESSION,
    params,
    body: { schema: NewNoteSchema },
    responses: {
      201: { description: "The note, signed with the author's name", schema: RequestNoteSchema },
      400: invalid("Empty or too long a note, or malformed JSON"),
      404: notFound,
      ...JSON_BODY_ERRORS,
      ...adminGuardAnswers(true),
    },
  });

  return { list, exportCsv, get, updateStatus, addNote };
}

/** Each kind's collection, in the order of REQUEST_KINDS. */
export const COLLECTION_OPERATIONS = Object.fromEntries(
  REQUEST_KINDS.map((kind) => [kind, collectionOperations(kind)]),
) as Record<RequestKind, ReturnType<typeof collectionOperations>>;

/** The longest stay staff can set, in nights. */
export const STAY_MAX_NIGHTS = 366;

export const StaySettingSchema = z
  .strictObject({
    propertyId: EstateIdSchema.describe("The estate the request would take nights of"),
    start: IsoDateSchema.describe("The first night"),
    end: IsoDateSchema.describe("The check-out day (exclusive)"),
    version: StatusChangeSchema.shape.version,
  })
  .refine((stay) => !isIsoDate(stay.start) || !isIsoDate(stay.end) || stay.end > stay.start, {
    path: ["end"],
    message: "staff.stay.endAfterStart",
  })
  .refine((stay) => !isIsoDate(stay.start) || stay.end <= addDays(stay.start, STAY_MAX_NIGHTS), {
    path: ["end"],
    message: "staff.stay.tooLong",
  })
  .meta({ id: "StaySetting" });

/**
 * Setting the estate and nights a booking request or property booking would take:
 * "assign an estate" for a general request, exact nights for a flexible one.
 */
function setStayOperation(kind: StayKind) {
  const { one, label } = COLLECTION_NAMES[kind];
  return defineOperation({
    id: `set${one}Stay`,
    method: "put",
    path: `/api${STAFF_COLLECTIONS[kind]}/{id}/stay`,
    summary: `Set the estate and nights a ${label} would take`,
    tags: ["inbox"],
    description:
      "Recorded in the request's history. The nights are checked against the estate's calendar: " +
      "confirmed stays and blocks refuse them (409 naming them). A Confirmed request moves its stay " +
      "in the same transaction; a pending one takes its nights when confirmed.",
    security: STAFF_SESSION,
    params: z.object({
      id: z.string().meta({ format: "uuid" }).describe(`The ${label}'s id`),
    }),
    body: { schema: StaySettingSchema },
    responses: {
      200: { description: "Set: the request as it is now", schema: RequestDetailSchema },
      400: invalid(
        "Malformed dates, the end not after the start, too long a stay, or malformed JSON",
      ),
      404: error(`No ${label} with this id, or no estate with this id`, ["not_found"]),
      409: {
        description:
          "Nothing was written: changed by someone else since `version` (`version_conflict`), or the nights are taken (`calendar_collision`, `collidesWith`)",
        schema: z.union([StatusConflictSchema, CalendarCollisionAnswerSchema]),
      },
      ...JSON_BODY_ERRORS,
      ...adminGuardAnswers(true),
    },
  });
}

export const STAY_OPERATIONS = {
  booking_request: setStayOperation("booking_request"),
  property_booking: setStayOperation("property_booking"),
} satisfies Record<StayKind, Operation>;

import { DUE_MAX_DAYS } from "../requests/process.ts";

export { DUE_MAX_DAYS };

export const DueSettingSchema = z
  .strictObject({
    dueAt: z.iso
      .datetime({ offset: true, message: "staff.lifecycle.extend.invalid" })
      .describe("The new due time (ISO 8601 with a time zone); it must lie in the future"),
    version: StatusChangeSchema.shape.version,
  })
  .meta({ id: "DueSetting" });

/** Moving the due time of an open request: "extend" in the details. */
function setDueOperation(kind: RequestKind) {
  const { one, label } = COLLECTION_NAMES[kind];
  return defineOperation({
    id: `set${one}Due`,
    method: "put",
    path: `/api${STAFF_COLLECTIONS[kind]}/{id}/due`,
    summary: `Move a ${label}'s due time`,
    tags: ["inbox"],
    description:
      "An open request still waiting for an answer is closed by the system at its due time. " +
      `This moves it (at most ${DUE_MAX_DAYS} days ahead), records who and the new time in the history, ` +
      "and sends staff a new reminder at three quarters of the new window.",
    security: STAFF_SESSION,
    params: z.object({
      id: z.string().meta({ format: "uuid" }).describe(`The ${label}'s id`),
    }),
    body: { schema: DueSettingSchema },
    responses: {
      200: { description: "Moved: the request as it is now", schema: RequestDetailSchema },
      400: invalid(
        "Not a date-time with a time zone, not in the future, too far ahead, or malformed JSON",
      ),
      404: error(`No ${label} with this id`, ["not_found"]),
      409: {
        description:
          "Nothing was written: changed by someone else since `version` (`version_conflict`), or no longer open, answered or closed (`request_closed`)",
        schema: StatusConflictSchema,
      },
      ...JSON_BODY_ERRORS,
      ...adminGuardAnswers(true),
    },
  });
}

export const DUE_OPERATIONS = Object.fromEntries(
  REQUEST_KINDS.map((kind) => [kind, setDueOperation(kind)]),
) as Record<RequestKind, ReturnType<typeof setDueOperation>>;

export const INBOX_OPERATIONS = [
  getInboxOverview,
  ...REQUEST_KINDS.flatMap((kind) => Object.values(COLLECTION_OPERATIONS[kind])),
  ...Object.values(STAY_OPERATIONS),
  ...Object.values(DUE_OPERATIONS),
];
