import { z } from "zod";
import countryCodes from "./country-codes.json" with { type: "json" };
import {
  botToken,
  choice,
  choices,
  count,
  email,
  flag,
  futureDate,
  optionalText,
  requiredText,
} from "./fields.ts";
import {
  AMENITY_KEYS,
  BOOKING_TYPES,
  EXPERIENCE_STYLES,
  FORM_LIMITS,
  HEARD_ABOUT,
  MEMBER_STATUSES,
  REGIONS,
  REQUESTED_SERVICES,
} from "./options.ts";

const COUNTRY_CODES = countryCodes as [string, ...string[]];

/** The general booking request (/booking-request, decisions.md). */
export const bookingRequestSchema = z
  .object({
    firstName: requiredText(FORM_LIMITS.nameMin, "validation.firstNameMin"),
    lastName: requiredText(FORM_LIMITS.nameMin, "validation.lastNameMin"),
    email: email("validation.emailInvalid"),
    phoneNumber: requiredText(
      FORM_LIMITS.phoneMin,
      "validation.phoneInvalid",
      FORM_LIMITS.phoneMax,
    ),
    memberStatus: choice(MEMBER_STATUSES, "validation.memberStatusRequired"),
    countryOfResidence: choice(COUNTRY_CODES, "validation.countryRequired"),
    bookingType: choices(BOOKING_TYPES, 1, "validation.bookingTypeMin"),
    checkInDate: futureDate("validation.checkInRequired"),
    checkOutDate: futureDate("validation.checkOutRequired"),
    flexibleDates: flag,
    estimatedGuests: count(1, "validation.guestsMin"),
    adults: count(1, "validation.adultsMin"),
    children: count(0, "validation.childrenMin").default(0),
    bedroomsRequired: count(1, "validation.bedroomsMin"),
    preferredRegion: choices(REGIONS, 1, "validation.regionMin"),
    preferredAmenities: choices(AMENITY_KEYS).default([]),
    requestedServices: choices(REQUESTED_SERVICES).default([]),
    experienceStyle: choices(EXPERIENCE_STYLES).default([]),
    privacyPriority: flag,
    fullExclusivityNeeded: flag,
    bookingGoal: requiredText(
      FORM_LIMITS.bookingGoalMin,
      "validation.bookingGoalMin",
      FORM_LIMITS.longTextMax,
    ),
    heardAboutCastellum: choice(HEARD_ABOUT, "validation.heardAboutRequired"),
    specialRequests: optionalText(FORM_LIMITS.longTextMax),
    turnstileToken: botToken,
  })
  .refine((form) => form.checkOutDate >= form.checkInDate, {
    path: ["checkOutDate"],
    message: "validation.checkOutBeforeCheckIn",
    when: (payload) => {
      const value = payload.value as { checkInDate?: unknown; checkOutDate?: unknown };
      return typeof value.checkInDate === "string" && typeof value.checkOutDate === "string";
    },
  });

export type BookingRequestInput = z.input<typeof bookingRequestSchema>;
export type BookingRequest = z.output<typeof bookingRequestSchema>;
