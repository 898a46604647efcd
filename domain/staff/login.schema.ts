import { z } from "zod";

/** The login form: both fields required; shared by the page and the API. */
export const StaffLoginSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, "staff.validation.emailRequired")
    .max(254, "validation.emailInvalid"),
  password: z
    .string()
    .min(1, "staff.validation.passwordRequired")
    .max(1024, "staff.validation.passwordRequired"),
});
export type StaffLogin = z.infer<typeof StaffLoginSchema>;
