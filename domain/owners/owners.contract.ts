import { z } from "zod";
import type { ApiErrorCode } from "../api/error-codes.ts";
import {
  CROSS_ORIGIN,
  DateTimeSchema,
  defineOperation,
  error,
  IGNORED_BODY_ERRORS,
  invalid,
  JSON_BODY_ERRORS,
  OkSchema,
  PUBLIC,
  type ResponseSpec,
  type SecurityRequirements,
  SIGNED_OUT,
} from "../api/operation.ts";
import { ACCEPTED_UPLOAD_TYPES, UPLOAD_FIELD, UPLOAD_LIMITS } from "../media/upload-limits.ts";
import { LANGUAGES } from "#i18n/config.ts";
import { OWNER_CODE_MINUTES, OWNER_CODE_POLICY } from "./owner-code.ts";
import {
  EDITABLE_FIELDS,
  type EditableField,
  OWNER_LIMITS,
  TRANSLATED_FIELDS,
} from "./owner-fields.ts";

/**
 * The owner area's calls (verify the email, prove the code, claim; then edit the
 * estate), written once for the route, the document and the dashboard.
 */

const PROOF_MINUTES = OWNER_CODE_POLICY.proofTtlMs / 60_000;
/** The largest id PostgreSQL's integer holds: anything larger names no estate. */
const MAX_ID = 2_147_483_647;

/** A selection of images holds at most this many. */
export const MAX_SELECTED_IMAGES = 30;

export const EstateIdSchema = z.number().int().min(1).max(MAX_ID);
const LanguageSchema = z.enum(LANGUAGES);

const EmailSchema = z.string().max(254).meta({ format: "email" });

export const OwnerEmailSchema = z.strictObject({ email: EmailSchema }).meta({ id: "OwnerEmail" });

export const OwnerCodeSchema = z
  .strictObject({
    email: EmailSchema,
    code: z.string().max(32).describe(`The ${OWNER_CODE_POLICY.length}-digit code from the mail`),
  })
  .meta({ id: "OwnerCode" });

export const OwnerClaimRequestSchema = z
  .strictObject({
    email: EmailSchema,
    propertyId: EstateIdSchema.optional().describe(
      "The estate to claim, one of verify-code's `properties`; needed when the email has several",
    ),
  })
  .meta({ id: "OwnerClaimRequest" });

export const OwnerEstateSchema = z
  .object({ id: EstateIdSchema, name: z.string(), location: z.string() })
  .meta({
    id: "OwnerEstate",
    description: "An estate on record with the owner's email, named in the caller's language",
  });

export const OwnerEmailVerificationSchema = z
  .union([
    z
      .object({ propertyFound: z.literal(false) })
      .describe("No estate has this contact email; no code was sent"),
    z
      .object({ propertyFound: z.literal(true), codeSent: z.literal(true) })
      .describe("A code was mailed to this email"),
  ])
  .meta({ id: "OwnerEmailVerification" });

export const OwnerCodeVerificationSchema = z
  .object({
    propertyFound: z.boolean().describe("Whether any estate is still on record with the email"),
    property: OwnerEstateSchema.optional().describe("The first estate, when there is one"),
    properties: z.array(OwnerEstateSchema).describe("Every estate on record with the email, by id"),
  })
  .meta({ id: "OwnerCodeVerification" });

export const OwnerClaimSchema = z
  .object({ claimed: z.literal(true), property: OwnerEstateSchema })
  .meta({ id: "OwnerClaim" });

export const MoneySchema = z
  .object({ amount: z.number(), currency: z.string() })
  .meta({ id: "Money" });
export const PriceRangeSchema = z
  .object({ min: z.number(), max: z.number(), currency: z.string() })
  .meta({ id: "PriceRange" });
export const CoordinatesSchema = z
  .object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })
  .meta({ id: "Coordinates" });
export const WebsiteInfoSchema = z
  .object({
    url: z.string().optional(),
    email: z.string().optional(),
    phone: z.string().optional(),
    is_on_airbnb: z.boolean().optional(),
    facebook: z.string().optional(),
    instagram: z.string().optional(),
  })
  .meta({
    id: "WebsiteInfo",
    description: "What is known of the estate's own website; a key without a value is left out",
  });

export const OwnerImageSchema = z
  .object({
    key: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    selectedRank: z
      .number()
      .int()
      .min(1)
      .nullable()
      .describe("1-based place in the public gallery, or null when not shown"),
    uploaded: z.boolean().describe("An owner's upload (can be deleted), not a demo illustration"),
  })
  .meta({ id: "OwnerImage" });

export const StaleTranslationSchema = z
  .object({
    field: z.string(),
    lang: z.string(),
    sourceLang: z.string().describe("The language of the edit that left this one behind"),
    since: DateTimeSchema,
  })
  .meta({ id: "StaleTranslation", description: "A translated field that fell behind an edit" });

const nullableText = z.string().nullable();

export const OwnerPropertyDetailsSchema = z
  .object({
    id: EstateIdSchema,
    slug: z.string(),
    language: LanguageSchema,
    contactEmail: nullableText.describe("The owner's contact email on record"),
    name: z.string(),
    url: nullableText,
    location: z.string(),
    description: z.string(),
    history: nullableText,
    pricing: z.object({
      starting_price: MoneySchema.nullable(),
      price_range: PriceRangeSchema.nullable(),
    }),
    guest_capacity: z.number().int(),
    contact: z.object({
      phone: nullableText,
      address: nullableText,
      postal_code: nullableText,
      city: nullableText,
      coordinates: CoordinatesSchema.nullable(),
    }),
    facilities: z.array(z.string()),
    services: z.array(z.string()),
    activities: z.array(z.string()),
    accommodation: z.object({ beds: z.number().int(), description: nullableText }),
    images: z.array(z.string()).describe("Every image's address (800 px JPEG), in gallery order"),
    selectedImages: z
      .array(z.string())
      .describe("The shown images' addresses, in the order guests see them"),
    website_info: z.object({
      url: nullableText,
      email: nullableText,
      phone: nullableText,
      is_on_airbnb: z.boolean().nullable(),
      additional_images: z.array(z.string()),
      social_media: z.object({ facebook: nullableText, instagram: nullableText }),
      last_updated: nullableText,
      email_found_date: nullableText,
    }),
    scraped_at: nullableText,
    fields: z
      .object(
        Object.fromEntries(EDITABLE_FIELDS.map((field) => [field, z.string()])) as Record<
          EditableField,
          z.ZodString
        >,
      )
      .describe(
        "Each editable field as the editor shows it (lists as lines, objects as `key: value` lines)",
      ),
    gallery: z.array(OwnerImageSchema),
    stale: z.array(StaleTranslationSchema),
    estates: z
      .array(z.object({ id: EstateIdSchema, name: z.string() }))
      .describe("The estates this actor may open (an owner's claimed estates; empty for staff)"),
    actor: z.object({ role: z.enum(["owner", "staff"]), email: z.string() }),
  })
  .meta({
    id: "OwnerPropertyDetails",
    description:
      "The owner property record, in one language, and what the dashboard needs to edit it",
  });

const BodyPropertyIdSchema = EstateIdSchema.optional().describe(
  "The estate, when `?propertyId=` does not name it: an owner may leave it out, staff must name it",
);

export const ImageSelectionSchema = z
  .strictObject({
    selectedImages: z
      .array(z.string().max(300, "owner.errors.imagesInvalid"), {
        error: "owner.errors.imagesInvalid",
      })
      .max(MAX_SELECTED_IMAGES, "owner.errors.imagesInvalid")
      .describe(
        "Image keys or the addresses property-details gives (`/media/{key}/800.jpg`), in the order guests see them",
      ),
    propertyId: BodyPropertyIdSchema,
  })
  .meta({ id: "ImageSelection" });

export const ImageSelectionResultSchema = z
  .object({
    selectedImages: z.array(z.string()).describe("The selection as stored, as image keys"),
  })
  .meta({ id: "ImageSelectionResult" });

export const FieldChangeSchema = z
  .strictObject({
    field: z.enum(EDITABLE_FIELDS, { error: "owner.errors.unknownField" }),
    // The limits are the field schema's (owner-fields.ts), which names the one broken.
    value: z
      .union([z.string(), z.array(z.string())])
      .describe(
        `The field as the editor holds it: a string of at most ${OWNER_LIMITS.rawMax} characters (lines for a list, \`key: value\` lines for an object) or a list of at most ${OWNER_LIMITS.rawLinesMax} lines`,
      ),
    lang: LanguageSchema.optional().describe(
      "The language a translated field is edited in; else the request's language",
    ),
    propertyId: BodyPropertyIdSchema,
  })
  .meta({ id: "FieldChange" });

export const StoredFieldValueSchema = z
  .union([
    z.string(),
    z.number().int(),
    z.array(z.string()),
    MoneySchema,
    PriceRangeSchema,
    CoordinatesSchema,
    WebsiteInfoSchema,
    z.null(),
  ])
  .describe(
    "The value as stored: text, a list, a whole number, an object (price, price range, coordinates, website info), or null for a cleared field",
  );

export const FieldUpdateSchema = z
  .object({
    field: z.enum(EDITABLE_FIELDS),
    lang: LanguageSchema,
    value: StoredFieldValueSchema,
    formatted: z.string().describe("The value as the editor shows it"),
    changed: z.boolean().describe("False when the value was already so"),
  })
  .meta({ id: "FieldUpdate" });

export const OwnerImagesSchema = z
  .object({ images: z.array(OwnerImageSchema) })
  .meta({ id: "OwnerImages" });

export const DeletedImageSchema = z
  .object({ deleted: z.string().describe("The deleted image's key") })
  .meta({ id: "DeletedImage" });

export const OWNER_OR_STAFF: SecurityRequirements = [{ ownerSession: [] }, { staffSession: [] }];

/** `?propertyId=`, read by `estateAccess` (a JSON body's `propertyId` counts when it is absent). */
export const EstateQuerySchema = z.object({
  propertyId: z.coerce
    .number()
    .pipe(EstateIdSchema)
    .optional()
    .describe(
      "The estate. An owner may leave it out (their first claimed estate); staff must name it. A JSON body's `propertyId` counts when the query has none.",
    ),
});

/** The guard's answers on every estate call (`estateAccess`). */
export function estateGuardAnswers(
  changesState: boolean,
  notFound = "",
  notFoundCodes: readonly ApiErrorCode[] = [],
) {
  return {
    401: error("No session: not signed in, or the session expired or was revoked", SIGNED_OUT),
    403: error(
      "An owner naming an estate that is not theirs (whether it exists or not), or a staff account that is not an admin at the company domain" +
        (changesState ? `; or ${CROSS_ORIGIN.toLowerCase()}` : ""),
      changesState ? ["forbidden", "cross_origin"] : ["forbidden"],
    ),
    404: error(
      "No such estate: an unknown or malformed `propertyId`, a staff session without one, or an owner with no estate still on record with their email" +
        notFound,
      ["estate_not_found", "no_claimed_estate", ...notFoundCodes],
    ),
  } satisfies Record<number, ResponseSpec>;
}

const textHeader = (description: string) => ({ description, schema: z.string() });

export const verifyOwnerEmail = defineOperation({
  id: "verifyOwnerEmail",
  method: "post",
  path: "/api/property-owners/verify-email",
  summary: "Send a one-time code to an estate's owner email",
  tags: ["owners"],
  description:
    "Public: the first step of the owner flow. Every request counts against the email and the client's address before anything else. " +
    `When an estate has this contact email on record, a new ${OWNER_CODE_POLICY.length}-digit code (valid ${OWNER_CODE_MINUTES} minutes, ${OWNER_CODE_POLICY.maxAttempts} tries, one use) replaces any earlier one and is mailed in the caller's language.`,
  security: PUBLIC,
  body: { schema: OwnerEmailSchema },
  responses: {
    200: {
      description: "Whether an estate has this contact email, and so whether a code was sent",
      schema: OwnerEmailVerificationSchema,
    },
    400: invalid("Not an email address, a body with other fields, or malformed JSON"),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...JSON_BODY_ERRORS,
    429: {
      ...error("Too many codes asked for this email or from this address", ["too_many_codes"]),
      headers: {
        "Retry-After": {
          description: "Seconds until a code can be asked for again",
          schema: z.number().int().min(1),
        },
      },
    },
    503: error(
      "The code limiter cannot be reached, so no code is sent rather than sent unmetered",
      ["limiter_unavailable"],
    ),
  },
});

export const verifyOwnerCode = defineOperation({
  id: "verifyOwnerCode",
  method: "post",
  path: "/api/property-owners/verify-code",
  summary: "Prove the owner email with its code",
  tags: ["owners"],
  description:
    `Public: the second step. A wrong code uses one of the ${OWNER_CODE_POLICY.maxAttempts} tries, and the last wrong one ends the code. ` +
    `Wrong codes also count against the email across codes: after ${OWNER_CODE_POLICY.maxFailuresPerWindow} within ${OWNER_CODE_POLICY.failureWindowMs / 3_600_000} hours the email is locked, and only a code mailed after its latest wrong one is checked (one try). Asking for codes counts nothing. ` +
    `The right code is spent and sets the proof cookie that claim-property needs (${PROOF_MINUTES} minutes). ` +
    "The answer lists the estates on record with the email, named in the caller's language.",
  security: PUBLIC,
  body: { schema: OwnerCodeSchema },
  responses: {
    200: {
      description: "Proven",
      headers: {
        "Set-Cookie": textHeader(
          `The proof cookie \`castellum_owner_proof\` (the \`ownerProof\` scheme): HttpOnly, SameSite=Strict, Path=/api/property-owners, Secure in production, for ${PROOF_MINUTES} minutes.`,
        ),
      },
      schema: OwnerCodeVerificationSchema,
    },
    400: invalid(
      "A wrong code (the message says how many tries are left), a body with other fields, or malformed JSON",
      ["code_invalid"],
    ),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...JSON_BODY_ERRORS,
    410: error(
      "No live code for this email: never sent, expired, already used or out of tries; ask for a new one",
      ["code_expired"],
    ),
    429: error(
      "The email reached its daily cap of wrong codes: the same answer whatever was typed, unless the code was mailed after the latest wrong one and not tried yet; ask for a new code",
      ["code_locked"],
    ),
  },
});

export const claimProperty = defineOperation({
  id: "claimProperty",
  method: "post",
  path: "/api/property-owners/claim-property",
  summary: "Claim an estate and sign in as its owner",
  tags: ["owners"],
  description:
    "The third step, with the proof cookie of verify-code for the same email. An email with several estates names the one it claims (`propertyId`, one of verify-code's `properties`); with one estate it may leave it out. " +
    "The claim is recorded (email, time, address), the proof is spent and cleared, any earlier session of this browser (staff or owner) is revoked, and an owner session opens.",
  security: [{ ownerProof: [] }],
  body: { schema: OwnerClaimRequestSchema },
  responses: {
    200: {
      description: "Claimed, and signed in as the estate's owner",
      headers: {
        "Set-Cookie": textHeader(
          "The session cookie (`castellum_session`; `__Host-castellum_session` in production), HttpOnly and SameSite=Lax, until the session expires; and the proof cookie cleared.",
        ),
      },
      schema: OwnerClaimSchema,
    },
    400: invalid(
      "Not an email, a `propertyId` that is not a positive whole number, a body with other fields, or malformed JSON",
    ),
    403: error(
      "Failed to claim property: no proof cookie, or one that expired, was spent or proves another email; an estate not on record with the email; several estates and no `propertyId`. " +
        `Or ${CROSS_ORIGIN.toLowerCase()}`,
      ["claim_failed", "cross_origin"],
    ),
    ...JSON_BODY_ERRORS,
  },
});

export const getOwnerProperty = defineOperation({
  id: "getOwnerProperty",
  method: "get",
  path: "/api/property-owners/property-details",
  summary: "The estate's owner record, in one language",
  tags: ["owners"],
  description:
    "The owner property record and what the dashboard needs to edit it: each editable field as the editor shows it, the gallery, the translations that fell behind, and the estates an owner may switch to. " +
    "Text the language lacks is in English.",
  security: OWNER_OR_STAFF,
  query: EstateQuerySchema.extend({
    lang: LanguageSchema.optional().describe(
      "The language of the text; else the `lang` cookie or Accept-Language",
    ),
  }),
  responses: {
    200: { description: "The estate", schema: OwnerPropertyDetailsSchema },
    400: invalid("A `lang` that is not one of the site's languages"),
    ...estateGuardAnswers(false),
  },
});

export const updateOwnerImages = defineOperation({
  id: "updateOwnerImages",
  method: "post",
  path: "/api/property-owners/update-images",
  summary: "Choose and order the images guests see",
  tags: ["owners"],
  description:
    `\`selectedImages\` are shown in this order, at most ${MAX_SELECTED_IMAGES}; the estate's other images are hidden, not deleted. ` +
    "Each is an image key or the address property-details gives (`/media/{key}/800.jpg`), and must be one of the estate's images, once. A change joins the estate's history.",
  security: OWNER_OR_STAFF,
  query: EstateQuerySchema,
  body: { schema: ImageSelectionSchema },
  responses: {
    200: {
      description: "The selection as stored, as image keys",
      schema: ImageSelectionResultSchema,
    },
    400: invalid(
      `Not a list of at most ${MAX_SELECTED_IMAGES} strings, an image that is not the estate's or is listed twice, or malformed JSON`,
    ),
    ...JSON_BODY_ERRORS,
    ...estateGuardAnswers(true),
  },
});

export const updateOwnerProperty = defineOperation({
  id: "updateOwnerProperty",
  method: "post",
  path: "/api/property-owners/update-property",
  summary: "Change one field of the estate",
  tags: ["owners"],
  description:
    "`value` is read with the same schema as the dashboard's editor: one string (lines for a list, `key: value` lines for an object) or a list of lines; an empty value clears an optional field. " +
    `A translated field (${TRANSLATED_FIELDS.join(", ")}) is set in \`lang\` only (else the request's language) and its other languages are flagged as out of date; the other fields hold in every language. ` +
    "An unchanged value writes nothing (`changed: false`); a change joins the estate's history.",
  security: OWNER_OR_STAFF,
  query: EstateQuerySchema,
  body: { schema: FieldChangeSchema },
  responses: {
    200: { description: "The field as stored", schema: FieldUpdateSchema },
    400: invalid(
      "An unknown field, or a value its schema refuses (`errors[0].path` is `field` or `value`, and the message says why); or malformed JSON",
    ),
    ...JSON_BODY_ERRORS,
    ...estateGuardAnswers(true),
  },
});

export const uploadOwnerImages = defineOperation({
  id: "uploadOwnerImages",
  method: "post",
  path: "/api/property-owners/upload-image",
  summary: "Upload pictures of the estate",
  tags: ["owners"],
  description:
    `1 to ${UPLOAD_LIMITS.maxFiles} pictures as multipart/form-data, each under the field \`${UPLOAD_FIELD}\`: ` +
    `JPEG, PNG, WebP or AVIF (told from their bytes, not their name or declared type), up to ${UPLOAD_LIMITS.maxBytes / 1024 / 1024} MB and ${UPLOAD_LIMITS.maxPixels / 1_000_000} megapixels each. ` +
    "The estate is named in the query only: access is settled before the body is read. Every file is checked before any is stored; " +
    "the pictures join the end of the gallery, not shown until update-images selects them, and a picture the estate already has is not stored twice (its image is returned).",
  security: OWNER_OR_STAFF,
  query: EstateQuerySchema,
  body: {
    contentType: "multipart/form-data",
    schema: z.object({
      [UPLOAD_FIELD]: z
        .array(z.string().meta({ contentMediaType: "application/octet-stream" }))
        .min(1)
        .max(UPLOAD_LIMITS.maxFiles),
    }),
    encoding: { [UPLOAD_FIELD]: { contentType: ACCEPTED_UPLOAD_TYPES.join(", ") } },
  },
  responses: {
    201: {
      description: "Stored: one image per file, in the order sent",
      schema: OwnerImagesSchema,
    },
    400: error(
      `A picture over ${UPLOAD_LIMITS.maxPixels / 1_000_000} megapixels, no file or more than ${UPLOAD_LIMITS.maxFiles}, a file under another field, or a malformed multipart body`,
      ["upload_too_many_pixels", "upload_too_many_files", "upload_no_files", "bad_request"],
    ),
    413: error(`A file larger than ${UPLOAD_LIMITS.maxBytes / 1024 / 1024} MB`, [
      "upload_too_large",
    ]),
    415: error("A file that is not a JPEG, PNG, WebP or AVIF picture", ["upload_type"]),
    ...estateGuardAnswers(true),
  },
});

export const deleteOwnerImage = defineOperation({
  id: "deleteOwnerImage",
  method: "delete",
  path: "/api/property-owners/images/{key}",
  summary: "Delete an uploaded picture",
  tags: ["owners"],
  description:
    "Only an owner's upload can be deleted, not a demo illustration. Its cached sizes go with it, and its original file when no other image uses it; " +
    "if it was shown, the images after it move up one place. The estate is named by `?propertyId=` or by `propertyId` in an optional JSON body.",
  security: OWNER_OR_STAFF,
  params: z.object({ key: z.string().describe("The image's key (`key` of an OwnerImage)") }),
  query: EstateQuerySchema,
  body: {
    required: false,
    schema: z.object({ propertyId: BodyPropertyIdSchema }),
  },
  responses: {
    200: { description: "Deleted", schema: DeletedImageSchema },
    400: invalid(
      "A JSON body that is malformed, nested too deeply or holds text that cannot be stored",
    ),
    409: error("A demo illustration, not an upload: it cannot be deleted", ["image_not_deletable"]),
    413: JSON_BODY_ERRORS[413],
    415: error("A JSON body in an encoding or charset the server cannot read", [
      "unsupported_media_type",
    ]),
    ...estateGuardAnswers(true, "; or a key that is not one of the estate's images", [
      "media_not_found",
      "not_found",
    ]),
  },
});

export const ownerLogout = defineOperation({
  id: "ownerLogout",
  method: "post",
  path: "/api/property-owners/logout",
  summary: "Sign an owner out",
  tags: ["owners"],
  description:
    "Revokes an owner's session and clears the cookie. A staff session is left as it is (staff sign out of the staff area); without a session the answer is the same.",
  // The session is used when there is one, not required: the `{}` alternative says so.
  security: [{ ownerSession: [] }, {}],
  responses: {
    200: {
      description: "Signed out",
      headers: {
        // Sent only when the request held an owner's session: not a required header.
        "Set-Cookie": {
          ...textHeader("Clears the session cookie, when it held an owner's session"),
          schema: z.string().optional(),
        },
      },
      schema: OkSchema,
    },
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...IGNORED_BODY_ERRORS,
  },
});

export const OWNER_OPERATIONS = [
  verifyOwnerEmail,
  verifyOwnerCode,
  claimProperty,
  getOwnerProperty,
  updateOwnerImages,
  updateOwnerProperty,
  uploadOwnerImages,
  deleteOwnerImage,
  ownerLogout,
];
