import { z } from "zod";
import {
  CROSS_ORIGIN,
  DateTimeSchema,
  defineOperation,
  error,
  IGNORED_BODY_ERRORS,
  invalid,
  JSON_BODY_ERRORS,
  OkSchema,
  PASSWORD_AGAIN_LIMITS,
  PUBLIC,
  type SecurityRequirements,
  SIGNED_OUT,
  STAFF_SESSION,
} from "../api/operation.ts";

/**
 * Passkey calls for staff (`/api/admin/passkeys/...`) and owners
 * (`/api/property-owners/passkeys/...`): options from the server, the browser's WebAuthn
 * answer back. Browser-safe: zod only.
 */

/** A passkey as its holder sees it: the label, when it was added and last used. */
export const PasskeySummarySchema = z
  .object({
    id: z.string().describe("The credential id (base64url)"),
    name: z.string(),
    createdAt: DateTimeSchema,
    lastUsedAt: DateTimeSchema.nullable(),
  })
  .meta({ id: "Passkey" });

export const PasskeyListSchema = z.object({ passkeys: z.array(PasskeySummarySchema) });

const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/);

/** What `@simplewebauthn/browser`'s startRegistration answers (fields the server reads named). */
export const RegistrationResponseSchema = z
  .looseObject({
    id: base64url.min(1),
    rawId: base64url.min(1),
    type: z.literal("public-key"),
    response: z.looseObject({
      clientDataJSON: base64url,
      attestationObject: base64url,
      transports: z.array(z.string().max(32)).max(10).optional(),
    }),
    clientExtensionResults: z.looseObject({}),
    authenticatorAttachment: z.string().max(32).optional(),
  })
  .meta({ id: "PasskeyRegistrationResponse" });

/** What `@simplewebauthn/browser`'s startAuthentication answers. */
export const AuthenticationResponseSchema = z
  .looseObject({
    id: base64url.min(1),
    rawId: base64url.min(1),
    type: z.literal("public-key"),
    response: z.looseObject({
      clientDataJSON: base64url,
      authenticatorData: base64url,
      signature: base64url,
      userHandle: base64url.optional(),
    }),
    clientExtensionResults: z.looseObject({}),
    authenticatorAttachment: z.string().max(32).optional(),
  })
  .meta({ id: "PasskeyAuthenticationResponse" });

/** `PublicKeyCredentialCreationOptionsJSON`, for `startRegistration({ optionsJSON })`. */
export const RegistrationOptionsSchema = z
  .looseObject({ challenge: z.string() })
  .meta({ id: "PasskeyRegistrationOptions" });

/** `PublicKeyCredentialRequestOptionsJSON`, for `startAuthentication({ optionsJSON })`. */
export const AuthenticationOptionsSchema = z
  .looseObject({ challenge: z.string() })
  .meta({ id: "PasskeyAuthenticationOptions" });

export const PASSKEY_NAME_MAX = 60;
const PasskeyNameSchema = z.string().trim().min(1).max(PASSKEY_NAME_MAX);
const PasswordSchema = z.string().min(1).max(1024);

export const PasskeyPasswordSchema = z.strictObject({ password: PasswordSchema });
export const NewPasskeySchema = z
  .strictObject({ response: RegistrationResponseSchema, name: PasskeyNameSchema })
  .meta({ id: "NewPasskey" });
export const PasskeyAssertionSchema = z
  .strictObject({ response: AuthenticationResponseSchema })
  .meta({ id: "PasskeyAssertion" });
const PasskeyIdParams = z.object({ id: z.string().min(1).max(1024) });

const NOT_SIGNED_IN = "No staff session: not signed in, or the session expired or was revoked";
const STAFF_REFUSED =
  "The account is not an admin (or is disabled), or its email is not at the company domain";
const WRONG_PASSWORD = "The password is wrong";
const SESSION_SET = {
  "Set-Cookie": {
    description:
      "The session cookie (`castellum_session`; `__Host-castellum_session` in production), HttpOnly and SameSite=Lax",
    schema: z.string(),
  },
};
const ENROLMENT: SecurityRequirements = [{ staffSession: [] }];

export const startStaffPasskeyRegistration = defineOperation({
  id: "startStaffPasskeyRegistration",
  method: "post",
  path: "/api/admin/passkeys/registration/options",
  summary: "Options to add a passkey to the signed-in staff account",
  tags: ["staff"],
  description:
    "Adding a factor asks for the password again. For a complete session, or one at the `enrolment` stage (a password right, no factor yet). " +
    "The challenge is this account's, single use, for 5 minutes; user verification is required.",
  security: [...ENROLMENT],
  body: { schema: PasskeyPasswordSchema.meta({ id: "PasskeyPassword" }) },
  responses: {
    200: { description: "Options for `startRegistration`", schema: RegistrationOptionsSchema },
    400: invalid("No password, or malformed JSON"),
    401: error(`${NOT_SIGNED_IN}; or a wrong password`, [
      "not_signed_in",
      "sign_in_incomplete",
      "wrong_password",
    ]),
    403: error(`${STAFF_REFUSED}; or ${CROSS_ORIGIN.toLowerCase()}`, ["not_admin", "cross_origin"]),
    ...JSON_BODY_ERRORS,
    ...PASSWORD_AGAIN_LIMITS,
  },
});

export const addStaffPasskey = defineOperation({
  id: "addStaffPasskey",
  method: "post",
  path: "/api/admin/passkeys/registration",
  summary: "Save a passkey for the signed-in staff account",
  tags: ["staff"],
  description:
    "The browser's answer to the registration options, with the person's label for it. A session at the `enrolment` stage becomes complete, and an account without recovery codes gets its 10, shown this once.",
  security: [...ENROLMENT],
  body: { schema: NewPasskeySchema },
  responses: {
    201: {
      description: "Saved",
      schema: z.object({
        passkey: PasskeySummarySchema,
        recoveryCodes: z.array(z.string()).length(10).optional(),
      }),
    },
    400: invalid(
      "A missing name, a response that does not verify (challenge unknown, spent or expired, wrong origin, no user verification), a credential already saved, or malformed JSON",
      ["passkey_not_saved"],
    ),
    401: error(NOT_SIGNED_IN, SIGNED_OUT),
    403: error(`${STAFF_REFUSED}; or ${CROSS_ORIGIN.toLowerCase()}`, ["not_admin", "cross_origin"]),
    ...JSON_BODY_ERRORS,
  },
});

export const listStaffPasskeys = defineOperation({
  id: "listStaffPasskeys",
  method: "get",
  path: "/api/admin/passkeys",
  summary: "The signed-in staff account's passkeys",
  tags: ["staff"],
  description: "For a complete session, or one at the `enrolment` stage.",
  security: ENROLMENT,
  responses: {
    200: { description: "Oldest first", schema: PasskeyListSchema },
    401: error(NOT_SIGNED_IN, SIGNED_OUT),
    403: error(STAFF_REFUSED, ["not_admin"]),
  },
});

export const removeStaffPasskey = defineOperation({
  id: "removeStaffPasskey",
  method: "delete",
  path: "/api/admin/passkeys/{id}",
  summary: "Remove one of the signed-in staff account's passkeys",
  tags: ["staff"],
  description: "Removing a factor asks for the password again.",
  security: STAFF_SESSION,
  params: PasskeyIdParams,
  body: { schema: PasskeyPasswordSchema },
  responses: {
    200: { description: "Removed", schema: OkSchema },
    400: invalid("No password, or malformed JSON"),
    401: error(`${NOT_SIGNED_IN}; or ${WRONG_PASSWORD.toLowerCase()}`, [
      ...SIGNED_OUT,
      "wrong_password",
    ]),
    403: error(`${STAFF_REFUSED}; or ${CROSS_ORIGIN.toLowerCase()}`, ["not_admin", "cross_origin"]),
    404: error("The account has no passkey with this id", ["passkey_not_found"]),
    409: error(
      "The account's last second factor while STAFF_MFA_REQUIRED: add another (an app or a passkey) first",
      ["last_factor"],
    ),
    ...JSON_BODY_ERRORS,
    ...PASSWORD_AGAIN_LIMITS,
  },
});

export const startStaffPasskeySignIn = defineOperation({
  id: "startStaffPasskeySignIn",
  method: "post",
  path: "/api/admin/passkeys/authentication/options",
  summary: "Options to sign a staff member in with a passkey",
  tags: ["staff"],
  description:
    "Public. With a session at the `second_factor` stage, the challenge is that account's and only its passkeys are allowed (the second step); " +
    "otherwise it is passkey-first: no email, any passkey of this site.",
  security: [{ staffSession: [] }, {}],
  responses: {
    200: { description: "Options for `startAuthentication`", schema: AuthenticationOptionsSchema },
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...IGNORED_BODY_ERRORS,
  },
});

export const signInStaffWithPasskey = defineOperation({
  id: "signInStaffWithPasskey",
  method: "post",
  path: "/api/admin/passkeys/authentication",
  summary: "Sign a staff member in with a passkey",
  tags: ["staff"],
  description:
    "Public. Passkey-first: a verified passkey (user verification required, so two factors on its own) opens a new complete session and revokes this browser's earlier one. " +
    "Second step (a session at `second_factor`): the session becomes complete. A disabled account, or one that may not open the staff area, is refused like a wrong passkey.",
  security: [{ staffSession: [] }, {}],
  body: { schema: PasskeyAssertionSchema },
  responses: {
    200: {
      description: "Signed in",
      headers: SESSION_SET,
      schema: z.object({ signedIn: z.literal(true) }),
    },
    400: invalid("A response that does not have the assertion's shape, or malformed JSON"),
    401: error(
      "The passkey was refused: unknown, another account's, a challenge unknown, spent or expired, a wrong origin, no user verification, a counter that did not move forward, or an account that is disabled or not an admin",
      ["passkey_refused"],
    ),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...JSON_BODY_ERRORS,
  },
});

const NO_OWNER = "No owner session";

export const startOwnerPasskeyRegistration = defineOperation({
  id: "startOwnerPasskeyRegistration",
  method: "post",
  path: "/api/property-owners/passkeys/registration/options",
  summary: "Options to add a passkey for the signed-in owner",
  tags: ["owners"],
  description:
    "For an owner signed in after a claim. The emailed code stays the way back in; a passkey signs in without it.",
  security: [{ ownerSession: [] }],
  responses: {
    200: { description: "Options for `startRegistration`", schema: RegistrationOptionsSchema },
    401: error(NO_OWNER, SIGNED_OUT),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...IGNORED_BODY_ERRORS,
  },
});

export const addOwnerPasskey = defineOperation({
  id: "addOwnerPasskey",
  method: "post",
  path: "/api/property-owners/passkeys/registration",
  summary: "Save a passkey for the signed-in owner",
  tags: ["owners"],
  security: [{ ownerSession: [] }],
  body: { schema: NewPasskeySchema },
  responses: {
    201: { description: "Saved", schema: z.object({ passkey: PasskeySummarySchema }) },
    400: invalid("A missing name, a response that does not verify, or malformed JSON", [
      "passkey_not_saved",
    ]),
    401: error(NO_OWNER, SIGNED_OUT),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...JSON_BODY_ERRORS,
  },
});

export const listOwnerPasskeys = defineOperation({
  id: "listOwnerPasskeys",
  method: "get",
  path: "/api/property-owners/passkeys",
  summary: "The signed-in owner's passkeys",
  tags: ["owners"],
  security: [{ ownerSession: [] }],
  responses: {
    200: { description: "Oldest first", schema: PasskeyListSchema },
    401: error(NO_OWNER, SIGNED_OUT),
  },
});

export const removeOwnerPasskey = defineOperation({
  id: "removeOwnerPasskey",
  method: "delete",
  path: "/api/property-owners/passkeys/{id}",
  summary: "Remove one of the signed-in owner's passkeys",
  tags: ["owners"],
  description: "Owners have no password: their session is the proof.",
  security: [{ ownerSession: [] }],
  params: PasskeyIdParams,
  responses: {
    200: { description: "Removed", schema: OkSchema },
    401: error(NO_OWNER, SIGNED_OUT),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    404: error("The owner has no passkey with this id", ["passkey_not_found"]),
    ...IGNORED_BODY_ERRORS,
  },
});

export const startOwnerPasskeySignIn = defineOperation({
  id: "startOwnerPasskeySignIn",
  method: "post",
  path: "/api/property-owners/passkeys/authentication/options",
  summary: "Options to sign an owner in with a passkey",
  tags: ["owners"],
  description: "Public: no email, any owner passkey of this site.",
  security: PUBLIC,
  responses: {
    200: { description: "Options for `startAuthentication`", schema: AuthenticationOptionsSchema },
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...IGNORED_BODY_ERRORS,
  },
});

export const signInOwnerWithPasskey = defineOperation({
  id: "signInOwnerWithPasskey",
  method: "post",
  path: "/api/property-owners/passkeys/authentication",
  summary: "Sign an owner in with a passkey",
  tags: ["owners"],
  description:
    "Public. A verified owner passkey opens an owner session for its email and revokes this browser's earlier session.",
  security: PUBLIC,
  body: { schema: PasskeyAssertionSchema },
  responses: {
    200: {
      description: "Signed in",
      headers: SESSION_SET,
      schema: z.object({ signedIn: z.literal(true) }),
    },
    400: invalid("A response that does not have the assertion's shape, or malformed JSON"),
    401: error("The passkey was refused", ["passkey_refused"]),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...JSON_BODY_ERRORS,
  },
});

export const STAFF_PASSKEY_OPERATIONS = [
  startStaffPasskeyRegistration,
  addStaffPasskey,
  listStaffPasskeys,
  removeStaffPasskey,
  startStaffPasskeySignIn,
  signInStaffWithPasskey,
];

export const OWNER_PASSKEY_OPERATIONS = [
  startOwnerPasskeyRegistration,
  addOwnerPasskey,
  listOwnerPasskeys,
  removeOwnerPasskey,
  startOwnerPasskeySignIn,
  signInOwnerWithPasskey,
];
