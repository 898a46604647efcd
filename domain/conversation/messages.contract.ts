import { z } from "zod";
import {
  CROSS_ORIGIN,
  DateTimeSchema,
  defineOperation,
  error,
  invalid,
  JSON_BODY_ERRORS,
  PUBLIC,
  STAFF_SESSION,
} from "../api/operation.ts";
import { REQUEST_KINDS, type RequestKind } from "../requests/options.ts";
import {
  BotCheckErrorSchema,
  NO_STORE,
  RATE_LIMIT_HEADERS,
  rateLimitAnswers,
} from "../requests/requests.contract.ts";
import { STAFF_COLLECTIONS } from "../staff/collections.ts";
import { adminGuardAnswers } from "../staff/staff-auth.contract.ts";
import { GuestMessageInputSchema, StaffMessageInputSchema } from "./messages.schema.ts";

/**
 * The conversation with the guest: staff read and write it under each request's
 * collection, the guest replies from their status page. Browser-safe: zod only.
 */

export const MessageSchema = z
  .object({
    id: z.number().int().min(1).describe("Rises with every message of every request"),
    author: z.enum(["staff", "guest"]),
    authorName: z
      .string()
      .nullable()
      .describe("The staff member's name when written; null for the guest"),
    body: z.string().describe("Plain text, shown as text"),
    createdAt: DateTimeSchema,
    readAt: DateTimeSchema.nullable().describe(
      "For a guest's message, when staff first read the thread; null while unread (and for staff messages)",
    ),
  })
  .meta({ id: "Message", description: "One message between staff and the guest" });
export type Message = z.infer<typeof MessageSchema>;

export const ThreadSchema = z.array(MessageSchema).describe("Oldest first");

export const MessageConflictSchema = z
  .object({
    message: z.string().describe("What happened, in the caller's language"),
    code: z.literal("message_conflict"),
    messages: ThreadSchema.describe("The thread as it is now"),
  })
  .meta({ id: "MessageConflict" });

const COLLECTION_LABELS: Record<RequestKind, { one: string; label: string }> = {
  booking_request: { one: "BookingRequest", label: "booking request" },
  property_booking: { one: "PropertyBooking", label: "property booking" },
  membership: { one: "MembershipApplication", label: "membership application" },
};

/** Read and write the thread of one request of a kind. */
function messageOperations(kind: RequestKind) {
  const { one, label } = COLLECTION_LABELS[kind];
  const path = `/api${STAFF_COLLECTIONS[kind]}/{id}/messages`;
  const params = z.object({
    id: z.string().meta({ format: "uuid" }).describe(`The ${label}'s id`),
  });
  const notFound = error(`No ${label} with this id`, ["not_found"]);

  const list = defineOperation({
    id: `list${one}Messages`,
    method: "get",
    path,
    summary: `The conversation with the guest of a ${label}`,
    tags: ["inbox"],
    description:
      "Every message, oldest first. Reading the thread marks the guest's messages read for all staff (the inbox's unread count drops to 0).",
    security: STAFF_SESSION,
    params,
    responses: {
      200: { description: "The thread", schema: ThreadSchema },
      404: notFound,
      ...adminGuardAnswers(false),
    },
  });

  const send = defineOperation({
    id: `send${one}Message`,
    method: "post",
    path,
    summary: `Write to the guest of a ${label}`,
    tags: ["inbox"],
    description:
      "The guest sees the message on their status page and gets it by mail, in their language, with their status link. " +
      "Separate from the internal notes. With `lastSeenMessageId`, a message another member of staff wrote since is a 409 and nothing is sent.",
    security: STAFF_SESSION,
    params,
    body: { schema: StaffMessageInputSchema },
    responses: {
      201: { description: "Sent: the thread as it is now", schema: ThreadSchema },
      400: invalid("Empty or too long a message, or malformed JSON"),
      404: notFound,
      409: {
        description: "Another member of staff wrote to the guest since `lastSeenMessageId`",
        schema: MessageConflictSchema,
      },
      ...JSON_BODY_ERRORS,
      ...adminGuardAnswers(true),
    },
  });
  return { list, send };
}

export const STAFF_MESSAGE_OPERATIONS = Object.fromEntries(
  REQUEST_KINDS.map((kind) => [kind, messageOperations(kind)]),
) as Record<RequestKind, ReturnType<typeof messageOperations>>;

export const replyToRequest = defineOperation({
  id: "replyToRequest",
  method: "post",
  path: "/api/requests/{token}/messages",
  summary: "The guest replies from their status page",
  description:
    "The token is the secret of the guest's status link. Plain text; the bot-check token (`turnstileToken`, else the X-Bot-Token header) is checked before anything is stored. " +
    "Messages are in the request's language (`?lang=`, the `lang` cookie or Accept-Language).",
  tags: ["requests"],
  security: PUBLIC,
  params: z.object({ token: z.string().describe("The status link's token") }),
  headers: z.object({
    "X-Bot-Token": z
      .string()
      .optional()
      .describe("The bot-check token, when the body's `turnstileToken` is empty."),
  }),
  body: { schema: GuestMessageInputSchema },
  responses: {
    201: {
      description: "Stored: the thread as the guest sees it",
      schema: ThreadSchema,
      headers: { ...NO_STORE, ...RATE_LIMIT_HEADERS },
    },
    400: invalid("Empty or too long a message, or malformed JSON"),
    403: {
      description:
        "Bot check missing, invalid, expired or already used (`error: invalid_bot_token`); or " +
        CROSS_ORIGIN.toLowerCase(),
      schema: BotCheckErrorSchema,
    },
    404: error("No request has this status link", ["not_found"]),
    ...JSON_BODY_ERRORS,
    ...rateLimitAnswers("messages"),
  },
});

export const CONVERSATION_OPERATIONS = [
  ...REQUEST_KINDS.flatMap((kind) => Object.values(STAFF_MESSAGE_OPERATIONS[kind])),
  replyToRequest,
];
