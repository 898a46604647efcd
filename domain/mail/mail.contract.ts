import { z } from "zod";
import {
  DateTimeSchema,
  defineOperation,
  error,
  IGNORED_BODY_ERRORS,
  OkSchema,
  STAFF_SESSION,
} from "../api/operation.ts";
import { adminGuardAnswers } from "../staff/staff-auth.contract.ts";

/**
 * The mail the outbox could not deliver, as staff see and handle it (list, send again, give
 * up), written once for the route, the document and the staff's mail page.
 */

const COUNT = z.number().int().min(0);

export const UndeliveredMailSchema = z
  .object({
    id: z.guid(),
    recipient: z.string().meta({ format: "email" }),
    subject: z.string(),
    template: z.string().meta({ examples: ["booking_request.status"] }),
    requestId: z.guid().nullable(),
    reference: z
      .string()
      .nullable()
      .describe("The reference of the request the mail belongs to, if it still exists"),
    attempts: COUNT,
    lastError: z.string().nullable(),
    createdAt: DateTimeSchema,
  })
  .meta({ id: "UndeliveredMail" });

export const UndeliveredMailListSchema = z
  .object({
    mails: z.array(UndeliveredMailSchema).describe("Newest first"),
    failedCount: COUNT.describe("Every failed mail, those beyond the list included"),
    pendingCount: COUNT.describe(
      "Pending mail that is late: a try failed, or it has waited over a minute",
    ),
    oldestWaitingSince: DateTimeSchema.nullable().describe(
      "When the oldest late mail was queued; null when none is late",
    ),
    lastWaitingError: z
      .string()
      .nullable()
      .describe("The error of the latest failed try among the late mail"),
  })
  .meta({ id: "UndeliveredMailList" });

const MailIdSchema = z.object({
  // A malformed id is a mail that does not exist (404), so the format is documented, not enforced.
  id: z
    .string()
    .meta({ format: "uuid" })
    .describe("The mail's id (from the list of undelivered mail)"),
});

const mailNotFailed = error(
  "The mail is not failed: it is still being retried, sent or discarded",
  ["mail_not_failed"],
);

export const listUndeliveredMail = defineOperation({
  id: "listUndeliveredMail",
  method: "get",
  path: "/api/admin/mail",
  summary: "Mail the outbox gave up on",
  tags: ["staff"],
  security: STAFF_SESSION,
  responses: {
    200: {
      description:
        "The newest 50 failed mails, how many failed in all and how many are still being retried",
      schema: UndeliveredMailListSchema,
    },
    ...adminGuardAnswers(false),
  },
});

export const retryUndeliveredMail = defineOperation({
  id: "retryUndeliveredMail",
  method: "post",
  path: "/api/admin/mail/{id}/retry",
  summary: "Send a failed mail again",
  tags: ["staff"],
  security: STAFF_SESSION,
  params: MailIdSchema,
  responses: {
    200: { description: "Queued again with a fresh set of attempts, due now", schema: OkSchema },
    404: error("No such mail", ["not_found"]),
    409: mailNotFailed,
    ...IGNORED_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const discardUndeliveredMail = defineOperation({
  id: "discardUndeliveredMail",
  method: "delete",
  path: "/api/admin/mail/{id}",
  summary: "Give up on a failed mail",
  tags: ["staff"],
  description: "The mail leaves the list of undelivered mail and is never sent.",
  security: STAFF_SESSION,
  params: MailIdSchema,
  responses: {
    204: { description: "Discarded" },
    404: error("No such mail", ["not_found"]),
    409: mailNotFailed,
    ...IGNORED_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const MAIL_OPERATIONS = [listUndeliveredMail, retryUndeliveredMail, discardUndeliveredMail];
