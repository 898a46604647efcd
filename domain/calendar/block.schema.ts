import { z } from "zod";
import { addMonths, isIsoDate } from "../requests/dates.ts";
import { BLOCK_KINDS, IsoDateSchema } from "./calendar.schema.ts";
import { nightsBetween } from "./nights.ts";

/**
 * What staff and owners send to block nights, and the window of a calendar read: one
 * definition for the forms, the calls and the document (browser-safe). Messages are
 * translation keys.
 */

/** The longest block, in nights: a year (a leap year's included). */
export const MAX_BLOCK_NIGHTS = 366;
/** A block's note: plain text, shown to staff and the owner only. */
export const BLOCK_NOTE_MAX_LENGTH = 500;
/** The widest calendar a call reads, in months. */
export const MAX_CALENDAR_MONTHS = 18;

export const BlockInputSchema = z
  .strictObject({
    start: IsoDateSchema.describe("The first night blocked"),
    end: IsoDateSchema.describe("The day after the last night blocked (exclusive)"),
    kind: z.enum(BLOCK_KINDS, { error: "owner.calendar.validation.kind" }),
    note: z
      .string({ error: "owner.calendar.validation.note" })
      .trim()
      .max(BLOCK_NOTE_MAX_LENGTH, "owner.calendar.validation.noteTooLong")
      .optional()
      .describe(
        `Plain text, at most ${BLOCK_NOTE_MAX_LENGTH} characters; seen by staff and the owner only`,
      ),
  })
  .superRefine((block, context) => {
    if (!isIsoDate(block.start) || !isIsoDate(block.end)) return;
    if (block.end <= block.start)
      context.addIssue({
        code: "custom",
        path: ["end"],
        message: "owner.calendar.validation.endAfterStart",
      });
    else if (nightsBetween(block.start, block.end) > MAX_BLOCK_NIGHTS)
      context.addIssue({
        code: "custom",
        path: ["end"],
        message: "owner.calendar.validation.tooLong",
      });
  })
  .meta({ id: "BlockInput" });
export type BlockInput = z.infer<typeof BlockInputSchema>;

/**
 * `?from&to` of a calendar read: the nights [from, to). Without them, the month of `today`
 * and the two after it. At most MAX_CALENDAR_MONTHS months.
 */
export const CALENDAR_WINDOW_SHAPE = {
  from: IsoDateSchema.optional().describe(
    "The first night shown; default: the first day of the current month (UTC)",
  ),
  to: IsoDateSchema.optional().describe(
    `The day after the last night shown (exclusive); default: three months after \`from\`. At most ${MAX_CALENDAR_MONTHS} months after \`from\``,
  ),
};

/** `to` after `from`, at most MAX_CALENDAR_MONTHS months later (when both are given). */
export function checkCalendarWindow(
  window: { from?: string; to?: string },
  context: z.RefinementCtx,
): void {
  // A malformed date has its own issue; the window is judged only between two real dates.
  if (!window.from || !window.to || !isIsoDate(window.from) || !isIsoDate(window.to)) return;
  if (window.to <= window.from)
    context.addIssue({
      code: "custom",
      path: ["to"],
      message: "owner.calendar.validation.windowOrder",
    });
  else if (window.to > addMonths(window.from, MAX_CALENDAR_MONTHS))
    context.addIssue({
      code: "custom",
      path: ["to"],
      message: "owner.calendar.validation.windowTooWide",
    });
}

export const CalendarWindowQuerySchema = z
  .object(CALENDAR_WINDOW_SHAPE)
  .superRefine(checkCalendarWindow);

/** The window a calendar read covers, with the defaults filled in. */
export function calendarWindow(
  query: { from?: string; to?: string },
  today: string,
): { from: string; to: string } {
  const from = query.from ?? (query.to ? addMonths(query.to, -3) : `${today.slice(0, 7)}-01`);
  return { from, to: query.to ?? addMonths(from, 3) };
}
