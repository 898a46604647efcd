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
  SIGNED_OUT,
  STAFF_SESSION,
} from "../api/operation.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-rules.ts";
import { adminGuardAnswers, StaffUserSchema } from "./staff-auth.contract.ts";

/**
 * Accounts in the staff area: what admins do to accounts, what everyone
 * does to their own, and the mailed one-time links (invitation, password reset). Browser-safe.
 */

const passwordField = (required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    // The rest of the policy (common passwords, the email) is the server's: the list is large.
    .refine((password) => [...password].length >= PASSWORD_MIN_LENGTH, "staff.password.tooShort")
    .refine((password) => [...password].length <= PASSWORD_MAX_LENGTH, "staff.password.tooLong");

export const StaffAccountSchema = StaffUserSchema.extend({
  liveSessions: z.number().int().min(0).describe("Sessions open now"),
}).meta({ id: "StaffAccount", description: "An account as the accounts page lists it" });

export const StaffAccountListSchema = z
  .object({ accounts: z.array(StaffAccountSchema).describe("By email") })
  .meta({ id: "StaffAccountList" });

export const NewInvitationSchema = z
  .strictObject({
    email: z
      .string({ error: "staff.validation.emailRequired" })
      .trim()
      .min(1, "staff.validation.emailRequired")
      .max(254, "validation.emailInvalid"),
    isAdmin: z.boolean().default(false).describe("Whether the new account is an admin"),
  })
  .meta({ id: "NewInvitation" });
export type NewInvitation = z.infer<typeof NewInvitationSchema>;

export const InvitationSentSchema = z
  .object({ email: z.string(), expiresAt: DateTimeSchema })
  .meta({ id: "InvitationSent" });

export const InvitationSchema = z
  .object({ email: z.string().describe("The invited address"), expiresAt: DateTimeSchema })
  .meta({ id: "Invitation" });

export const AcceptInvitationSchema = z
  .strictObject({
    displayName: z
      .string({ error: "staff.validation.nameRequired" })
      .trim()
      .min(1, "staff.validation.nameRequired")
      .max(100, "staff.validation.nameTooLong"),
    password: passwordField("staff.validation.passwordRequired"),
  })
  .meta({ id: "AcceptInvitation" });
export type AcceptInvitation = z.infer<typeof AcceptInvitationSchema>;

export const StaffSessionSchema = z
  .object({
    id: z.uuid().describe("The session's name (never its token)"),
    createdAt: DateTimeSchema,
    lastSeenAt: DateTimeSchema,
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    isCurrent: z.boolean().describe("The session of this request"),
  })
  .meta({ id: "StaffSession" });

export const StaffSessionListSchema = z
  .object({ sessions: z.array(StaffSessionSchema).describe("Newest first") })
  .meta({ id: "StaffSessionList" });

export const ChangePasswordSchema = z
  .strictObject({
    currentPassword: z
      .string({ error: "staff.validation.passwordRequired" })
      .min(1, "staff.validation.passwordRequired")
      .max(PASSWORD_MAX_LENGTH * 4, "staff.account.errors.wrongPassword"),
    newPassword: passwordField("staff.validation.passwordRequired"),
  })
  .meta({ id: "ChangePassword" });
export type ChangePassword = z.infer<typeof ChangePasswordSchema>;

export const ForgottenPasswordSchema = z
  .strictObject({
    email: z
      .string({ error: "staff.validation.emailRequired" })
      .trim()
      .min(1, "staff.validation.emailRequired")
      .max(254, "validation.emailInvalid"),
  })
  .meta({ id: "ForgottenPassword" });

export const NewPasswordSchema = z
  .strictObject({ password: passwordField("staff.validation.passwordRequired") })
  .meta({ id: "NewPassword" });

const accountParams = z.object({ id: z.uuid().describe("The account's id") });
const tokenParams = z.object({
  token: z.string().max(100).describe("The token of the mailed link"),
});
const noAccount = error("No such account, or a malformed id", ["account_not_found"]);
const lastAdmin = error("The last enabled admin cannot be disabled or demoted", ["last_admin"]);
const linkInvalid = error("The link is unknown, already used or expired", ["link_invalid"]);
const RETRY_AFTER = {
  "Retry-After": {
    description: "Seconds until the next request is counted",
    schema: z.number().int().min(1),
  },
};

/** Any staff session (admin or not) at the `complete` stage: one's own account. */
const OWN_ACCOUNT_GUARD = {
  401: error("No staff session: not signed in, or the session expired or was revoked", SIGNED_OUT),
};

export const listAccounts = defineOperation({
  id: "listStaffAccounts",
  method: "get",
  path: "/api/admin/accounts",
  summary: "The staff accounts",
  tags: ["staff"],
  security: STAFF_SESSION,
  responses: {
    200: { description: "Every account, with its live sessions", schema: StaffAccountListSchema },
    ...adminGuardAnswers(false),
  },
});

export const inviteAccount = defineOperation({
  id: "inviteStaffAccount",
  method: "post",
  path: "/api/admin/accounts/invitations",
  summary: "Invite a colleague by mail",
  description:
    "Mails a one-time link (24 hours) to an address at the company domain; the invitee sets their own name and password. The link is never shown to the admin.",
  tags: ["staff"],
  security: STAFF_SESSION,
  body: { schema: NewInvitationSchema },
  responses: {
    201: { description: "The invitation is in the outbox", schema: InvitationSentSchema },
    400: invalid("An invalid email, or one not at the company domain; or malformed JSON"),
    409: error("An account with this email exists", ["account_exists"]),
    ...JSON_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const setAccountDisabled = defineOperation({
  id: "setStaffAccountDisabled",
  method: "put",
  path: "/api/admin/accounts/{id}/disabled",
  summary: "Disable or enable an account",
  description: "Disabling ends every session of the account at once.",
  tags: ["staff"],
  security: STAFF_SESSION,
  params: accountParams,
  body: { schema: z.strictObject({ disabled: z.boolean() }).meta({ id: "AccountDisabled" }) },
  responses: {
    200: { description: "The account as it is now", schema: StaffUserSchema },
    400: invalid("Malformed JSON or body"),
    404: noAccount,
    409: lastAdmin,
    ...JSON_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const setAccountAdmin = defineOperation({
  id: "setStaffAccountAdmin",
  method: "put",
  path: "/api/admin/accounts/{id}/admin",
  summary: "Grant or remove admin",
  tags: ["staff"],
  security: STAFF_SESSION,
  params: accountParams,
  body: { schema: z.strictObject({ isAdmin: z.boolean() }).meta({ id: "AccountAdmin" }) },
  responses: {
    200: { description: "The account as it is now", schema: StaffUserSchema },
    400: invalid("Malformed JSON or body"),
    404: noAccount,
    409: lastAdmin,
    ...JSON_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const endAccountSessions = defineOperation({
  id: "endStaffAccountSessions",
  method: "delete",
  path: "/api/admin/accounts/{id}/sessions",
  summary: "End every session of an account",
  tags: ["staff"],
  security: STAFF_SESSION,
  params: accountParams,
  responses: {
    200: {
      description: "How many sessions ended",
      schema: z.object({ ended: z.number().int().min(0) }).meta({ id: "SessionsEnded" }),
    },
    404: noAccount,
    ...IGNORED_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const sendAccountPasswordReset = defineOperation({
  id: "sendStaffPasswordReset",
  method: "post",
  path: "/api/admin/accounts/{id}/password-reset",
  summary: "Mail someone a password-reset link",
  description:
    "The link (1 hour, single use) goes to the account's address; the admin never sees it.",
  tags: ["staff"],
  security: STAFF_SESSION,
  params: accountParams,
  responses: {
    202: { description: "The link is in the outbox", schema: OkSchema },
    404: noAccount,
    ...IGNORED_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const getInvitation = defineOperation({
  id: "getStaffInvitation",
  method: "get",
  path: "/api/admin/invitations/{token}",
  summary: "Check an invitation link",
  tags: ["staff"],
  security: PUBLIC,
  params: tokenParams,
  responses: {
    200: { description: "The invitation is live", schema: InvitationSchema },
    404: linkInvalid,
  },
});

export const acceptInvitation = defineOperation({
  id: "acceptStaffInvitation",
  method: "post",
  path: "/api/admin/invitations/{token}",
  summary: "Create one's account from an invitation",
  description:
    "Spends the link and creates the account with the name and password chosen; then sign in as usual.",
  tags: ["staff"],
  security: PUBLIC,
  params: tokenParams,
  body: { schema: AcceptInvitationSchema },
  responses: {
    201: {
      description: "The account",
      schema: z.object({ user: StaffUserSchema }).meta({ id: "InvitationAccepted" }),
    },
    400: invalid("A missing name, a weak password, or malformed JSON"),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    404: linkInvalid,
    409: error("An account with the invited email exists already", ["account_exists"]),
    ...JSON_BODY_ERRORS,
  },
});

export const listOwnSessions = defineOperation({
  id: "listOwnStaffSessions",
  method: "get",
  path: "/api/admin/account/sessions",
  summary: "One's own live sessions",
  tags: ["staff"],
  security: STAFF_SESSION,
  responses: {
    200: { description: "Newest first", schema: StaffSessionListSchema },
    ...OWN_ACCOUNT_GUARD,
  },
});

export const endOwnSession = defineOperation({
  id: "endOwnStaffSession",
  method: "delete",
  path: "/api/admin/account/sessions/{id}",
  summary: "End one of one's own sessions",
  tags: ["staff"],
  security: STAFF_SESSION,
  params: z.object({ id: z.uuid().describe("The session's id") }),
  responses: {
    204: { description: "Ended" },
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    404: error("No session of yours has this id", ["session_not_found"]),
    ...IGNORED_BODY_ERRORS,
    ...OWN_ACCOUNT_GUARD,
  },
});

export const changeOwnPassword = defineOperation({
  id: "changeOwnStaffPassword",
  method: "put",
  path: "/api/admin/account/password",
  summary: "Change one's own password",
  description: "The current password is required; every other session of the account ends.",
  tags: ["staff"],
  security: STAFF_SESSION,
  body: { schema: ChangePasswordSchema },
  responses: {
    200: { description: "Changed", schema: OkSchema },
    400: invalid("A wrong current password, a weak new one, or malformed JSON"),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    ...JSON_BODY_ERRORS,
    ...OWN_ACCOUNT_GUARD,
    ...PASSWORD_AGAIN_LIMITS,
  },
});

export const requestPasswordReset = defineOperation({
  id: "requestStaffPasswordReset",
  method: "post",
  path: "/api/admin/password-reset",
  summary: "Forgotten password: mail a reset link",
  description:
    "The same answer whether or not an account has this email; a link (1 hour) is mailed only when one does. Counted per email and per address.",
  tags: ["staff"],
  security: PUBLIC,
  body: { schema: ForgottenPasswordSchema },
  responses: {
    202: { description: "If an account has this email, a link is on its way", schema: OkSchema },
    400: invalid("No email, or malformed JSON"),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    429: {
      ...error("Too many requests for this email or from this address", ["too_many_attempts"]),
      headers: RETRY_AFTER,
    },
    503: error("The limiter cannot be reached, so nothing is sent unmetered", [
      "limiter_unavailable",
    ]),
    ...JSON_BODY_ERRORS,
  },
});

export const completePasswordReset = defineOperation({
  id: "completeStaffPasswordReset",
  method: "post",
  path: "/api/admin/password-reset/{token}",
  summary: "Set a new password from a reset link",
  description: "Spends the link and ends every session of the account.",
  tags: ["staff"],
  security: PUBLIC,
  params: tokenParams,
  body: { schema: NewPasswordSchema },
  responses: {
    200: { description: "The password is set; sign in with it", schema: OkSchema },
    400: invalid("A weak password, or malformed JSON"),
    403: error(CROSS_ORIGIN, ["cross_origin"]),
    404: linkInvalid,
    ...JSON_BODY_ERRORS,
  },
});

export const ACCOUNT_OPERATIONS = [
  listAccounts,
  inviteAccount,
  setAccountDisabled,
  setAccountAdmin,
  endAccountSessions,
  sendAccountPasswordReset,
  getInvitation,
  acceptInvitation,
  listOwnSessions,
  endOwnSession,
  changeOwnPassword,
  requestPasswordReset,
  completePasswordReset,
];
