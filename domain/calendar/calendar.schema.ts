import { z } from "zod";
import { isIsoDate } from "../requests/dates.ts";

/**
 * What the calendar's calls share (browser-safe): a date, a range of nights, the kinds of
 * block, and the answer naming what a stay or block would collide with.
 */

/**
 * The dates a calendar call takes. Bounded so that a window's default end (months after its
 * start) stays a four-digit year: the query-string fuzz found `from=9999-12-31` becoming year
 * 10000, which the database refuses.
 */
export const CALENDAR_DATE_RANGE = { min: "1900-01-01", max: "2199-12-31" } as const;

/** A calendar date, 'YYYY-MM-DD', between CALENDAR_DATE_RANGE's bounds. */
export const IsoDateSchema = z
  .string({ error: "validation.dateInvalid" })
  .refine(
    (value) =>
      isIsoDate(value) && value >= CALENDAR_DATE_RANGE.min && value <= CALENDAR_DATE_RANGE.max,
    "validation.dateInvalid",
  )
  .meta({
    id: "IsoDate",
    description: "A calendar date, YYYY-MM-DD",
    format: "date",
    example: "2027-05-01",
  });

/** The nights [start, end): `end` is the check-out day, free for the next arrival. */
export const NightsSchema = z
  .object({
    start: IsoDateSchema.describe("The first night"),
    end: IsoDateSchema.describe("The check-out day (exclusive)"),
  })
  .meta({ id: "Nights" });

/** The kinds of request that can take nights: general booking requests and property bookings. */
export const STAY_KINDS = ["booking_request", "property_booking"] as const;
export type StayKind = (typeof STAY_KINDS)[number];
export const isStayKind = (kind: string): kind is StayKind =>
  (STAY_KINDS as readonly string[]).includes(kind);

/** The kinds of block staff or the owner make. */
export const BLOCK_KINDS = ["owner_stay", "maintenance", "private_event", "other"] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

/** Where a claim on nights comes from. */
export const ENTRY_SOURCES = ["stay", "block", "external"] as const;
export type EntrySource = (typeof ENTRY_SOURCES)[number];

/** One claim that stands in the way, as staff and the owner may see it. */
export const CollidingEntrySchema = z
  .object({
    source: z.enum(ENTRY_SOURCES),
    reference: z
      .string()
      .nullable()
      .describe("A stay's request reference; null for blocks and imported busy times"),
    kind: z.enum(BLOCK_KINDS).nullable().describe("A block's kind; null otherwise"),
    start: IsoDateSchema,
    end: IsoDateSchema,
  })
  .meta({ id: "CollidingEntry" });
export type CollidingEntry = z.infer<typeof CollidingEntrySchema>;

/** 409: the nights are taken; nothing was written. */
export const CalendarCollisionSchema = z
  .object({
    message: z.string().min(1).describe("In the caller's language, naming the first collision"),
    collidesWith: z.array(CollidingEntrySchema).min(1),
  })
  .meta({ id: "CalendarCollision" });
export type CalendarCollision = z.infer<typeof CalendarCollisionSchema>;

/**
 * A busy time an imported calendar (iCal feed) holds on some of the nights: it does not refuse
 * a stay, since the other site's booking may be gone, but staff confirm over it only knowingly.
 */
export const ImportedBusySchema = z
  .object({
    feedId: z.guid().describe("The imported calendar feed"),
    feed: z.string().describe("The feed's host (its address may hold a secret)"),
    start: IsoDateSchema,
    end: IsoDateSchema.describe("The day after the last busy night (exclusive)"),
  })
  .meta({ id: "ImportedBusy" });
export type ImportedBusy = z.infer<typeof ImportedBusySchema>;

/**
 * 409: imported calendars hold some of the nights; nothing was written. The same change with
 * `confirmOverImported: true` confirms anyway.
 */
export const ImportedBusyWarningSchema = z
  .object({
    message: z.string().min(1).describe("In the caller's language, naming the first busy time"),
    code: z.literal("imported_busy"),
    importedBusy: z.array(ImportedBusySchema).min(1),
  })
  .meta({ id: "ImportedBusyWarning" });
export type ImportedBusyWarning = z.infer<typeof ImportedBusyWarningSchema>;
