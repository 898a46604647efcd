import { z } from "zod";
import { defineOperation, invalid, JSON_BODY_ERRORS, STAFF_SESSION } from "../api/operation.ts";
import { LANGUAGES } from "#i18n/config.ts";
import { FORM_LIMITS } from "../requests/options.ts";
import { adminGuardAnswers } from "../staff/staff-auth.contract.ts";

/**
 * A guest's right to erasure (GDPR art. 17), carried out by an admin: every request sent from
 * an address loses its guest data at once, as the retention job would erase it. Written once
 * for the route, the document and the staff page.
 */

const COUNT = z.number().int().min(0);

const EMAIL = z
  .string({ error: "staff.privacy.emailInvalid" })
  .trim()
  .max(FORM_LIMITS.emailMax, "staff.privacy.emailInvalid")
  .regex(z.regexes.email, "staff.privacy.emailInvalid");

export const PersonalDataEraseSchema = z
  .object({
    email: EMAIL,
    reason: z
      .string({ error: "staff.privacy.reasonRequired" })
      .trim()
      .min(3, "staff.privacy.reasonRequired")
      .max(500, "staff.privacy.reasonTooLong"),
    /** Count what would go, erase nothing: the confirm step. */
    dryRun: z.boolean().default(false),
  })
  .meta({ id: "PersonalDataErase" });

export const PersonalDataErasedSchema = z
  .object({
    dryRun: z.boolean(),
    requests: COUNT.describe("Requests from the address whose guest data goes (or went)"),
    messages: COUNT.describe("Messages of the conversation on them"),
    mails: COUNT.describe("Mails about them, in the outbox and on disk"),
    references: z.array(z.string()).describe("The requests' references, which stay"),
  })
  .meta({ id: "PersonalDataErased" });

export const erasePersonalData = defineOperation({
  id: "erasePersonalData",
  method: "post",
  path: "/api/admin/personal-data/erase",
  summary: "Erase a guest's personal data",
  tags: ["privacy"],
  description:
    "Every request sent from `email` (any case) loses its guest data now, as the retention job erases it: name, contact, free text, conversation, notes, mails. " +
    "The requests keep their reference, dates, estate, status history and amounts. `dryRun` counts what would go and changes nothing. " +
    "Webhook subscribers get a `guest.erased` event (the references, no contact) to erase their copies; the security log keeps the admin and the reason, not the address.",
  security: STAFF_SESSION,
  body: { schema: PersonalDataEraseSchema },
  responses: {
    200: { description: "What went (or would go)", schema: PersonalDataErasedSchema },
    400: invalid("Not an email address, no reason (3 to 500 characters), or malformed JSON"),
    ...JSON_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const PersonalDataQuerySchema = z.object({
  email: EMAIL.describe("The guest's email address (any case)"),
});

const AT = z.string().describe("ISO 8601");

export const PersonalDataReportSchema = z
  .object({
    email: z.string(),
    requests: z
      .array(
        z.object({
          reference: z.string(),
          kind: z.string(),
          status: z.string(),
          language: z.string(),
          firstName: z.string(),
          lastName: z.string(),
          email: z.string(),
          phone: z.string(),
          stayStart: z.string().nullable(),
          stayEnd: z.string().nullable(),
          details: z.record(z.string(), z.unknown()).describe("The form as the guest sent it"),
          createdAt: AT,
          updatedAt: AT,
        }),
      )
      .describe("Every request sent from the address, oldest first"),
    messages: z
      .array(
        z.object({ reference: z.string(), author: z.string(), body: z.string(), createdAt: AT }),
      )
      .describe("The conversation on them"),
    mails: z
      .array(
        z.object({
          reference: z.string().nullable(),
          template: z.string(),
          subject: z.string(),
          status: z.string(),
          createdAt: AT,
          sentAt: AT.nullable(),
        }),
      )
      .describe("The mails about them, with when each was sent"),
    ownerViews: z
      .array(
        z.object({
          reference: z.string(),
          agree: z.boolean(),
          note: z.string().nullable(),
          createdAt: AT,
        }),
      )
      .describe("What estate owners said of them"),
    events: z
      .array(z.object({ reference: z.string().nullable(), type: z.string(), occurredAt: AT }))
      .describe("The events that carried the guest's contact details to webhook subscribers"),
  })
  .meta({ id: "PersonalDataReport" });

export const getPersonalData = defineOperation({
  id: "getPersonalData",
  method: "get",
  path: "/api/admin/personal-data",
  summary: "What is held about a guest",
  tags: ["privacy"],
  description:
    "Everything held about an email address (GDPR art. 15): its requests with their forms, the conversation, the mails sent, owners' views and the events that carried its contact. " +
    "Each look-up is written to the security log with the admin and the address.",
  security: STAFF_SESSION,
  query: PersonalDataQuerySchema,
  responses: {
    200: { description: "What is held", schema: PersonalDataReportSchema },
    400: invalid("Not an email address"),
    ...adminGuardAnswers(false),
  },
});

export const PersonalDataExportQuerySchema = z.object({
  email: EMAIL.describe("The guest's email address (any case)"),
  language: z
    .enum(LANGUAGES, { error: "staff.privacy.languageInvalid" })
    .optional()
    .describe("The copy's language; by default the language of the guest's latest request"),
});

export const exportPersonalData = defineOperation({
  id: "exportPersonalData",
  method: "get",
  path: "/api/admin/personal-data/export.html",
  summary: "A guest's data as a document to send them",
  tags: ["privacy"],
  description:
    "What `getPersonalData` reads, as one self-contained HTML file in the guest's language (labels, dates, statuses), for an admin to send to the guest. " +
    "Written to the security log as `personal_data.exported` with the admin, the address and the language.",
  security: STAFF_SESSION,
  query: PersonalDataExportQuerySchema,
  responses: {
    200: {
      description: "The document",
      headers: {
        "Content-Disposition": {
          description: '`attachment; filename="personal-data-YYYY-MM-DD.html"` (today\'s date)',
          schema: z.string(),
        },
      },
      contentType: "text/html",
      schema: z.string(),
    },
    400: invalid("Not an email address, or not one of the site's languages"),
    ...adminGuardAnswers(false),
  },
});

export const PRIVACY_OPERATIONS = [getPersonalData, exportPersonalData, erasePersonalData];
