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
 * The property booking (/booking/{id-or-slug}; spec points 3 and 5, decisions.md). Dates run
 * from today to the booking horizon; the end date cannot precede the start date.
 */
export function propertyBookingSchema(horizonMonths: number = FORM_LIMITS.bookingHorizonMonths) {
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
    .transform((form) => ({
      ...form,
      // Flexibility only means something in flexible mode.
      flexibilityDays: form.dateMode === "flexible" ? form.flexibilityDays : 0,
    }));
}

export type PropertyBookingInput = z.input<ReturnType<typeof propertyBookingSchema>>;
export type PropertyBooking = z.output<ReturnType<typeof propertyBookingSchema>>;
