import { z } from "zod";
import type { staffUsers } from "#db/schema/index.ts";
import { LANGUAGES, type Language } from "#i18n/config.ts";
import type { StaffUserSchema } from "./staff-auth.contract.ts";

/** A staff account as the rest of the product sees it: never its password hash. */
export type StaffUser = z.infer<typeof StaffUserSchema>;

export function toStaffUser(row: typeof staffUsers.$inferSelect): StaffUser {
  return {
    id: row.id,
    email: row.email,
    displayName: row.displayName,
    isAdmin: row.isAdmin,
    disabled: row.disabled,
    language: (LANGUAGES as readonly string[]).includes(row.language)
      ? (row.language as Language)
      : "en",
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
  };
}

/** Staff emails are compared and stored lowercased. */
export const StaffEmailSchema = z
  .string()
  .trim()
  .max(254, "validation.emailInvalid")
  .pipe(z.email("validation.emailInvalid"))
  .transform((email) => email.toLowerCase());

/**
 * What the staff area lets a signed-in account do: an admin flag and an email
 * at the company domain are both needed; the page for a wrong domain says so and shows the email.
 */
export type StaffAccess = "granted" | "not_admin" | "wrong_domain";

export function staffAccessOf(user: StaffUser, adminEmailDomain: string): StaffAccess {
  if (!user.isAdmin || user.disabled) return "not_admin";
  if (!isCompanyEmail(user.email, adminEmailDomain)) return "wrong_domain";
  return "granted";
}

export function isCompanyEmail(email: string, adminEmailDomain: string): boolean {
  return email.toLowerCase().endsWith(`@${adminEmailDomain.toLowerCase()}`);
}
