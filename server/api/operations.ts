import type { Operation } from "../../domain/api/operation.ts";
import { CALENDAR_VIEW_OPERATIONS } from "../../domain/calendar/calendar.contract.ts";
import { CALENDAR_FEED_OPERATIONS } from "../../domain/calendar/feeds.contract.ts";
import { CATALOGUE_OPERATIONS } from "../../domain/catalogue/catalogue.contract.ts";
import { MAIL_OPERATIONS } from "../../domain/mail/mail.contract.ts";
import { OWNER_OPERATIONS } from "../../domain/owners/owners.contract.ts";
import { REQUEST_OPERATIONS } from "../../domain/requests/requests.contract.ts";
import { STAFF_ESTATE_OPERATIONS } from "../../domain/staff/estates.contract.ts";
import { INBOX_OPERATIONS } from "../../domain/staff/inbox.contract.ts";
import { STAFF_AUTH_OPERATIONS } from "../../domain/staff/staff-auth.contract.ts";

/**
 * Every /api operation, the registry the OpenAPI document is generated from. A route serves
 * each (`defineRoute`), and `operations.test.ts` fails when a route is missing from here or an
 * operation here has no route.
 */
export const API_OPERATIONS: readonly Operation[] = [
  ...CATALOGUE_OPERATIONS,
  ...REQUEST_OPERATIONS,
  ...OWNER_OPERATIONS,
  ...STAFF_AUTH_OPERATIONS,
  ...MAIL_OPERATIONS,
  ...INBOX_OPERATIONS,
  ...STAFF_ESTATE_OPERATIONS,
  ...CALENDAR_VIEW_OPERATIONS,
  ...CALENDAR_FEED_OPERATIONS,
];
