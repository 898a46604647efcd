import { z } from "zod";

/**
 * An imported feed's choices, as the feeds panel sends them and the API checks them (one
 * schema for both). Browser-safe.
 */
export const CalendarFeedSettingsSchema = z
  .strictObject(
    {
      timedEventsClose: z
        .boolean({ error: "owner.calendarFeeds.errors.settingsInvalid" })
        .optional()
        .describe(
          "Whether the feed's timed (not all-day) events close the nights they touch. All-day events always do. A change makes the feed read again within a minute.",
        ),
      passOn: z
        .boolean({ error: "owner.calendarFeeds.errors.settingsInvalid" })
        .optional()
        .describe(
          "Whether the estate's export feed lists this feed's busy times (as `Busy`), so the other sites the estate is let on see them too",
        ),
    },
    // Not an object, or a field it does not know: the same message as an empty choice.
    { error: "owner.calendarFeeds.errors.settingsInvalid" },
  )
  .refine(
    (settings) => settings.timedEventsClose !== undefined || settings.passOn !== undefined,
    "owner.calendarFeeds.errors.settingsInvalid",
  )
  .meta({ id: "CalendarFeedSettings", description: "The choices to change; those left out stay" });

export type CalendarFeedSettings = z.infer<typeof CalendarFeedSettingsSchema>;
