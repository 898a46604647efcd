import { z } from "zod";
import {
  DateTimeSchema,
  defineOperation,
  error,
  invalid,
  JSON_BODY_ERRORS,
} from "../api/operation.ts";
import { IsoDateSchema } from "../calendar/calendar.schema.ts";
import { REQUEST_STATUSES } from "../requests/options.ts";
import {
  EstateIdSchema,
  EstateQuerySchema,
  estateGuardAnswers,
  OWNER_OR_STAFF,
} from "./owners.contract.ts";
import {
  OWNER_REQUEST_COLLECTIONS,
  OWNER_REQUESTS_LIMIT,
  OWNER_VIEW_NOTE_MAX_LENGTH,
} from "./owner-requests.schema.ts";

/**
 * The owner in the loop: the requests for an estate as its owner reads them,
 * and the view the owner gives on a pending one. What of the guest the owner sees is decision
 * 0017's: first name, country, party and dates; the surname once the stay is confirmed; never
 * contact details or the guest's own words.
 */

const CollectionSchema = z
  .enum(Object.keys(OWNER_REQUEST_COLLECTIONS) as ["bookings", "booking-requests"])
  .describe(
    "Where staff keep the request: `bookings` (a property booking) or `booking-requests` (a general request staff assigned to the estate)",
  );

export const OwnerViewSchema = z
  .object({
    agree: z.boolean().describe("'Agree' (true) or 'Decline' (false)"),
    note: z.string().nullable(),
    givenBy: z
      .enum(["owner", "staff"])
      .describe("`staff` when an admin recorded it for the owner from the dashboard"),
    givenByEmail: z.string(),
    givenAt: DateTimeSchema,
  })
  .meta({ id: "OwnerView", description: "The owner's view of a pending request" });

export const OwnerRequestSchema = z
  .object({
    collection: CollectionSchema,
    id: z.guid(),
    reference: z.string(),
    status: z.enum(REQUEST_STATUSES),
    receivedAt: DateTimeSchema,
    propertyId: EstateIdSchema,
    stayStart: IsoDateSchema.nullable().describe(
      "The first night; null while staff have not set it",
    ),
    stayEnd: IsoDateSchema.nullable().describe("The check-out day (exclusive)"),
    guests: z.number().int().nullable().describe("The party size the guest gave"),
    firstName: z.string().describe("The guest's first name"),
    lastName: z
      .string()
      .nullable()
      .describe("The guest's surname, once the stay is Confirmed; null before"),
    countryCode: z.string().nullable().describe("The guest's country of residence, ISO 3166-1"),
    country: z.string().nullable().describe("The same, named in the caller's language"),
    nights: z
      .enum(["free", "taken", "held"])
      .nullable()
      .describe(
        "`free`: no confirmed stay or block holds any of the nights; `taken`: one does; `held`: the request is Confirmed and holds them; null without nights or once closed",
      ),
    canGiveView: z.boolean().describe("Whether the request is still pending, so a view counts"),
    view: OwnerViewSchema.nullable().describe("The latest view given; null when none"),
    money: z
      .object({
        offerStatus: z.enum(["sent", "accepted", "declined", "expired", "withdrawn"]),
        currency: z.string(),
        total: z.number().int().describe("The offer's total, in minor units of `currency`"),
        paid: z.number().int().describe("Paid on it so far, refunds deducted"),
        outstanding: z.number().int().describe("Still to pay of the total"),
      })
      .nullable()
      .describe("The offer staff sent and the money paid on it; null before an offer"),
  })
  .meta({
    id: "OwnerRequest",
    description: "A request for the estate as its owner sees it: never the guest's email or phone",
  });

export const OwnerRequestsSchema = z
  .object({ propertyId: EstateIdSchema, requests: z.array(OwnerRequestSchema) })
  .meta({ id: "OwnerRequests" });

export const OwnerViewInputSchema = z
  .strictObject({
    agree: z.boolean("owner.ownerRequests.errors.agreeRequired"),
    note: z
      .string()
      .max(OWNER_VIEW_NOTE_MAX_LENGTH, "owner.ownerRequests.errors.noteTooLong")
      .optional(),
  })
  .meta({ id: "OwnerViewInput" });

export const listOwnerRequestsOperation = defineOperation({
  id: "listOwnerRequests",
  method: "get",
  path: "/api/property-owners/requests",
  summary: "The requests for the estate, for its owner",
  tags: ["owners"],
  description:
    `The estate's property bookings and the general requests staff assigned to it, newest first (at most ${OWNER_REQUESTS_LIMIT}), ` +
    "each with its dates, party, status, the guest's first name and country, whether the nights are free and the owner's latest view. " +
    "No guest email, phone or free text; the surname only once the stay is Confirmed.",
  security: OWNER_OR_STAFF,
  query: EstateQuerySchema,
  responses: {
    200: { description: "The requests", schema: OwnerRequestsSchema },
    ...estateGuardAnswers(false),
  },
});

export const giveOwnerViewOperation = defineOperation({
  id: "giveOwnerRequestView",
  method: "post",
  path: "/api/property-owners/requests/{collection}/{id}/view",
  summary: "Agree or decline a pending request, as the estate's owner",
  tags: ["owners"],
  description:
    "Records the owner's view of a pending request for one of their estates, with an optional note, for staff to read before they decide. " +
    "Every view is kept; the latest counts. A staff admin on the dashboard may record one for the owner (marked as theirs).",
  security: OWNER_OR_STAFF,
  params: z.object({ collection: CollectionSchema, id: z.string().max(64) }),
  query: EstateQuerySchema,
  body: { schema: OwnerViewInputSchema },
  responses: {
    201: { description: "The view as recorded", schema: OwnerViewSchema },
    400: invalid(
      `No \`agree\` boolean, a note longer than ${OWNER_VIEW_NOTE_MAX_LENGTH} characters, an unknown field or malformed JSON`,
    ),
    409: error("Staff have already decided the request: a view no longer counts", [
      "request_decided",
    ]),
    ...JSON_BODY_ERRORS,
    ...estateGuardAnswers(
      true,
      "; or no request of the caller's estates with this collection and id",
      ["not_found"],
    ),
  },
});

export const OWNER_REQUEST_OPERATIONS = [listOwnerRequestsOperation, giveOwnerViewOperation];

export type OwnerRequestsAnswer = z.output<typeof OwnerRequestsSchema>;
export type OwnerRequestAnswer = z.output<typeof OwnerRequestSchema>;
