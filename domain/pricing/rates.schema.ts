import { z } from "zod";
import { isIsoDate } from "../requests/dates.ts";
import { CURRENCIES, MAX_AMOUNT } from "./money.ts";

/**
 * An estate's rates, as staff and owners edit them (`PUT /api/admin/estates/{id}/rates`,
 * `PUT /api/property-owners/rates`) and as the quote reads them. Amounts are integer minor
 * units of `currency`; percentages are numbers with at most two decimals (7.5); season dates
 * are 'YYYY-MM-DD', `end` exclusive like a stay's check-out. Every message is a translation key
 * under `pricing.*`; the browser and the server translate it alike.
 */

/** How much of what was paid a guest gets back when they cancel, by how early. */
export const CANCELLATION_POLICIES = ["flexible", "moderate", "strict"] as const;
export type CancellationPolicy = (typeof CANCELLATION_POLICIES)[number];

/** The most seasons an estate keeps: a year of weeks with room to spare. */
export const MAX_SEASONS = 60;
/** The longest minimum stay, in nights. */
export const MAX_MIN_NIGHTS = 90;
/** The most guests a nightly price may include. */
export const MAX_GUESTS = 500;
/** The most days before arrival a balance may be due. */
export const MAX_BALANCE_DUE_DAYS = 180;

const amount = (message: string) =>
  z
    .number({ error: message })
    .int(message)
    .min(0, message)
    .max(MAX_AMOUNT, "pricing.amountTooLarge");

const positiveAmount = (message: string) => amount(message).min(1, message);

/** A percentage from 0 to `max` with at most two decimals. */
const percent = (max: number, message: string) =>
  z
    .number({ error: message })
    .min(0, message)
    .max(max, message)
    .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-9, message);

const whole = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

const isoDate = z
  .string({ error: "pricing.seasonDate" })
  .refine((value) => isIsoDate(value), "pricing.seasonDate");

export const seasonSchema = z
  .object({
    start: isoDate,
    end: isoDate,
    nightly: positiveAmount("pricing.nightly"),
    minNights: whole(1, MAX_MIN_NIGHTS, "pricing.minNights").optional(),
  })
  .refine((season) => season.end > season.start, {
    path: ["end"],
    message: "pricing.seasonEndBeforeStart",
  });

export const ratesSchema = z
  .object({
    currency: z.enum(CURRENCIES, { error: "pricing.currency" }),
    nightly: positiveAmount("pricing.nightly"),
    minNights: whole(1, MAX_MIN_NIGHTS, "pricing.minNights"),
    includedGuests: whole(1, MAX_GUESTS, "pricing.includedGuests"),
    extraGuestNightly: amount("pricing.extraGuestNightly"),
    cleaningFee: amount("pricing.cleaningFee"),
    taxPercent: percent(50, "pricing.taxPercent"),
    taxIncluded: z.boolean({ error: "pricing.taxIncluded" }),
    depositPercent: percent(100, "pricing.depositPercent"),
    balanceDueDays: whole(0, MAX_BALANCE_DUE_DAYS, "pricing.balanceDueDays"),
    cancellationPolicy: z.enum(CANCELLATION_POLICIES, { error: "pricing.cancellationPolicy" }),
    seasons: z
      .array(seasonSchema, { error: "pricing.seasons" })
      .max(MAX_SEASONS, "pricing.seasons"),
  })
  .superRefine((rates, ctx) => {
    const sorted = rates.seasons
      .map((season, index) => ({ season, index }))
      .sort((a, b) => (a.season.start < b.season.start ? -1 : 1));
    for (let i = 1; i < sorted.length; i++) {
      const previous = sorted[i - 1]!;
      const current = sorted[i]!;
      if (current.season.start < previous.season.end)
        ctx.addIssue({
          code: "custom",
          path: ["seasons", current.index, "start"],
          message: "pricing.seasonsOverlap",
        });
    }
  });

export type RatesInput = z.input<typeof ratesSchema>;
export type Rates = z.output<typeof ratesSchema>;
export type Season = Rates["seasons"][number];
