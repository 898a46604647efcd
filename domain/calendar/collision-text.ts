import { formatDate } from "../requests/summary.ts";
import type { CollidingEntry, ImportedBusy } from "./calendar.schema.ts";

type Translate = (key: string, params?: Record<string, unknown>) => string;

/**
 * One colliding entry as a person reads it ("the confirmed stay BR-…, 1 May 2027 to 4 May
 * 2027"): the same words in the server's 409 message and in the staff pages' lists.
 */
export function describeCollision(t: Translate, language: string, entry: CollidingEntry): string {
  const dates = t("calendarCollision.dates", {
    start: formatDate(entry.start, language),
    end: formatDate(entry.end, language),
  });
  if (entry.source === "stay")
    return t("calendarCollision.stay", { reference: entry.reference ?? "", dates });
  if (entry.source === "block")
    return t("calendarCollision.block", {
      kind: t(`calendarCollision.kinds.${entry.kind ?? "other"}`),
      dates,
    });
  return t("calendarCollision.external", { dates });
}

/**
 * One imported busy time as a person reads it ("busy in the calendar imported from
 * www.airbnb.com, 1 May 2027 to 4 May 2027"): in the 409, the staff dialogs and the mails.
 */
export function describeImportedBusy(t: Translate, language: string, busy: ImportedBusy): string {
  return t("calendarCollision.importedBusy", {
    feed: busy.feed,
    dates: t("calendarCollision.dates", {
      start: formatDate(busy.start, language),
      end: formatDate(busy.end, language),
    }),
  });
}
