import { z } from "zod";

/**
 * Every refusal of /api carries one of these codes beside its message: `{message, code}`
 * (a 400 of field issues adds `errors`). The message is for people, in the caller's language,
 * and may change; the code is for programs and does not. A client branches on `code`, never on
 * the message or on which fields a body happens to have. Each operation lists the codes it may
 * answer per status (its contract, rendered into /api/openapi.json).
 *
 * A code names one refusal, not a status: two 409s of one call have two codes. Codes are
 * added, never renamed or reused for another meaning.
 */
export const API_ERROR_CODES = {
  // Any call: the body, the query string and the method.
  validation_failed: "The input breaks its schema; `errors` names each field",
  malformed_json: "The body is not valid JSON",
  bad_request: "The request could not be read (a body cut short, or not of its stated length)",
  json_too_deep: "The JSON body nests deeper than the server reads",
  unstorable_text: "Text no database holds (a NUL or an unpaired surrogate), in the body or query",
  payload_too_large: "The body is larger than the call takes",
  unsupported_media_type: "The body is not of a media type, encoding or charset the call reads",
  method_not_allowed: "No route answers this method (see `Allow`)",
  not_found: "Nothing at this address, or no such thing with this id",
  internal_error: "The server failed; nothing the caller can change",
  contract_violation: "While tests run only: the answer broke the operation's own contract",
  service_unavailable: "The database cannot be reached; try again (see `Retry-After`)",

  // Guards.
  cross_origin: "A browser request from another site, refused before anything is read",
  rate_limited: "Too many requests from this address (see `Retry-After`)",
  limiter_unavailable:
    "The counters of a rate limit cannot be reached, so the call is refused rather than let through unmetered",
  not_signed_in: "No session: not signed in, or the session expired or was revoked",
  sign_in_incomplete: "A sign-in short of its second factor or its enrolment",
  not_admin: "The staff account is not an admin",
  access_denied: "The account is disabled, or its email is not at the company domain",
  forbidden: "Signed in, but not allowed to act on this (an owner on another owner's estate)",

  // Staff sign-in, accounts and second factors.
  invalid_credentials: "Wrong email or password, or a disabled account (one answer for all three)",
  too_many_attempts:
    "Too many wrong tries for this account or from this address (see `Retry-After`)",
  setup_link_invalid: "The first admin's setup link is unknown, expired, used or too late",
  link_invalid: "An invitation or password-reset link that is unknown, already used or expired",
  wrong_password: "The password asked for again is wrong",
  account_exists: "An account with this email exists",
  account_not_found: "No such staff account",
  last_admin: "The last enabled admin cannot be disabled or demoted",
  session_not_found: "No session of yours has this id",
  mfa_already_enrolled: "An authenticator app is already confirmed",
  mfa_session_ended: "The sign-in used its last try of a second factor and ended",
  last_factor: "The second factor is required and this is the last one",
  no_factor: "The account has no second factor",
  passkey_not_found: "No passkey with this id",
  passkey_not_saved: "The new passkey did not verify, so it was not saved",
  passkey_refused: "The passkey was not accepted",

  // Guests' requests.
  bot_check_failed: "The bot-check token is missing, forged, expired or already spent",
  idempotency_key_invalid: "The Idempotency-Key header is malformed",
  idempotency_conflict: "The Idempotency-Key was already used with a different body",

  // The inbox.
  version_conflict:
    "Someone changed it since `version` (or since it was read); `current` is how it is now",
  request_closed: "The request is no longer open (answered or closed)",
  calendar_collision: "The nights collide with a confirmed stay or a block (`collidesWith`)",
  imported_busy:
    "Imported calendars hold some of the nights (`importedBusy`); confirm again with `confirmOverImported`",
  message_conflict: "The guest wrote since `lastSeenMessageId`; `messages` is the thread now",
  mail_not_failed: "The mail is not failed: it is still being retried, was sent or was discarded",
  too_many_exports: "Too many exports of the security log in a short time (see `Retry-After`)",

  // Estates, owners, calendars, webhooks.
  estate_not_found: "No estate (property) with this id or slug",
  media_not_found: "No image with this key",
  no_claimed_estate: "The owner has no claimed estate",
  invalid_filter: "A query parameter breaks its rules; the message names it",
  invalid_input: "The input is well formed but not possible (dates out of order, too long a range)",
  revision_not_found: "No such revision of this estate",
  not_revertable: "This revision cannot be reverted",
  already_reverted: "This revision was already reverted",
  too_many_codes: "Too many owner codes asked for this email or from this address",
  code_invalid: "A wrong owner code; the message says how many tries are left",
  code_expired: "The owner code expired; ask for a new one",
  code_locked: "Too many wrong owner codes; ask for a new one",
  claim_failed: "The owner's proof does not claim this estate",
  request_decided: "Staff have already decided the request: an owner's view no longer counts",
  image_not_deletable: "A demo illustration, not an upload: it cannot be deleted",
  upload_type: "A file that is not a JPEG, PNG, WebP or AVIF picture",
  upload_too_large: "A file larger than the upload limit",
  upload_too_many_pixels: "A picture with more pixels than the server decodes",
  upload_too_many_files: "More files than one upload takes",
  upload_no_files: "An upload without files",
  block_not_found: "No block of this estate with this id",
  staff_block: "A block staff made, which only staff remove",
  feed_not_found: "No imported calendar of this estate with this id",
  sync_too_soon: "The feed was read (or is being read) less than a minute ago (see `Retry-After`)",
  endpoint_not_found: "No such webhook endpoint",

  // Prices.
  rates_changed: "Someone saved the estate's rates since the revision the caller edited",
  no_rates: "The estate has no rates yet, so no price can be given",
  stay_too_short: "Fewer nights than the estate's minimum stay from the check-in date",
  no_stay: "The request names no estate or no dates yet",
  not_offerable: "The request cannot take this step in its present status",
  offer_not_found: "No open offer with this id on the request",
  offer_expired: "The offer expired before it was answered",
  offer_accepted: "The guest accepted the request's offer: the booking is cancelled, not moved",
  cancel_not_allowed: "The guest may no longer cancel online under the offer's policy",
  no_accepted_offer: "The request has no accepted offer to pay",
  nights_taken: "Some of the offer's nights were taken meanwhile: nothing changed",
  checkout_unavailable: "Card payment is not configured, or the provider cannot be reached",
  nothing_due: "Nothing is due on the offer now",
  signature_invalid: "A provider's notice whose signature is missing, forged or too old",
} as const satisfies Record<string, string>;

export type ApiErrorCode = keyof typeof API_ERROR_CODES;

export const API_ERROR_CODE_LIST = Object.keys(API_ERROR_CODES) as [
  ApiErrorCode,
  ...ApiErrorCode[],
];

/** Any code, as a client reads a refusal (each answer's contract lists its own). */
export const ApiErrorCodeSchema = z
  .enum(API_ERROR_CODE_LIST)
  .describe("What went wrong, for programs: stable, unlike the message");
