import { z } from "zod";
import { earliestBookableDate, isIsoDate } from "./dates.ts";
import { FORM_LIMITS } from "./options.ts";

/**
 * Field builders the three form schemas share. Every message is a translation key under
 * `validation.*`; the browser and the server translate it into the guest's language.
 */

/** A required text: trimmed, at least `min` characters, at most `max`. */
export function requiredText(min: number, message: string, max: number = FORM_LIMITS.shortTextMax) {
  return z.string({ error: message }).trim().min(min, message).max(max, "validation.tooLong");
}

/** An optional text: trimmed, capped; absent becomes "". */
export function optionalText(max: number = FORM_LIMITS.shortTextMax) {
  return z
    .string({ error: "validation.invalid" })
    .trim()
    .max(max, "validation.tooLong")
    .default("");
}

export function email(message: string) {
  return z
    .string({ error: message })
    .trim()
    .max(FORM_LIMITS.emailMax, "validation.tooLong")
    .regex(z.regexes.email, message);
}

/** One of `values`; anything else (or nothing) gets `message`. */
export function choice<const T extends readonly [string, ...string[]]>(values: T, message: string) {
  return z.enum(values, { error: message });
}

/** A list of distinct choices from `values`. */
export function choices<const T extends readonly [string, ...string[]]>(
  values: T,
  min = 0,
  message = "validation.invalid",
) {
  return z
    .array(z.enum(values, { error: "validation.invalid" }), {
      error: min > 0 ? message : "validation.invalid",
    })
    .max(values.length, "validation.invalid")
    .min(min, message)
    .transform((list) => [...new Set(list)]);
}

export function count(min: number, message: string) {
  return z
    .number({ error: message })
    .int(message)
    .min(min, message)
    .max(FORM_LIMITS.countMax, "validation.countMax");
}

/** A 'YYYY-MM-DD' date that is not in the past. */
export function futureDate(message: string) {
  return z
    .string({ error: message })
    .trim()
    .min(1, message)
    .refine(isIsoDate, message)
    .refine((value) => value >= earliestBookableDate(), "validation.dateInPast");
}

export const flag = z.boolean({ error: "validation.invalid" }).default(false);

/** The bot-check token the widget produced (spec: at least one character). */
export const botToken = z
  .string({ error: "validation.turnstileRequired" })
  .min(1, "validation.turnstileRequired")
  .max(20_000, "validation.invalid");

/** Validation failures as the API reports them: `{path, message}` with a translation key. */
export interface FieldIssue {
  path: string;
  message: string;
  /** Values for the message's placeholders ({{min}}, {{max}}...). */
  params?: Record<string, string | number>;
}

export function fieldIssues(error: z.ZodError): FieldIssue[] {
  const seen = new Set<string>();
  const issues: FieldIssue[] = [];
  for (const issue of error.issues) {
    const path = issue.path.filter((part) => typeof part !== "symbol").join(".");
    if (seen.has(path)) continue;
    seen.add(path);
    const message = /^(validation|staff|owner\.calendar(Feeds)?|conversation|pricing)\./.test(
      issue.message,
    )
      ? issue.message
      : "validation.invalid";
    issues.push({ path, message });
  }
  return issues;
}
