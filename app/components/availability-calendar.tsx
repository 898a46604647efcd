import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { Nights } from "#domain/calendar/nights.ts";
import { addDays, nightsBetween } from "#domain/calendar/nights.ts";
import { isLanguage, type Language } from "#i18n/config.ts";
import { cn } from "./ui/cn.ts";
import { type DayState, type DayTone, MonthGridLegend, MonthGrids } from "./ui/month-grid.tsx";
import { addMonthsToMonth, firstOfMonth, longDate, monthOf } from "./ui/month-grid-dates.ts";

/** The months the pages show: this month and the eleven after it. */
export const AVAILABILITY_MONTHS_SHOWN = 12;

/** The nights the pages read for `today`: from today to the end of the last month shown. */
export function availabilityWindowOf(today: string): { from: string; to: string } {
  return {
    from: today,
    to: firstOfMonth(addMonthsToMonth(monthOf(today), AVAILABILITY_MONTHS_SHOWN)),
  };
}

/** The nights a guest picked: an arrival, then (once chosen) a departure after it. */
export interface PickedNights {
  start: string;
  end: string;
}

/**
 * An estate's next twelve months for guests (the property page, and the booking form where
 * days can be picked): taken nights struck through, the days before today and past the
 * booking window not on offer, the guest's own dates drawn over them.
 */
export function AvailabilityCalendar({
  unavailable,
  today,
  lastDate,
  picked,
  onSelectDay,
  intro,
  monthClassName,
  className,
}: {
  /** The taken nights (merged ranges, end exclusive), from the loader. */
  unavailable: readonly Nights[];
  /** The first day on offer. */
  today: string;
  /** The last day on offer (the booking window), if any. */
  lastDate?: string;
  /** The guest's dates, drawn over the calendar. */
  picked?: PickedNights;
  /** Makes days selectable. */
  onSelectDay?(date: string): void;
  intro: string;
  monthClassName?: string;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const language: Language = isLanguage(i18n.language) ? i18n.language : "en";
  const taken = useMemo(() => takenDates(unavailable), [unavailable]);
  const arrival = picked?.start ?? "";
  const departure = picked?.end && picked.end > arrival ? picked.end : "";

  const describeDay = (date: string): DayState => {
    const isTaken = taken.has(date);
    if (date === arrival)
      return isTaken
        ? { tone: "conflict", label: t("availability.day.arrivalTaken") }
        : { tone: "selected", label: t("availability.day.arrival") };
    if (date === departure) return { tone: "selected", label: t("availability.day.departure") };
    if (arrival && departure && date > arrival && date < departure)
      return isTaken
        ? { tone: "conflict", label: t("availability.day.conflict") }
        : { tone: "range", label: t("availability.day.inStay") };
    if (date < today || (lastDate && date > lastDate))
      return { tone: "outside", label: t("availability.day.outside") };
    // A taken night may still be a departure day: the guest leaves that morning.
    if (isTaken)
      return { tone: "unavailable", label: t("availability.day.unavailable"), isSelectable: true };
    return { tone: "available", label: t("availability.day.available") };
  };

  const hasConflict =
    !!arrival &&
    [...taken].some((date) => date >= arrival && (departure ? date < departure : date === arrival));
  const legend: DayTone[] = onSelectDay
    ? [
        "available",
        "unavailable",
        "selected",
        "range",
        ...(hasConflict ? ["conflict" as const] : []),
        "outside",
      ]
    : ["available", "unavailable", "outside"];
  const nights = arrival && departure ? nightsBetween(arrival, departure) : 0;

  return (
    <section aria-labelledby="availability-title" className={cn("grid min-w-0 gap-5", className)}>
      <div className="grid gap-2">
        <h2 id="availability-title" className="text-heritage text-3xl font-semibold">
          {t("availability.title")}
        </h2>
        <p className="text-muted max-w-3xl leading-relaxed">{intro}</p>
      </div>
      {onSelectDay && (
        <p role="status" className="text-heritage min-h-6 text-sm font-medium">
          {arrival &&
            !departure &&
            t("availability.picked.arrival", { date: longDate(arrival, language) })}
          {nights > 0 &&
            t("availability.picked.stay", {
              count: nights,
              start: longDate(arrival, language),
              end: longDate(departure, language),
            })}
        </p>
      )}
      <MonthGrids
        start={monthOf(today)}
        count={AVAILABILITY_MONTHS_SHOWN}
        language={language}
        describeDay={describeDay}
        onSelectDay={onSelectDay}
        focusDate={arrival || today}
        layout="strip"
        stripLabels={{ earlier: t("availability.earlier"), later: t("availability.later") }}
        toolbar={
          <MonthGridLegend
            items={legend.map((tone) => ({ tone, label: t(`availability.legend.${tone}`) }))}
            label={t("availability.legendLabel")}
          />
        }
        monthClassName={monthClassName}
      />
    </section>
  );
}

/** Every taken night, one date each (a year holds at most 366). */
function takenDates(unavailable: readonly Nights[]): Set<string> {
  const dates = new Set<string>();
  for (const range of unavailable)
    for (let date = range.start; date < range.end; date = addDays(date, 1)) dates.add(date);
  return dates;
}
