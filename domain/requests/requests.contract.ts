import { z } from "zod";
import {
  CROSS_ORIGIN,
  DateTimeSchema,
  defineOperation,
  error,
  invalid,
  JSON_BODY_ERRORS,
  PUBLIC,
  type ResponseSpec,
} from "../api/operation.ts";
import { bookingRequestSchema } from "./booking-request.schema.ts";
import { membershipSchema } from "./membership.schema.ts";
import type { RequestKind } from "./options.ts";
import { propertyBookingSchema } from "./property-booking.schema.ts";

/**
 * The guest side of requests: the three forms and the bot-check challenge they
 * solve first, written once for the route and the document. Browser-safe: zod only.
 */

/** The most characters an Idempotency-Key may have. */
export const IDEMPOTENCY_KEY_MAX = 200;
/** Printable ASCII, as clients generate them (UUIDs and the like). */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

export const StoredRequestSchema = z
  .object({
    id: z.uuid(),
    reference: z.string().meta({ examples: ["BR-7K4Q-2MXD"] }),
    status: z.literal("New"),
    createdAt: DateTimeSchema,
  })
  .meta({ id: "StoredRequest", description: "A guest request as stored, with its reference" });

export const BotCheckErrorSchema = z
  .object({
    error: z
      .literal("invalid_bot_token")
      .optional()
      .describe("Set when the bot check failed; absent for a cross-origin request"),
    message: z.string().min(1).describe("What went wrong, in the caller's language"),
    code: z
      .enum(["bot_check_failed", "cross_origin"])
      .describe("`bot_check_failed` (with `error`), or `cross_origin`"),
  })
  .meta({ id: "BotCheckError" });

/** A signed ALTCHA proof-of-work challenge (altcha-lib v2's `Challenge`). */
export const AltchaChallengeSchema = z
  .object({
    parameters: z.object({
      algorithm: z.string().meta({ examples: ["PBKDF2/SHA-256"] }),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number().int().min(1),
      keyLength: z.number().int().min(1),
      keyPrefix: z.string(),
      keySignature: z.string().optional(),
      memoryCost: z.number().int().min(1).optional(),
      parallelism: z.number().int().min(1).optional(),
      expiresAt: z.number().int().optional().describe("When it expires, in seconds since 1970"),
      data: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
        .optional(),
    }),
    signature: z
      .string()
      .optional()
      .describe("The HMAC of the parameters, which the server checks"),
    codeChallenge: z
      .object({
        image: z.string(),
        audio: z.string().optional(),
        length: z.number().int().optional(),
      })
      .optional(),
  })
  .meta({
    id: "AltchaChallenge",
    description: "What the ALTCHA widget solves before a form is sent",
  });

const retryAfter = (description: string) => ({
  "Retry-After": { description, schema: z.number().int().min(1) },
});

export const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": {
    description: "Requests allowed from this address per window",
    schema: z.number().int().min(1),
  },
  "RateLimit-Remaining": {
    description: "Requests left in this window",
    schema: z.number().int().min(0),
  },
} as const;

export const NO_STORE = {
  "Cache-Control": { description: "`no-store`: never cached", schema: z.string() },
} as const;

/** The rate limiter's answers (`rateLimit()`), which run before anything else. */
export const rateLimitAnswers = (what: string) =>
  ({
    429: {
      ...error(`Too many ${what} from this address; see Retry-After`, ["rate_limited"]),
      headers: retryAfter("Seconds until the window lets a request through again"),
    },
    503: {
      ...error(
        "The rate limiter cannot be reached, so the request is refused rather than let through unmetered",
        ["limiter_unavailable"],
      ),
      headers: retryAfter("Seconds to wait (5)"),
    },
  }) satisfies Record<number, ResponseSpec>;

const GuestRequestHeadersSchema = z.object({
  "Idempotency-Key": z
    .string()
    .min(1)
    .max(IDEMPOTENCY_KEY_MAX)
    .regex(IDEMPOTENCY_KEY)
    .optional()
    .describe(
      "One key per filled form, 1 to 200 printable ASCII characters. A retry with the same key and body returns the first answer (kept 24 hours) and stores nothing; the same key with another body is refused with 422.",
    ),
  "X-Bot-Token": z
    .string()
    .optional()
    .describe("The bot-check token, when the body's `turnstileToken` is empty."),
});

function formOperation<const Id extends string, const Path extends string>(form: {
  id: Id;
  path: Path;
  summary: string;
  schema: z.ZodType;
}) {
  return defineOperation({
    id: form.id,
    method: "post",
    path: form.path,
    summary: form.summary,
    description:
      "Validated with the same schema as the form. Sends a confirmation mail to the guest and a notification to staff. " +
      "Messages are in the request's language (`?lang=`, the `lang` cookie or Accept-Language). " +
      "The bot-check token (`turnstileToken`, else the X-Bot-Token header) is checked before the fields; a known Idempotency-Key answers before either.",
    tags: ["requests"],
    security: PUBLIC,
    headers: GuestRequestHeadersSchema,
    body: { schema: form.schema },
    responses: {
      201: {
        description:
          "Stored (the transaction has committed), or the first answer replayed for a known Idempotency-Key",
        schema: StoredRequestSchema,
        headers: {
          "Idempotent-Replayed": {
            description:
              "`true` when this is the stored answer of an earlier request with the same key",
            schema: z.enum(["true", "false"]),
          },
          ...NO_STORE,
          ...RATE_LIMIT_HEADERS,
        },
      },
      400: invalid("Validation failed, malformed JSON or a bad Idempotency-Key", [
        "idempotency_key_invalid",
      ]),
      403: {
        description:
          "Bot check missing, invalid, expired or already used (`error: invalid_bot_token`); or " +
          CROSS_ORIGIN.toLowerCase(),
        schema: BotCheckErrorSchema,
      },
      ...JSON_BODY_ERRORS,
      422: error("Idempotency-Key already used with a different body", ["idempotency_conflict"]),
      ...rateLimitAnswers("requests"),
    },
  });
}

export const createBookingRequest = formOperation({
  id: "createBookingRequest",
  path: "/api/booking-requests",
  summary: "Send a general booking request",
  schema: bookingRequestSchema.meta({ id: "BookingRequest" }),
});

export const createPropertyBooking = formOperation({
  id: "createPropertyBooking",
  path: "/api/bookings",
  summary: "Request a booking of one property",
  schema: propertyBookingSchema().meta({ id: "PropertyBooking" }),
});

export const createMembershipApplication = formOperation({
  id: "createMembershipApplication",
  path: "/api/membership/apply",
  summary: "Apply for club membership",
  schema: membershipSchema.meta({ id: "MembershipApplication" }),
});

/** The form operation of each kind of request. */
export const FORM_OPERATIONS = {
  booking_request: createBookingRequest,
  property_booking: createPropertyBooking,
  membership: createMembershipApplication,
} satisfies Record<RequestKind, unknown>;

export const getBotCheckChallenge = defineOperation({
  id: "getBotCheckChallenge",
  method: "get",
  path: "/api/bot-check/challenge",
  summary: "A fresh ALTCHA proof-of-work challenge (when ALTCHA is the bot check)",
  tags: ["bot-check"],
  security: PUBLIC,
  responses: {
    200: {
      description: "Signed challenge for the ALTCHA widget",
      schema: AltchaChallengeSchema,
      headers: { ...NO_STORE, ...RATE_LIMIT_HEADERS },
    },
    404: error("Turnstile is configured instead", ["not_found"]),
    ...rateLimitAnswers("challenges"),
  },
});

export const REQUEST_OPERATIONS = [
  getBotCheckChallenge,
  createBookingRequest,
  createPropertyBooking,
  createMembershipApplication,
];
