import { z } from "zod";
import { LANGUAGES } from "#i18n/config.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-rules.ts";

/** The first-admin form, shared by the setup page and POST /api/admin/setup. */
export const StaffSetupSchema = z.object({
  token: z.string().max(100),
  email: z
    .string()
    .trim()
    .min(1, "staff.validation.emailRequired")
    .max(254, "validation.emailInvalid"),
  displayName: z
    .string()
    .trim()
    .min(1, "staff.validation.nameRequired")
    .max(100, "staff.validation.nameTooLong"),
  password: z
    .string()
    .min(1, "staff.validation.passwordRequired")
    // The rest of the policy (common passwords, the email) is the server's: the list is large.
    .refine((password) => [...password].length >= PASSWORD_MIN_LENGTH, "staff.password.tooShort")
    .refine((password) => [...password].length <= PASSWORD_MAX_LENGTH, "staff.password.tooLong"),
  language: z.enum(LANGUAGES).default("en"),
});
export type StaffSetup = z.infer<typeof StaffSetupSchema>;
