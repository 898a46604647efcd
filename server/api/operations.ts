import type { Operation } from "#domain/api/operation.ts";
import { CALENDAR_VIEW_OPERATIONS } from "#domain/calendar/calendar.contract.ts";
import { CALENDAR_FEED_OPERATIONS } from "#domain/calendar/feeds.contract.ts";
import { CONVERSATION_OPERATIONS } from "#domain/conversation/messages.contract.ts";
import { CATALOGUE_OPERATIONS } from "#domain/catalogue/catalogue.contract.ts";
import { MAIL_OPERATIONS } from "#domain/mail/mail.contract.ts";
import { PRICING_OPERATIONS } from "#domain/pricing/pricing.contract.ts";
import { OFFER_OPERATIONS } from "#domain/offers/offers.contract.ts";
import { OWNER_REQUEST_OPERATIONS } from "#domain/owners/owner-requests.contract.ts";
import { OWNER_OPERATIONS } from "#domain/owners/owners.contract.ts";
import { REQUEST_OPERATIONS } from "#domain/requests/requests.contract.ts";
import { STAFF_ESTATE_OPERATIONS } from "#domain/staff/estates.contract.ts";
import { INBOX_OPERATIONS } from "#domain/staff/inbox.contract.ts";
import { WEBHOOK_OPERATIONS } from "#domain/webhooks/webhooks.contract.ts";
import {
  OWNER_PASSKEY_OPERATIONS,
  STAFF_PASSKEY_OPERATIONS,
} from "#domain/auth/passkeys.contract.ts";
import { STAFF_AUTH_OPERATIONS } from "#domain/staff/staff-auth.contract.ts";
import { MFA_OPERATIONS } from "#domain/staff/mfa/mfa.contract.ts";
import { ACCOUNT_OPERATIONS } from "#domain/staff/accounts.contract.ts";
import { SECURITY_LOG_OPERATIONS } from "#domain/security/security-log.contract.ts";
import { PRIVACY_OPERATIONS } from "#domain/privacy/privacy.contract.ts";

/**
 * Every /api operation, the registry the OpenAPI document is generated from. A route serves
 * each (`defineRoute`), and `operations.test.ts` fails when a route is missing from here or an
 * operation here has no route.
 */
export const API_OPERATIONS: readonly Operation[] = [
  ...CATALOGUE_OPERATIONS,
  ...PRICING_OPERATIONS,
  ...OFFER_OPERATIONS,
  ...REQUEST_OPERATIONS,
  ...OWNER_OPERATIONS,
  ...OWNER_REQUEST_OPERATIONS,
  ...STAFF_AUTH_OPERATIONS,
  ...MFA_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...MAIL_OPERATIONS,
  ...INBOX_OPERATIONS,
  ...STAFF_ESTATE_OPERATIONS,
  ...CALENDAR_VIEW_OPERATIONS,
  ...CALENDAR_FEED_OPERATIONS,
  ...CONVERSATION_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...SECURITY_LOG_OPERATIONS,
  ...PRIVACY_OPERATIONS,
  ...STAFF_PASSKEY_OPERATIONS,
  ...OWNER_PASSKEY_OPERATIONS,
];
