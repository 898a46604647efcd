import { z } from "zod";
import { filterDaySchema } from "../requests/filter-day.schema.ts";
import {
  DateTimeSchema,
  defineOperation,
  error,
  invalid,
  STAFF_SESSION,
} from "../api/operation.ts";
import { adminGuardAnswers } from "../staff/staff-auth.contract.ts";
import { isStorableText, UNSTORABLE_TEXT } from "../storable-text.ts";
import { SECURITY_EVENT_TYPES } from "./security-log.ts";

/**
 * Reading the security log: one page of entries, newest first, and the same entries
 * as CSV, for admins. There is deliberately no call that changes or deletes an entry
 * (`security-log.immutability.test.ts` walks the registry to keep it so).
 */

/** A kind's group is the part before the dot: `sign_in` holds `sign_in.succeeded` and `.failed`. */
export const securityEventGroupOf = (type: string) => type.split(".")[0]!;

/** The groups of kinds (`sign_in`, `account`, `owner`…), in the order the kinds are listed. */
export const SECURITY_EVENT_GROUPS = [
  ...new Set(SECURITY_EVENT_TYPES.filter((type) => type.includes(".")).map(securityEventGroupOf)),
];

/** Kinds that record a refusal or a failure: the `outcome=failure` filter. */
export const isFailureEventType = (type: string) =>
  /(failed|refused)$/.test(type) || type === "lockout";

export const SECURITY_EVENT_OUTCOMES = ["success", "failure"] as const;

export const SECURITY_EVENTS_PAGE_SIZE = 50;

const emptyAsUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

const isoDate = filterDaySchema("staff.securityLog.errors.dateInvalid");

const optionalText = (max: number) =>
  z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .trim()
      .max(max, "staff.securityLog.errors.tooLong")
      .refine(isStorableText, UNSTORABLE_TEXT)
      .optional(),
  );

/** The filters, as the page's URL and both calls read them (every one optional). */
export const SecurityEventFilterSchema = z.object({
  type: z
    .preprocess(
      emptyAsUndefined,
      z
        .enum(
          [...SECURITY_EVENT_TYPES, ...SECURITY_EVENT_GROUPS] as [string, ...string[]],
          "staff.securityLog.errors.typeInvalid",
        )
        .optional(),
    )
    .describe("One kind (`sign_in.failed`) or a group of kinds (`sign_in`, `account`, `owner`…)"),
  email: optionalText(320).describe("Only entries of this actor email (any case)"),
  ip: optionalText(64).describe("Only entries from this client address"),
  from: z
    .preprocess(emptyAsUndefined, isoDate.optional())
    .describe("On or after this day (YYYY-MM-DD, UTC)"),
  to: z
    .preprocess(emptyAsUndefined, isoDate.optional())
    .describe("On or before this day (YYYY-MM-DD, UTC)"),
  outcome: z
    .preprocess(
      emptyAsUndefined,
      z.enum(SECURITY_EVENT_OUTCOMES, "staff.securityLog.errors.outcomeInvalid").optional(),
    )
    .describe(
      "`failure`: failed sign-ins and codes, refused access, lockouts; `success`: the rest",
    ),
});
export type SecurityEventFilter = z.infer<typeof SecurityEventFilterSchema>;

export const SecurityEventPageQuerySchema = SecurityEventFilterSchema.extend({
  cursor: z
    .preprocess(
      emptyAsUndefined,
      z.coerce
        .number("staff.securityLog.errors.cursorInvalid")
        .int("staff.securityLog.errors.cursorInvalid")
        .positive("staff.securityLog.errors.cursorInvalid")
        .max(Number.MAX_SAFE_INTEGER, "staff.securityLog.errors.cursorInvalid")
        .optional(),
    )
    .describe("Where the page starts: the previous page's `nextCursor` (entries with a lower id)"),
  limit: z
    .preprocess(
      emptyAsUndefined,
      z.coerce
        .number("staff.securityLog.errors.limitInvalid")
        .int("staff.securityLog.errors.limitInvalid")
        .min(1, "staff.securityLog.errors.limitInvalid")
        .max(200, "staff.securityLog.errors.limitInvalid")
        .default(SECURITY_EVENTS_PAGE_SIZE),
    )
    .describe("Entries per page"),
});
export type SecurityEventPageQuery = z.infer<typeof SecurityEventPageQuerySchema>;

/** The filter as URL search parameters (empty ones left out), for links and the CSV export. */
export function securityFilterToSearch(
  filter: Partial<SecurityEventFilter> & { cursor?: number },
): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ["type", "email", "ip", "from", "to", "outcome", "cursor"] as const) {
    const value = filter[key];
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  return params;
}

export const SecurityEventSchema = z
  .object({
    id: z.number().int().positive(),
    at: DateTimeSchema,
    type: z.string().describe("The kind of entry (`sign_in.failed`, `access.refused`…)"),
    actorKind: z.enum(["staff", "owner", "anonymous", "system"]),
    staffUserId: z.guid().nullable(),
    actorEmail: z.string().nullable().describe("The email the actor used or was known by"),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    data: z
      .record(z.string(), z.unknown())
      .describe("What happened beyond the kind (reason, target, path); never a secret"),
  })
  .meta({ id: "SecurityEvent", description: "One entry of the security log" });
export type SecurityEventItem = z.infer<typeof SecurityEventSchema>;

export const SecurityEventPageSchema = z
  .object({
    events: z.array(SecurityEventSchema).describe("Newest first"),
    nextCursor: z
      .number()
      .int()
      .positive()
      .nullable()
      .describe("Pass as `cursor` for the next page; null on the last page"),
  })
  .meta({ id: "SecurityEventPage" });

export const listSecurityEvents = defineOperation({
  id: "listSecurityEvents",
  method: "get",
  path: "/api/admin/security-events",
  summary: "Read the security log",
  tags: ["staff"],
  description:
    "One page of the security log, newest first: sign-ins, second factors, account changes, refused access, exports, owner codes, feed and webhook changes. " +
    "Pages follow a cursor (the last id), so entries arriving meanwhile neither repeat nor hide one. The log cannot be changed or deleted through the API.",
  security: STAFF_SESSION,
  query: SecurityEventPageQuerySchema,
  responses: {
    200: { description: "One page", schema: SecurityEventPageSchema },
    400: invalid("Invalid filter: an unknown kind, a bad date, cursor or limit"),
    ...adminGuardAnswers(false),
  },
});

/**
 * Exports per admin and window. Each export is itself logged, so the log grows with every one:
 * a bound keeps a script from reading the whole log in a loop (and the work from growing with
 * the square of the exports).
 */
export const SECURITY_EXPORT_LIMIT = { max: 10, windowMs: 10 * 60_000 } as const;

export const exportSecurityEventsCsv = defineOperation({
  id: "exportSecurityEventsCsv",
  method: "get",
  path: "/api/admin/security-events/export.csv",
  summary: "Export the security log as CSV",
  tags: ["staff"],
  description:
    "Every entry that matches the filter, newest first. UTF-8 with a byte-order mark; every cell quoted, formula starts neutralised. " +
    "The export itself is recorded in the log (`export.csv`).",
  security: STAFF_SESSION,
  query: SecurityEventFilterSchema,
  responses: {
    200: {
      description: "The CSV file",
      headers: {
        "Content-Disposition": {
          description: '`attachment; filename="security-events-YYYY-MM-DD.csv"` (today\'s date)',
          schema: z.string(),
        },
      },
      contentType: "text/csv",
      schema: z.string(),
    },
    400: invalid("Invalid filter"),
    ...adminGuardAnswers(false),
    429: {
      ...error(
        `More than ${SECURITY_EXPORT_LIMIT.max} exports by this admin in ${SECURITY_EXPORT_LIMIT.windowMs / 60_000} minutes`,
        ["too_many_exports"],
      ),
      headers: {
        "Retry-After": {
          description: "Seconds until the next export is counted",
          schema: z.number().int().min(1),
        },
      },
    },
  },
});

export const SECURITY_LOG_OPERATIONS = [listSecurityEvents, exportSecurityEventsCsv];
