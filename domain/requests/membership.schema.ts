import { z } from "zod";
import { botToken, choice, choices, email, optionalText, requiredText } from "./fields.ts";
import { FORM_LIMITS, GENDERS, INTERESTS, TITLES } from "./options.ts";

/** The members' club application (/membership). */
export const membershipSchema = z.object({
  title: choice(TITLES, "validation.titleRequired"),
  firstName: requiredText(FORM_LIMITS.nameMin, "validation.firstNameMin"),
  lastName: requiredText(FORM_LIMITS.nameMin, "validation.lastNameMin"),
  gender: choice(GENDERS, "validation.genderRequired"),
  email: email("validation.emailInvalid"),
  otherClubMemberships: optionalText(FORM_LIMITS.longTextMax),
  linkedinProfile: optionalText(FORM_LIMITS.handleMax),
  instagramHandle: optionalText(FORM_LIMITS.handleMax),
  xHandle: optionalText(FORM_LIMITS.handleMax),
  interests: choices(INTERESTS, 1, "validation.interestsMin"),
  reasonToJoin: requiredText(
    FORM_LIMITS.reasonMin,
    "validation.reasonMin",
    FORM_LIMITS.longTextMax,
  ),
  turnstileToken: botToken,
});

export type MembershipInput = z.input<typeof membershipSchema>;
export type Membership = z.output<typeof membershipSchema>;
