import { z } from "zod";
import {
  CROSS_ORIGIN,
  defineOperation,
  error,
  invalid,
  JSON_BODY_ERRORS,
  PASSWORD_AGAIN_LIMITS,
  SIGNED_OUT,
  STAFF_SESSION,
} from "#domain/api/operation.ts";

/**
 * The second factor of staff sign-in: an authenticator app (TOTP) with 10 single-use
 * recovery codes, the sign-in's second step, and the person's own factors. Browser-safe.
 */

export const SECOND_FACTOR_METHODS = ["totp", "passkey", "recovery"] as const;
export const SecondFactorMethodSchema = z.enum(SECOND_FACTOR_METHODS);

/** A TOTP code (6 digits) or a recovery code (12 letters and digits, hyphens allowed). */
export const SecondFactorCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, "staff.mfa.validation.codeRequired")
    .max(64, "staff.mfa.validation.codeInvalid"),
});
export type SecondFactorCode = z.infer<typeof SecondFactorCodeSchema>;

/** The password asked again before a factor is added, removed or its codes replaced. */
export const PasswordAgainSchema = z.object({
  password: z
    .string()
    .min(1, "staff.validation.passwordRequired")
    .max(1024, "staff.validation.passwordRequired"),
});

const StartTotpBodySchema = z.object({
  password: z.string().max(1024, "staff.validation.passwordRequired").optional(),
});

export const TotpEnrolmentSchema = z
  .object({
    secret: z.string().meta({ description: "Base32 secret, to type into an app by hand" }),
    otpauthUrl: z.string(),
    qrSvg: z.string().meta({ description: "The otpauth URL as a QR code, an SVG document" }),
  })
  .meta({ id: "TotpEnrolment" });

export const RecoveryCodesSchema = z
  .object({
    recoveryCodes: z
      .array(z.string())
      .length(10)
      .meta({ description: "Shown once: only their hashes are kept" }),
  })
  .meta({ id: "RecoveryCodes" });

export const SecondFactorsSchema = z
  .object({
    totp: z.boolean().meta({ description: "An authenticator app is confirmed" }),
    recoveryCodesLeft: z.number().int().min(0).max(10),
    required: z.boolean().meta({ description: "STAFF_MFA_REQUIRED: the last factor cannot go" }),
  })
  .meta({ id: "SecondFactors" });

const NO_SESSION = "No staff session (or one at another stage of sign-in)";
const ANY_STAGE_SESSION =
  "A staff session, admin or not. A session still at the sign-in's `enrolment` stage may call it too.";

export const startTotpEnrolment = defineOperation({
  id: "startTotpEnrolment",
  method: "post",
  path: "/api/admin/mfa/totp",
  summary: "Start adding an authenticator app",
  tags: ["staff"],
  description:
    `${ANY_STAGE_SESSION} A new secret is made and kept sealed until confirmed; a complete session must send its password again. ` +
    "Refused while an app is already confirmed (remove it first).",
  security: STAFF_SESSION,
  body: { schema: StartTotpBodySchema.meta({ id: "StartTotpEnrolment" }), required: false },
  responses: {
    200: {
      description: "The secret, its otpauth URL and its QR code",
      schema: TotpEnrolmentSchema,
    },
    400: invalid("Password missing or wrong (complete sessions), or malformed JSON"),
    401: error(NO_SESSION, SIGNED_OUT),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    409: error("An authenticator app is already confirmed", ["mfa_already_enrolled"]),
    ...JSON_BODY_ERRORS,
    ...PASSWORD_AGAIN_LIMITS,
  },
});

export const confirmTotpEnrolment = defineOperation({
  id: "confirmTotpEnrolment",
  method: "post",
  path: "/api/admin/mfa/totp/confirm",
  summary: "Confirm the authenticator app with its first code",
  tags: ["staff"],
  description:
    `${ANY_STAGE_SESSION} The first right code confirms the app and answers 10 recovery codes, shown once. ` +
    "A session at the `enrolment` stage is then complete.",
  security: STAFF_SESSION,
  body: { schema: SecondFactorCodeSchema.meta({ id: "SecondFactorCode" }) },
  responses: {
    200: { description: "Confirmed: the recovery codes", schema: RecoveryCodesSchema },
    400: invalid("A wrong or malformed code, no enrolment started, or malformed JSON"),
    401: error(NO_SESSION, SIGNED_OUT),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...JSON_BODY_ERRORS,
  },
});

export const completeSecondFactor = defineOperation({
  id: "completeSecondFactor",
  method: "post",
  path: "/api/admin/login/mfa",
  summary: "The sign-in's second step",
  tags: ["staff"],
  description:
    "For a session at the `second_factor` stage (a right password): a TOTP code or an unused recovery code completes it. " +
    "Five wrong codes end the session; codes per account are limited across sessions too.",
  security: STAFF_SESSION,
  body: { schema: SecondFactorCodeSchema },
  responses: {
    200: {
      description: "Signed in",
      schema: z.object({ ok: z.literal(true) }),
    },
    400: invalid("A wrong code (the session stays, with fewer tries left), or malformed JSON"),
    401: error("No session waiting for a second factor; or that was its last try and it ended", [
      ...SIGNED_OUT,
      "mfa_session_ended",
    ]),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...JSON_BODY_ERRORS,
    429: {
      ...error("Too many codes for this account", ["too_many_attempts"]),
      headers: {
        "Retry-After": {
          description: "Seconds until the next try is counted",
          schema: z.number().int().min(1),
        },
      },
    },
    503: error("The limiter cannot be reached, so the code is refused", ["limiter_unavailable"]),
  },
});

export const removeTotp = defineOperation({
  id: "removeTotp",
  method: "delete",
  path: "/api/admin/mfa/totp",
  summary: "Remove the authenticator app",
  tags: ["staff"],
  description:
    "A complete staff session with its password again. Refused while STAFF_MFA_REQUIRED when it is the account's last factor. " +
    "With no factor left, the recovery codes go too.",
  security: STAFF_SESSION,
  body: { schema: PasswordAgainSchema.meta({ id: "PasswordAgain" }) },
  responses: {
    204: { description: "Removed" },
    400: invalid("Password missing or wrong, or malformed JSON"),
    401: error(NO_SESSION, SIGNED_OUT),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    404: error("No authenticator app to remove", ["not_found"]),
    409: error("The second factor is required and this is the last one", ["last_factor"]),
    ...JSON_BODY_ERRORS,
    ...PASSWORD_AGAIN_LIMITS,
  },
});

export const regenerateRecoveryCodes = defineOperation({
  id: "regenerateRecoveryCodes",
  method: "post",
  path: "/api/admin/mfa/recovery-codes",
  summary: "Replace the recovery codes",
  tags: ["staff"],
  description:
    "A complete staff session with its password again: 10 new codes (shown once), the old ones void.",
  security: STAFF_SESSION,
  body: { schema: PasswordAgainSchema },
  responses: {
    200: { description: "The new codes", schema: RecoveryCodesSchema },
    400: invalid("Password missing or wrong, or malformed JSON"),
    401: error(NO_SESSION, SIGNED_OUT),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    409: error("The account has no second factor for codes to recover", ["no_factor"]),
    ...JSON_BODY_ERRORS,
    ...PASSWORD_AGAIN_LIMITS,
  },
});

export const getSecondFactors = defineOperation({
  id: "getSecondFactors",
  method: "get",
  path: "/api/admin/mfa",
  summary: "The signed-in person's second factors",
  tags: ["staff"],
  description: "A complete staff session, admin or not.",
  security: STAFF_SESSION,
  responses: {
    200: { description: "The factors", schema: SecondFactorsSchema },
    401: error(NO_SESSION, SIGNED_OUT),
  },
});

export const MFA_OPERATIONS = [
  startTotpEnrolment,
  confirmTotpEnrolment,
  completeSecondFactor,
  removeTotp,
  regenerateRecoveryCodes,
  getSecondFactors,
];
