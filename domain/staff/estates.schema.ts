import { z } from "zod";
import { isEmailAddress } from "../owners/owner-fields.ts";
import { isStorableText, UNSTORABLE_TEXT } from "../storable-text.ts";

const emptyAsUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

/** The largest id an integer column holds (`parseEstateId` refuses larger ones too). */
const MAX_ESTATE_ID = 2_147_483_647;

/** Estates per page of the staff list. */
export const ESTATE_PAGE_SIZE = 50;

/**
 * One page of the staff list of estates: a search (an estate's name in any language, or the
 * owner's email) and the keyset cursor (the last id of the previous page). Read from the URL
 * by the page and by GET /api/admin/estates, with the same rules.
 */
export const EstateSearchSchema = z.object({
  q: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .trim()
      .max(100, "staff.validation.searchTooLong")
      .refine(isStorableText, UNSTORABLE_TEXT)
      .optional(),
  ),
  after: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number("staff.validation.cursorInvalid")
      .int("staff.validation.cursorInvalid")
      .positive("staff.validation.cursorInvalid")
      .max(MAX_ESTATE_ID, "staff.validation.cursorInvalid")
      .optional(),
  ),
});
export type EstateSearch = z.infer<typeof EstateSearchSchema>;

/** The search as URL parameters (empty values left out), for the page's links. */
export function estateSearchToParams(search: EstateSearch): URLSearchParams {
  const params = new URLSearchParams();
  if (search.q) params.set("q", search.q);
  if (search.after !== undefined) params.set("after", String(search.after));
  return params;
}

/** A new owner contact email for an estate (PATCH /api/admin/estates/{id}/owner-email). */
export const OwnerEmailChangeSchema = z.object({
  email: z
    .string("staff.estates.errors.emailRequired")
    .trim()
    .min(1, "staff.estates.errors.emailRequired")
    .max(254, "staff.estates.errors.emailInvalid")
    .refine((value) => isEmailAddress(value.toLowerCase()), "staff.estates.errors.emailInvalid"),
});
export type OwnerEmailChange = z.infer<typeof OwnerEmailChangeSchema>;

/** An estate's id in a path: a positive whole number, else null (the caller answers 404). */
export function parseEstateId(value: unknown): number | null {
  if (typeof value !== "string" || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ESTATE_ID ? id : null;
}

/**
 * An estate's own response time: the hours staff have to answer a request for it
 * before the system rejects it; null goes back to REQUEST_RESPONSE_HOURS.
 */
export const ResponseHoursChangeSchema = z.object({
  hours: z
    .number("staff.lifecycle.responseHours.invalid")
    .min(0.01, "staff.lifecycle.responseHours.invalid")
    .max(24 * 365, "staff.lifecycle.responseHours.invalid")
    .nullable(),
});
export type ResponseHoursChange = z.infer<typeof ResponseHoursChangeSchema>;

/** The network's share of an estate's stays, in percent with at most two decimals; null: the site's. */
export const CommissionChangeSchema = z.object({
  percent: z
    .number("staff.estates.commission.invalid")
    .min(0, "staff.estates.commission.invalid")
    .max(100, "staff.estates.commission.invalid")
    .refine(
      (value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-9,
      "staff.estates.commission.invalid",
    )
    .nullable(),
});
export type CommissionChange = z.infer<typeof CommissionChangeSchema>;
