import { CommissionChangeSchema, ResponseHoursChangeSchema } from "./estates.schema.ts";
import { z } from "zod";
import {
  DateTimeSchema,
  defineOperation,
  error,
  IGNORED_BODY_ERRORS,
  invalid,
  JSON_BODY_ERRORS,
  STAFF_SESSION,
} from "../api/operation.ts";
import {
  EstateIdSchema,
  OwnerPropertyDetailsSchema,
  StaleTranslationSchema,
} from "../owners/owners.contract.ts";
import {
  ESTATE_PAGE_SIZE,
  EstateSearchSchema,
  OwnerEmailChangeSchema,
  parseEstateId,
} from "./estates.schema.ts";
import { adminGuardAnswers } from "./staff-auth.contract.ts";

/**
 * The staff side of the owner area: find an estate, change its owner contact email,
 * read its history of changes by owners and staff, revert one, see stale translations. Written
 * once for the routes, the document and the staff's estate pages.
 */

const COUNT = z.number().int().min(0);

/**
 * An estate or revision id in a path. A malformed one (not a positive whole number that fits
 * 32 bits, written plainly) names nothing: the route answers 404, not 400.
 */
const PathIdSchema = z.preprocess((value) => parseEstateId(value) ?? value, EstateIdSchema);

export const StaffEstateRowSchema = z
  .object({
    id: EstateIdSchema,
    name: z.string().describe("In the caller's language, else English"),
    location: z.string(),
    ownerEmail: z.string().describe("The owner contact email on record"),
    claimedAt: DateTimeSchema.nullable().describe(
      "When the estate was last claimed with the email on record, if ever",
    ),
    staleCount: COUNT.describe("Translations flagged as out of date"),
    revisionCount: COUNT.describe("Changes by owners and staff, reverts left out"),
    lastChangeAt: DateTimeSchema.nullable(),
  })
  .meta({ id: "StaffEstateRow" });

export const StaffEstatePageSchema = z
  .object({
    estates: z.array(StaffEstateRowSchema),
    nextAfter: EstateIdSchema.nullable().describe(
      "The `after` of the next page; null on the last page",
    ),
  })
  .meta({ id: "StaffEstatePage" });

export const EstateRevisionSchema = z
  .object({
    id: z.number().int(),
    field: z
      .string()
      .describe(
        "An editable field, `images` (the shown images), `owner_email` or `uploads` (pictures added or deleted)",
      ),
    lang: z.string().describe("The language of a translated field's edit; `*` for the others"),
    oldValue: z.unknown().describe("The stored value before; null when there was none"),
    newValue: z.unknown().describe("The stored value after"),
    oldText: z.string().describe("The value before, as the editor shows it"),
    newText: z.string().describe("The value after, as the editor shows it"),
    actorRole: z.enum(["owner", "staff"]),
    actor: z.string().describe("The email of the owner or the member of staff"),
    createdAt: DateTimeSchema,
    revertedAt: DateTimeSchema.nullable(),
    revertedBy: z.string().nullable().describe("The email of who reverted it"),
    revertOf: z.number().int().nullable().describe("The revision this one reverted"),
    revertable: z
      .boolean()
      .describe("Whether staff may revert it now: not yet reverted, a change that can be undone"),
  })
  .meta({
    id: "EstateRevision",
    description: "One change to an estate by an owner or a member of staff",
  });

export const StaffEstateSchema = z
  .object({
    estate: OwnerPropertyDetailsSchema,
    revisions: z
      .array(EstateRevisionSchema)
      .describe("Changes by owners and staff, newest first (the latest 200)"),
    stale: z
      .array(StaleTranslationSchema)
      .describe("Translations flagged as out of date, by field then language"),
    responseHours: z
      .number()
      .nullable()
      .describe(
        "Hours staff have to answer a request for this estate before the system rejects it; null: the site's REQUEST_RESPONSE_HOURS",
      ),
    commissionPercent: z
      .number()
      .nullable()
      .describe(
        "The network's share of this estate's stays on its owner's statements, in percent; null: the site's OWNER_COMMISSION_PERCENT",
      ),
  })
  .meta({ id: "StaffEstate" });

const OwnerEmailChangedSchema = z
  .object({
    email: z.string().meta({ format: "email" }),
    changed: z.boolean().describe("False when the estate already had this email"),
  })
  .meta({ id: "OwnerEmailChanged" });

const RevisionRevertedSchema = z
  .object({
    revisionId: z.number().int().describe("The new revision that records the revert"),
  })
  .meta({ id: "RevisionReverted" });

const RevertConflictSchema = z
  .object({
    message: z.string(),
    code: z.literal("version_conflict"),
    current: z.string().describe("The field's value now, as the editor shows it"),
  })
  .meta({ id: "RevertConflict" });

const estateId = PathIdSchema.describe("The estate's id");
const noEstate = error("No estate with this id", ["estate_not_found"]);

export const listStaffEstates = defineOperation({
  id: "listStaffEstates",
  method: "get",
  path: "/api/admin/estates",
  summary: "List or search the estates",
  tags: ["estates"],
  description:
    `${ESTATE_PAGE_SIZE} estates a page, by id, each named in the caller's language (else English) with its owner email, its last claim with that email, and its counts of changes and stale translations. ` +
    "Pages follow a cursor: `after` is the previous page's `nextAfter`.",
  security: STAFF_SESSION,
  query: z.object({
    q: EstateSearchSchema.shape.q.describe(
      "Part of an estate's name, in any language, or of its owner email",
    ),
    after: EstateSearchSchema.shape.after.describe(
      "Where the page starts: the previous page's `nextAfter`",
    ),
  }),
  responses: {
    200: { description: "One page", schema: StaffEstatePageSchema },
    400: invalid("A search longer than 100 characters, or a bad cursor"),
    ...adminGuardAnswers(false),
  },
});

export const getStaffEstate = defineOperation({
  id: "getStaffEstate",
  method: "get",
  path: "/api/admin/estates/{id}",
  summary: "One estate with its history and stale translations",
  tags: ["estates"],
  description:
    "The owner record as the owner sees it (in the caller's language, else English), the changes by owners and staff (newest first), and the translations flagged as out of date.",
  security: STAFF_SESSION,
  params: z.object({ id: estateId }),
  responses: {
    200: { description: "The estate", schema: StaffEstateSchema },
    404: noEstate,
    ...adminGuardAnswers(false),
  },
});

export const setEstateOwnerEmail = defineOperation({
  id: "setEstateOwnerEmail",
  method: "patch",
  path: "/api/admin/estates/{id}/owner-email",
  summary: "Change an estate's owner contact email",
  tags: ["estates"],
  description:
    "Claims made with the former email stop granting access at once; the owner of the new email claims the estate through the owner flow. " +
    "The email is stored trimmed and in lower case; a change joins the estate's history.",
  security: STAFF_SESSION,
  params: z.object({ id: estateId }),
  body: { schema: OwnerEmailChangeSchema.meta({ id: "OwnerEmailChange" }) },
  responses: {
    200: {
      description: "The email on record now, and whether it changed",
      schema: OwnerEmailChangedSchema,
    },
    400: invalid("Missing or not an email, or malformed JSON"),
    404: noEstate,
    ...JSON_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const revertEstateRevision = defineOperation({
  id: "revertEstateRevision",
  method: "post",
  path: "/api/admin/estates/{id}/revisions/{revisionId}/revert",
  summary: "Undo one change to an estate",
  tags: ["estates"],
  description:
    "Puts the field back to the value it had before the revision, as a new revision by the staff member, and marks the revision reverted. " +
    "Refused when the field has changed again since, so no later change is lost unseen. Undoing an edit of a translated field also clears the out-of-date flags it raised.",
  security: STAFF_SESSION,
  params: z.object({
    id: estateId,
    revisionId: PathIdSchema.describe("The revision's id (`id` of an EstateRevision)"),
  }),
  responses: {
    200: {
      description: "Reverted: the id of the revision that records it",
      schema: RevisionRevertedSchema,
    },
    404: error("No such estate, or no such revision of it", [
      "estate_not_found",
      "revision_not_found",
    ]),
    409: {
      description:
        "The field has changed since the revision; nothing was written, `current` is its value now",
      schema: RevertConflictSchema,
    },
    422: error(
      "Not revertable (a kind of change that cannot be undone, or one that gave a required field its first value), or already reverted",
      ["not_revertable", "already_reverted"],
    ),
    ...IGNORED_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const setEstateResponseHours = defineOperation({
  id: "setEstateResponseHours",
  method: "put",
  path: "/api/admin/estates/{id}/response-hours",
  summary: "Set the hours staff have to answer a request for an estate",
  tags: ["estates"],
  description:
    "A request for this estate (a property booking, or a general request arriving for it) is due this many hours after it arrives; " +
    "`null` returns to the site's REQUEST_RESPONSE_HOURS. Requests already received keep their due time.",
  security: STAFF_SESSION,
  params: z.object({ id: estateId }),
  body: { schema: ResponseHoursChangeSchema.meta({ id: "ResponseHoursChange" }) },
  responses: {
    200: {
      description: "The estate's response hours now",
      schema: z.object({ responseHours: z.number().nullable() }).meta({ id: "ResponseHours" }),
    },
    400: invalid("Not a number of hours between 0.01 and 8760 (or null), or malformed JSON"),
    404: noEstate,
    ...JSON_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const setEstateCommission = defineOperation({
  id: "setEstateCommission",
  method: "put",
  path: "/api/admin/estates/{id}/commission",
  summary: "Set the network's commission on an estate's stays",
  tags: ["estates"],
  description:
    "The share of each stay's total the owner's statement keeps for the network, in percent (at most two decimals); " +
    "`null` returns to the site's OWNER_COMMISSION_PERCENT. Statements read it when they are asked for, months past included.",
  security: STAFF_SESSION,
  params: z.object({ id: estateId }),
  body: { schema: CommissionChangeSchema.meta({ id: "CommissionChange" }) },
  responses: {
    200: {
      description: "The estate's commission now",
      schema: z
        .object({ commissionPercent: z.number().nullable() })
        .meta({ id: "EstateCommission" }),
    },
    400: invalid(
      "Not a percentage from 0 to 100 with at most two decimals (or null), or malformed JSON",
    ),
    404: noEstate,
    ...JSON_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const STAFF_ESTATE_OPERATIONS = [
  listStaffEstates,
  getStaffEstate,
  setEstateOwnerEmail,
  setEstateResponseHours,
  setEstateCommission,
  revertEstateRevision,
];
