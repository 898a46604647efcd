import { z } from "zod";
import { defineOperation, invalid, JSON_BODY_ERRORS, STAFF_SESSION } from "../api/operation.ts";
import { FORM_LIMITS } from "../requests/options.ts";
import { adminGuardAnswers } from "../staff/staff-auth.contract.ts";

/**
 * A guest's right to erasure (GDPR art. 17), carried out by an admin: every request sent from
 * an address loses its guest data at once, as the retention job would erase it. Written once
 * for the route, the document and the staff page.
 */

const COUNT = z.number().int().min(0);

export const PersonalDataEraseSchema = z
  .object({
    email: z
      .string({ error: "staff.privacy.emailInvalid" })
      .trim()
      .max(FORM_LIMITS.emailMax, "staff.privacy.emailInvalid")
      .regex(z.regexes.email, "staff.privacy.emailInvalid"),
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

export const PRIVACY_OPERATIONS = [erasePersonalData];
