import { z } from "zod";
import {
  DateTimeSchema,
  defineOperation,
  error,
  IGNORED_BODY_ERRORS,
  invalid,
  JSON_BODY_ERRORS,
  PUBLIC,
  STAFF_SESSION,
} from "../api/operation.ts";
import { IsoDateSchema } from "../calendar/calendar.schema.ts";
import { ContentLanguageSchema } from "../catalogue/catalogue.contract.ts";
import {
  EstateIdSchema,
  EstateQuerySchema,
  estateGuardAnswers,
  OWNER_OR_STAFF,
} from "../owners/owners.contract.ts";
import { parseEstateId } from "../staff/estates.schema.ts";
import { adminGuardAnswers } from "../staff/staff-auth.contract.ts";
import { CURRENCIES } from "./money.ts";
import { LINE_CODES, MAX_QUOTE_NIGHTS } from "./quote.ts";
import { ratesSchema } from "./rates.schema.ts";

/**
 * An estate's rates as staff and its owner read and change them, and the price of a stay as a
 * guest asks for it. Written once for the routes, the document and the pages. Amounts are
 * integer minor units of `currency` (docs/decisions/0032).
 */

const AMOUNT = z.number().int().describe("Minor units of `currency` (cents, pence)");
const COUNT = z.number().int().min(0);

/** An estate id in a path: a malformed one names no estate (404), as on the other estate calls. */
const PathEstateIdSchema = z
  .preprocess((value) => parseEstateId(value) ?? value, EstateIdSchema)
  .describe("The estate's id");

export const RatesBodySchema = ratesSchema.meta({
  id: "Rates",
  description:
    "An estate's rates. Amounts in minor units; percentages with at most two decimals; seasons may not overlap, each [start, end) like a stay, with its own nightly price and, if set, its own minimum stay for stays starting in it.",
});

export const RatesRevisionSchema = z
  .object({
    revision: z.number().int().min(1),
    actorRole: z.enum(["staff", "owner", "seed"]),
    actorEmail: z
      .string()
      .nullable()
      .describe("Who saved it (staff see every author; an owner sees their own, else null)"),
    revertOf: z.number().int().nullable().describe("The revision this one put back, if any"),
    createdAt: DateTimeSchema,
  })
  .meta({ id: "RatesRevision" });

export const EstateRatesSchema = z
  .object({
    propertyId: EstateIdSchema,
    revision: z.number().int().nullable().describe("The revision in force; null: no rates yet"),
    rates: RatesBodySchema.nullable(),
    revisions: z.array(RatesRevisionSchema).describe("The latest revisions, newest first"),
  })
  .meta({ id: "EstateRates" });

const RatesWriteQuerySchema = z.object({
  basedOn: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      "The revision the caller edited (0: none yet). When another save came since, the call is refused with 409 `rates_changed` instead of overwriting it",
    ),
});

const ratesRefusals = {
  400: invalid(
    "A field its schema refuses (each named in `errors`, with a message in the caller's language), overlapping seasons, or malformed JSON",
  ),
  409: error("Someone saved the rates since the revision `basedOn` names; nothing was written", [
    "rates_changed",
  ]),
};

export const getEstateRates = defineOperation({
  id: "getEstateRates",
  method: "get",
  path: "/api/admin/estates/{id}/rates",
  summary: "An estate's rates",
  tags: ["pricing"],
  description: "The rates in force and the latest revisions, with who saved each.",
  security: STAFF_SESSION,
  params: z.object({ id: PathEstateIdSchema }),
  responses: {
    200: { description: "The rates", schema: EstateRatesSchema },
    404: error("No estate with this id", ["estate_not_found"]),
    ...adminGuardAnswers(false),
  },
});

export const putEstateRates = defineOperation({
  id: "putEstateRates",
  method: "put",
  path: "/api/admin/estates/{id}/rates",
  summary: "Change an estate's rates",
  tags: ["pricing"],
  description:
    "Saves the rates as the estate's next revision (earlier ones are kept and can be put back). Quotes and the estate's pages follow at once on every instance.",
  security: STAFF_SESSION,
  params: z.object({ id: PathEstateIdSchema }),
  query: RatesWriteQuerySchema,
  body: { schema: RatesBodySchema },
  responses: {
    200: { description: "The rates as saved", schema: EstateRatesSchema },
    ...ratesRefusals,
    404: error("No estate with this id", ["estate_not_found"]),
    ...JSON_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const revertEstateRates = defineOperation({
  id: "revertEstateRates",
  method: "post",
  path: "/api/admin/estates/{id}/rates/revisions/{revision}/revert",
  summary: "Put an earlier revision of an estate's rates back",
  tags: ["pricing"],
  description:
    "Saves the rates of `revision` as a new revision that records the revert; nothing is deleted.",
  security: STAFF_SESSION,
  params: z.object({
    id: PathEstateIdSchema,
    revision: z.preprocess(
      (value) => parseEstateId(value) ?? value,
      z.number().int().min(1).describe("The revision to put back"),
    ),
  }),
  responses: {
    200: { description: "The rates as they are now", schema: EstateRatesSchema },
    404: error("No such estate, or no such revision of its rates", [
      "estate_not_found",
      "revision_not_found",
    ]),
    ...IGNORED_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const getOwnerRates = defineOperation({
  id: "getOwnerRates",
  method: "get",
  path: "/api/property-owners/rates",
  summary: "The estate's rates, for its owner",
  tags: ["pricing"],
  description:
    "The rates in force and the latest revisions, as staff see them (an owner sees no staff member's email).",
  security: OWNER_OR_STAFF,
  query: EstateQuerySchema,
  responses: {
    200: { description: "The rates", schema: EstateRatesSchema },
    ...estateGuardAnswers(false),
  },
});

export const putOwnerRates = defineOperation({
  id: "putOwnerRates",
  method: "put",
  path: "/api/property-owners/rates",
  summary: "Change the estate's rates, as its owner",
  tags: ["pricing"],
  description:
    "Saves the rates as the estate's next revision, which staff see and may revert. The estate is named with `?propertyId=` (an owner may leave it out: their first estate).",
  security: OWNER_OR_STAFF,
  query: EstateQuerySchema.extend(RatesWriteQuerySchema.shape),
  body: { schema: RatesBodySchema },
  responses: {
    200: { description: "The rates as saved", schema: EstateRatesSchema },
    ...ratesRefusals,
    ...JSON_BODY_ERRORS,
    ...estateGuardAnswers(true),
  },
});

export const QuoteLineSchema = z
  .object({
    code: z.enum(LINE_CODES),
    label: z.string().describe("What the line charges for, in `lang`"),
    quantity: COUNT.describe("Nights, guest-nights, or 1"),
    unitAmount: AMOUNT,
    amount: AMOUNT.describe("quantity × unitAmount"),
  })
  .meta({ id: "QuoteLine" });

export const ApproximatePriceSchema = z
  .object({
    currency: z.enum(CURRENCIES),
    total: AMOUNT.describe("Minor units of `currency`, rounded to a whole unit (an approximation)"),
    deposit: AMOUNT.describe(
      "Minor units of `currency`, rounded to a whole unit (an approximation)",
    ),
    asOf: IsoDateSchema.describe("The day of the ECB euro reference rates it was converted at"),
  })
  .meta({
    id: "ApproximatePrice",
    description:
      "A price converted at the European Central Bank's euro reference rates of `asOf`: an approximation for the guest's own currency, not an amount anyone is charged.",
  });

export const QuoteSchema = z
  .object({
    propertyId: EstateIdSchema,
    checkIn: IsoDateSchema,
    checkOut: IsoDateSchema,
    nights: z.number().int().min(1),
    guests: z.number().int().min(1),
    currency: z.enum(CURRENCIES),
    lines: z.array(QuoteLineSchema),
    tax: AMOUNT.describe("The tax the total holds (`taxIncluded`) or adds"),
    taxIncluded: z.boolean(),
    total: AMOUNT,
    deposit: AMOUNT.describe("Due when an offer is accepted"),
    balance: AMOUNT.describe("total − deposit"),
    balanceDueOn: IsoDateSchema.nullable().describe("Null when everything is due at once"),
    available: z.boolean().describe("Whether every night is free now"),
    firstUnavailableNight: IsoDateSchema.nullable().describe("The first taken night, if any"),
    minNights: z.number().int().min(1).describe("The least nights a stay from `checkIn` lasts"),
    approximate: ApproximatePriceSchema.nullable().describe(
      "The total and deposit in the `display` currency, for reading only (the estate is paid in `currency`). " +
        "Null when `display` is absent or the estate's own currency, or while no reference rates are known",
    ),
  })
  .meta({
    id: "Quote",
    description:
      "What a stay would cost under the estate's rates now: an estimate, not an offer (staff send the offer, which may differ).",
  });

export const getCastleQuote = defineOperation({
  id: "getCastleQuote",
  method: "get",
  path: "/api/castles/{idOrSlug}/quote",
  summary: "The price of a stay",
  tags: ["pricing"],
  description:
    `The estate's price for the nights [checkIn, checkOut) and \`guests\`, line by line, with tax, deposit and balance, and whether the nights are free. ` +
    `At most ${MAX_QUOTE_NIGHTS} nights, within the booking window; below the estate's minimum stay from \`checkIn\` it is a 400 naming the minimum. ` +
    "With `display`, the total and deposit also in that currency, approximately, at the European Central Bank's daily reference rates (fetched once a day; none while no rates are known).",
  security: PUBLIC,
  params: z.object({
    idOrSlug: z.string().describe("The property's id or its slug (as in the list)"),
  }),
  query: z.object({
    checkIn: IsoDateSchema.describe("The first night (YYYY-MM-DD)"),
    checkOut: IsoDateSchema.describe("The check-out day, exclusive (YYYY-MM-DD)"),
    guests: z.coerce.number().int().min(1).max(500).describe("Guests in all"),
    lang: ContentLanguageSchema.describe("The language of the labels and of a refusal"),
    display: z
      .enum(CURRENCIES)
      .optional()
      .describe(
        "The guest's currency: the answer's `approximate` converts the total and deposit into it at the latest ECB reference rates",
      ),
  }),
  responses: {
    200: { description: "The price", schema: QuoteSchema },
    400: error(
      "A date that is not YYYY-MM-DD, check-out not after check-in, dates in the past or past the booking window, " +
        `more than ${MAX_QUOTE_NIGHTS} nights, a number of guests that is not 1 to 500, a language other than en, fr, it or zh, ` +
        "a `display` other than EUR, GBP, USD or CHF, " +
        "or fewer nights than the estate's minimum stay from `checkIn` (`stay_too_short`; the message names the minimum)",
      ["validation_failed", "invalid_input", "stay_too_short"],
    ),
    404: error("No such property, or it has no rates yet", ["estate_not_found", "no_rates"]),
  },
});

export const PRICING_OPERATIONS = [
  getEstateRates,
  putEstateRates,
  revertEstateRates,
  getOwnerRates,
  putOwnerRates,
  getCastleQuote,
];
