import { z } from "zod";
import { lastBookableDate } from "./dates.ts";
import {
  botToken,
  choice,
  count,
  email,
  futureDate,
  optionalText,
  requiredText,
} from "./fields.ts";
import { CASTELLUM_STATUSES, DATE_MODES, FORM_LIMITS, PAYMENT_METHODS } from "./options.ts";

/**
 * The property booking (/booking/{id-or-slug}, decisions.md). Dates run
 * from today to the booking horizon; the end date cannot precede the start date.
 */
export function propertyBookingSchema(
  horizonMonths: number = FORM_LIMITS.bookingHorizonMonths,
  /**
   * The browser's own check of the dates against the estate's taken nights: the message for
   * the start date, or null. It runs whatever else is wrong (the bot check still running), so
   * the guest hears of taken nights first.
   */
  takenNight?: (startDate: unknown, endDate: unknown) => string | null,
) {
  const withinWindow = (message: string) =>
    futureDate(message).refine(
      (value) => value <= lastBookableDate(horizonMonths),
      "validation.dateBeyondWindow",
    );
  return z
    .object({
      propertyId: z
        .number({ error: "validation.propertyIdRequired" })
        .int("validation.propertyIdRequired")
        .positive("validation.propertyIdRequired"),
      propertyName: optionalText(),
      firstName: requiredText(1, "validation.firstNameRequired"),
      lastName: requiredText(1, "validation.lastNameRequired"),
      email: email("validation.emailInvalidShort"),
      phone: requiredText(1, "validation.phoneRequired", FORM_LIMITS.phoneMax),
      dateMode: choice(DATE_MODES, "validation.invalid").default("exact"),
      startDate: withinWindow("validation.checkInRequired"),
      endDate: withinWindow("validation.checkOutRequired"),
      flexibilityDays: z
        .number({ error: "validation.flexibilityRange" })
        .int("validation.flexibilityRange")
        .min(0, "validation.flexibilityRange")
        .max(FORM_LIMITS.flexibilityDaysMax, "validation.flexibilityRange")
        .default(0),
      numberOfGuests: count(1, "validation.guestsRequired"),
      castellumStatus: choice(CASTELLUM_STATUSES, "validation.invalid").default("caslHolder"),
      paymentMethod: choice(PAYMENT_METHODS, "validation.invalid").default("casl"),
      specialRequests: optionalText(FORM_LIMITS.longTextMax),
      turnstileToken: botToken,
    })
    .refine((form) => form.endDate >= form.startDate, {
      path: ["endDate"],
      message: "validation.endBeforeStart",
      when: (payload) => {
        const value = payload.value as { startDate?: unknown; endDate?: unknown };
        return typeof value.startDate === "string" && typeof value.endDate === "string";
      },
    })
    .superRefine(
      (form, context) => {
        const message = takenNight?.(form.startDate, form.endDate);
        if (message) context.addIssue({ code: "custom", path: ["startDate"], message });
      },
      {
        when: ({ value }) =>
          takenNight !== undefined && typeof value === "object" && value !== null,
      },
    )
    .transform((form) => ({
      ...form,
      // Flexibility only means something in flexible mode.
      flexibilityDays: form.dateMode === "flexible" ? form.flexibilityDays : 0,
    }));
}

export type PropertyBookingInput = z.input<ReturnType<typeof propertyBookingSchema>>;
export type PropertyBooking = z.output<ReturnType<typeof propertyBookingSchema>>;
