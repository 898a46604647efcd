import type { z } from "zod";
import { getProperty } from "#domain/catalogue/read-properties.ts";
import type { Deps } from "#domain/deps.ts";
import { BotCheckError, NotFoundError, ValidationError } from "#domain/errors.ts";
import { bookingRequestSchema } from "../booking-request.schema.ts";
import { fieldIssues } from "../fields.ts";
import { membershipSchema } from "../membership.schema.ts";
import type { RequestKind } from "../options.ts";
import { propertyBookingSchema } from "../property-booking.schema.ts";
import { formatDate } from "../summary.ts";
import { readUnavailableNights } from "#domain/calendar/availability.ts";
import { firstTakenNight, stayNights } from "#domain/calendar/nights.ts";
import type { Language } from "#i18n/config.ts";

/** A guest form that passed its schema, with the bot-check token it came with. */
export interface CheckedGuestRequest {
  token: string;
  /** The form's fields as the schema gives them (the token left out; a booking's estate named). */
  details: Record<string, unknown> & { firstName: string; lastName: string; email: string };
  /** The estate of a property booking; null for the other kinds. */
  propertyId: number | null;
}

/**
 * Reads an untrusted body as the form of `kind`: the bot-check token (in the body, else the
 * header's) must be there (BotCheckError), the fields must pass the shared schema and a
 * booking's estate must exist and its nights be free (ValidationError). The token is not
 * verified here.
 */
export async function checkGuestRequest(
  deps: Deps,
  input: {
    kind: RequestKind;
    body: unknown;
    language: Language;
    headerBotToken?: string;
    bookingHorizonMonths: number;
  },
): Promise<CheckedGuestRequest> {
  const raw = (input.body && typeof input.body === "object" ? input.body : {}) as Record<
    string,
    unknown
  >;
  const token =
    typeof raw.turnstileToken === "string" && raw.turnstileToken
      ? raw.turnstileToken
      : (input.headerBotToken ?? "");
  if (!token) throw new BotCheckError();

  const schema = schemaFor(input.kind, input.bookingHorizonMonths);
  const parsed = schema.safeParse({ ...raw, turnstileToken: token });
  if (!parsed.success) throw new ValidationError(fieldIssues(parsed.error));
  const { turnstileToken: _spent, ...details } = parsed.data as CheckedGuestRequest["details"] & {
    turnstileToken: string;
  };

  let propertyId: number | null = null;
  if (input.kind === "property_booking") {
    const property = await getProperty(deps, {
      idOrSlug: String(details.propertyId),
      language: input.language,
    }).catch((error: unknown) => {
      // An unknown estate is the guest's mistake; anything else (the database) is ours.
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (!property)
      throw new ValidationError([{ path: "propertyId", message: "validation.propertyUnknown" }]);
    propertyId = property.id;
    await refuseTakenNights(deps, property.id, details, input.language);
    details.propertyName = property.name;
    details.propertySlug = property.slug;
  }
  return { token, details, propertyId };
}

/**
 * A property booking asks for the nights [startDate, endDate) (a same-day stay: that one
 * night), in exact and flexible mode alike; a night a stay, block or imported calendar holds
 * is refused on startDate, naming the first such night in the guest's language. The check-out
 * day may be the next arrival's first night. Pending requests hold no nights: nothing is
 * claimed here, so two guests may ask for the same free nights and staff confirm one.
 */
async function refuseTakenNights(
  deps: Deps,
  propertyId: number,
  details: Record<string, unknown>,
  language: Language,
): Promise<void> {
  const wanted = stayNights(String(details.startDate), String(details.endDate));
  const taken = await readUnavailableNights(deps, {
    propertyId,
    from: wanted.start,
    to: wanted.end,
  });
  const night = firstTakenNight(wanted, taken);
  if (night)
    throw new ValidationError([
      {
        path: "startDate",
        message: "validation.nightsUnavailable",
        params: { date: formatDate(night, language) },
      },
    ]);
}

function schemaFor(kind: RequestKind, bookingHorizonMonths: number): z.ZodType {
  if (kind === "booking_request") return bookingRequestSchema;
  if (kind === "membership") return membershipSchema;
  return propertyBookingSchema(bookingHorizonMonths);
}
