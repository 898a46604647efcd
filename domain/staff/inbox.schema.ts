import { z } from "zod";
import { filterDaySchema } from "../requests/filter-day.schema.ts";
import { isStorableText, UNSTORABLE_TEXT } from "../storable-text.ts";
import { NOTE_MAX_LENGTH, REASON_MAX_LENGTH } from "./inbox-limits.ts";
import { MONEY_STATES } from "../offers/offer.schema.ts";
import { MEMBER_STATUSES, REQUEST_KINDS, REQUEST_STATUSES } from "../requests/options.ts";

const isoDate = filterDaySchema("staff.validation.dateInvalid");

/** The largest id an integer column holds: a larger one matches nothing and is refused. */
const MAX_ROW_ID = 2_147_483_647;

const emptyAsUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

/** `due`: open requests by due time, soonest first, then those without one. */
export const INBOX_SORTS = ["newest", "oldest", "due"] as const;
export const INBOX_PAGE_SIZE = 25;

/**
 * One view of the staff inbox: which kind, which filters, which page. It is read from the URL
 * (so a view can be bookmarked and shared) by the page and by GET /api/{collection}, with the
 * same rules. A status outside the kind's own set is refused by `parseInboxFilter`.
 */
export const InboxFilterSchema = z.object({
  kind: z.enum(REQUEST_KINDS, "staff.validation.kindInvalid").default("booking_request"),
  status: z.preprocess(
    emptyAsUndefined,
    z.enum(REQUEST_STATUSES, "staff.validation.statusInvalid").optional(),
  ),
  q: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .trim()
      .max(100, "staff.validation.searchTooLong")
      .refine(isStorableText, UNSTORABLE_TEXT)
      .optional(),
  ),
  from: z.preprocess(emptyAsUndefined, isoDate.optional()),
  to: z.preprocess(emptyAsUndefined, isoDate.optional()),
  propertyId: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number("staff.validation.propertyInvalid")
      .int("staff.validation.propertyInvalid")
      .positive("staff.validation.propertyInvalid")
      .max(MAX_ROW_ID, "staff.validation.propertyInvalid")
      .optional(),
  ),
  memberStatus: z.preprocess(
    emptyAsUndefined,
    z.enum(MEMBER_STATUSES, "staff.validation.memberStatusInvalid").optional(),
  ),
  money: z.preprocess(
    emptyAsUndefined,
    z.enum(MONEY_STATES, "staff.validation.moneyInvalid").optional(),
  ),
  sort: z.preprocess(
    emptyAsUndefined,
    z.enum(INBOX_SORTS, "staff.validation.sortInvalid").default("newest"),
  ),
  after: z.preprocess(
    emptyAsUndefined,
    z.string().max(200).refine(isStorableText, UNSTORABLE_TEXT).optional(),
  ),
  limit: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number()
      .int()
      .min(1, "staff.validation.limitInvalid")
      .max(100, "staff.validation.limitInvalid")
      .default(INBOX_PAGE_SIZE),
  ),
});
export type InboxFilter = z.infer<typeof InboxFilterSchema>;

/** The filter as URL search parameters (defaults left out), for links and the CSV export. */
export function inboxFilterToSearch(filter: Partial<InboxFilter>): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.kind && filter.kind !== "booking_request") params.set("kind", filter.kind);
  for (const key of [
    "status",
    "q",
    "from",
    "to",
    "propertyId",
    "memberStatus",
    "money",
    "after",
  ] as const) {
    const value = filter[key];
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  if (filter.sort && filter.sort !== "newest") params.set("sort", filter.sort);
  if (filter.limit && filter.limit !== INBOX_PAGE_SIZE) params.set("limit", String(filter.limit));
  return params;
}

/** A status change from the inbox (PATCH /api/{collection}/{id}). */
export const StatusChangeSchema = z.object({
  status: z.enum(REQUEST_STATUSES, "staff.validation.statusInvalid"),
  reason: z.preprocess(
    emptyAsUndefined,
    z.string().trim().max(REASON_MAX_LENGTH, "staff.validation.reasonTooLong").optional(),
  ),
  /** Show the reason on the guest's status page and in the mail. */
  shareReason: z.boolean().default(false),
  /** Mail the guest about the change (the form ticks it for Confirmed, Rejected and their like). */
  notifyGuest: z.boolean().default(false),
  /** The version the change was made against; a newer stored version is a conflict. */
  version: z.number().int().positive().optional(),
  /**
   * Confirm although imported calendars hold some of the nights: staff may know the other
   * site's booking is gone. Without it such a confirmation is answered with the busy times.
   */
  confirmOverImported: z.boolean().optional(),
});
export type StatusChange = z.infer<typeof StatusChangeSchema>;

export const NoteSchema = z.object({
  body: z
    .string()
    .trim()
    .min(1, "staff.validation.noteRequired")
    .max(NOTE_MAX_LENGTH, "staff.validation.noteTooLong"),
});
