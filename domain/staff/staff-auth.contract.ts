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
  PUBLIC,
  type ResponseSpec,
  SIGNED_OUT,
  STAFF_SESSION,
} from "../api/operation.ts";
import { LANGUAGES } from "#i18n/config.ts";
import { StaffLoginSchema } from "./login.schema.ts";
import { StaffSetupSchema } from "./setup.schema.ts";

/**
 * Staff sign-in, sign-out, "who am I" and the first admin's setup link, written once for the
 * route, the document and the staff pages; and the answers of the admin guard every other
 * staff call shares.
 */

/** A staff account as the rest of the product sees it: never its password hash. */
export const StaffUserSchema = z
  .object({
    id: z.guid(),
    email: z.string().meta({ format: "email" }),
    displayName: z.string(),
    isAdmin: z.boolean(),
    disabled: z.boolean(),
    language: z.enum(LANGUAGES),
    lastLoginAt: DateTimeSchema.nullable(),
  })
  .meta({ id: "StaffUser", description: "A staff account (never its password hash)" });

const SignedInUserSchema = z.object({ user: StaffUserSchema });

/** The first admin: signed in, or (while a second factor is required) at enrolment. */
const SetupAnswerSchema = z
  .object({
    user: StaffUserSchema,
    step: z.enum(["signed_in", "enrolment"]).meta({
      description:
        "`enrolment` while STAFF_MFA_REQUIRED: the session may only set up a first factor (/admin/enrol)",
    }),
  })
  .meta({ id: "StaffSetupAnswer" });

/**
 * What a right password leads to: signed in, the second step (`methods` offered),
 * or enrolment of a first factor while one is required.
 */
export const LoginAnswerSchema = z
  .discriminatedUnion("step", [
    z.object({ step: z.literal("signed_in"), user: StaffUserSchema }),
    z.object({
      step: z.literal("second_factor"),
      mfaRequired: z.literal(true),
      methods: z.array(z.enum(["totp", "passkey", "recovery"])).min(1),
    }),
    z.object({ step: z.literal("enrolment"), enrolmentRequired: z.literal(true) }),
  ])
  .meta({ id: "StaffLoginAnswer" });
export type LoginAnswer = z.infer<typeof LoginAnswerSchema>;

const NOT_SIGNED_IN = "No staff session: not signed in, or the session expired or was revoked";

/**
 * The answers of `requireAdminApi`: it needs the session of an admin account (not disabled)
 * whose email is at the company domain. A call that changes state (`sameOriginOnly`) also
 * answers 403 to a browser on another origin.
 */
export function adminGuardAnswers(changesState: boolean) {
  return {
    401: error(NOT_SIGNED_IN, SIGNED_OUT),
    403: error(
      "The account is not an admin (or is disabled), or its email is not at the company domain" +
        (changesState ? `; or ${CROSS_ORIGIN.toLowerCase()}` : ""),
      changesState
        ? ["not_admin", "access_denied", "cross_origin"]
        : ["not_admin", "access_denied"],
    ),
  } satisfies Record<number, ResponseSpec>;
}

const SESSION_COOKIE_SET = {
  "Set-Cookie": {
    description:
      "The session cookie (`castellum_session`; `__Host-castellum_session` in production), HttpOnly and SameSite=Lax, " +
      "until the session expires; and the `lang` cookie with the account's language, so the staff area opens in it.",
    schema: z.string(),
  },
};

export const loginStaff = defineOperation({
  id: "loginStaff",
  method: "post",
  path: "/api/admin/login",
  summary: "Sign a staff member in",
  tags: ["staff"],
  description:
    "Public, because it is how a session starts. Every try counts against the email and the client's address before the password is checked. " +
    "An unknown email, a wrong password and a disabled account get the same 401, after the same amount of work.",
  security: PUBLIC,
  body: { schema: StaffLoginSchema.meta({ id: "StaffLogin" }) },
  responses: {
    200: {
      description:
        "The password was right: signed in, or a session that opens only the second step or enrolment",
      headers: SESSION_COOKIE_SET,
      schema: LoginAnswerSchema,
    },
    400: invalid("Email or password missing, or malformed JSON"),
    401: error("Wrong email or password, or a disabled account", ["invalid_credentials"]),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...JSON_BODY_ERRORS,
    429: {
      ...error(
        "Too many tries for this email from this address, from this address, or for this email from anywhere " +
          "(the last does not stop a right password of an account with a second factor)",
        ["too_many_attempts"],
      ),
      headers: {
        "Retry-After": {
          description: "Seconds until the next try is counted",
          schema: z.number().int().min(1),
        },
      },
    },
    503: error(
      "The login limiter cannot be reached, so sign-in is refused rather than let through unmetered",
      ["limiter_unavailable"],
    ),
  },
});

export const logoutStaff = defineOperation({
  id: "logoutStaff",
  method: "post",
  path: "/api/admin/logout",
  summary: "Sign out",
  tags: ["staff"],
  description:
    "Revokes the session of the cookie and clears the cookie. Without a session there is nothing to revoke, and the answer is the same.",
  // The session is used when there is one, not required: the `{}` alternative says so.
  security: [...STAFF_SESSION, {}],
  responses: {
    200: {
      description: "Signed out",
      headers: {
        "Set-Cookie": { description: "Clears the session cookie", schema: z.string() },
      },
      schema: OkSchema,
    },
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...IGNORED_BODY_ERRORS,
  },
});

export const getSignedInStaffUser = defineOperation({
  id: "getSignedInStaffUser",
  method: "get",
  path: "/api/admin/me",
  summary: "The signed-in staff member",
  tags: ["staff"],
  description:
    "Answers for any staff session, admin or not, so a client can tell who is signed in and whether the staff area is open to them (`isAdmin`, the email's domain).",
  security: STAFF_SESSION,
  responses: {
    200: { description: "The account of the session", schema: SignedInUserSchema },
    401: error(NOT_SIGNED_IN, SIGNED_OUT),
  },
});

export const completeStaffSetup = defineOperation({
  id: "completeStaffSetup",
  method: "post",
  path: "/api/admin/setup",
  summary: "Create the first admin from the setup link",
  tags: ["staff"],
  description:
    "Public: there is no staff account yet. While none exists, the server prints a one-time setup link (valid 24 hours); its token creates the first admin and signs it in. " +
    "The email must be at the company domain and the password strong enough; once an admin exists, every link is spent.",
  security: PUBLIC,
  body: { schema: StaffSetupSchema.meta({ id: "StaffSetup" }) },
  responses: {
    201: {
      description: "The first admin, signed in, or at enrolment of a first factor",
      headers: SESSION_COOKIE_SET,
      schema: SetupAnswerSchema,
    },
    400: invalid(
      "Validation failed (an email that is invalid or not at the company domain, a weak password), malformed JSON, or a link that is invalid, expired, used or too late (staff already exist)",
      ["setup_link_invalid"],
    ),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...JSON_BODY_ERRORS,
  },
});

export const StaffLanguageSchema = z
  .object({ language: z.enum(LANGUAGES) })
  .meta({ id: "StaffLanguage" });

export const rememberStaffLanguage = defineOperation({
  id: "rememberStaffLanguage",
  method: "post",
  path: "/api/admin/language",
  summary: "Remember the staff area's language for the signed-in account",
  tags: ["staff"],
  description:
    "The staff header's language menu calls this; the account's language then opens the staff area at each sign-in. " +
    "A page address with `?lang=` only shows that page in the language: a GET stores nothing.",
  security: STAFF_SESSION,
  body: { schema: StaffLanguageSchema },
  responses: {
    200: { description: "Remembered", schema: OkSchema },
    400: invalid("Not one of the site's languages, or malformed JSON"),
    ...JSON_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const STAFF_AUTH_OPERATIONS = [
  rememberStaffLanguage,
  loginStaff,
  logoutStaff,
  getSignedInStaffUser,
  completeStaffSetup,
];
