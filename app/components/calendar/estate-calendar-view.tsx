import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ChevronLeft, ChevronRight } from "lucide-react";
import type { EstateCalendarAnswer } from "#domain/calendar/calendar.contract.ts";
import { addDays } from "#domain/calendar/nights.ts";
import { addMonths, utcToday } from "#domain/requests/dates.ts";
import { isLanguage } from "#i18n/config.ts";
import { formatDate } from "#domain/requests/summary.ts";
import { Alert, AlertList, AlertTitle } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { MonthGrids } from "../ui/month-grid.tsx";
import { describeCollision } from "#domain/calendar/collision-text.ts";
import { BlockForm } from "./block-form.tsx";
import type { CalendarTarget } from "./calendar-api.ts";
import { nightsOf } from "./calendar-days.ts";
import { CalendarEntries } from "./calendar-entries.tsx";
import { CalendarLegend, dayStateOf } from "./night-marks.tsx";

/** How many months the view shows at once. */
export const CALENDAR_MONTHS = 3;

/** The first day of the month of `date`. */
export function monthStartOf(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

/**
 * The window a view opens on: the month of `from` (a date to open around, such as a request's
 * first night) and the two after it; without one, this month's.
 */
export function calendarWindowAround(from: string | null | undefined, today: string) {
  const start = monthStartOf(from ?? today);
  return { from: start, to: addMonths(start, CALENDAR_MONTHS) };
}

/**
 * An estate's calendar, as staff and its owner see it: months as grids (each night drawn and
 * said with what it holds), the legend, collisions called out, the list of entries, the form
 * that blocks nights and, beside it, the export and imported feeds (`feeds`). The page that
 * shows it loads the calendar; `onNavigate` asks it for another window, `onChanged` to read it
 * again after a change.
 */
export function EstateCalendarView({
  calendar,
  target,
  onNavigate,
  onChanged,
  requestHref,
  feeds,
  busy = false,
}: {
  calendar: EstateCalendarAnswer;
  target: CalendarTarget;
  /** Show the window starting on `from` (a month's first day). */
  onNavigate: (from: string) => void;
  onChanged: () => void;
  requestHref?: (entry: EstateCalendarAnswer["stays"][number]) => string;
  feeds?: React.ReactNode;
  /** A new window is loading. */
  busy?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const translate = (key: string, params?: Record<string, unknown>) => t(key, params);
  const language = isLanguage(i18n.language) ? i18n.language : "en";
  const nights = useMemo(() => nightsOf(calendar), [calendar]);
  const firstMonth = calendar.from.slice(0, 7);
  // UTC, as the staff area shows dates: the server and the browser draw the same page.
  const today = utcToday();
  const step = (months: number) => onNavigate(addMonths(monthStartOf(calendar.from), months));
  const lastShown = addDays(addMonths(monthStartOf(calendar.from), CALENDAR_MONTHS), -1);

  return (
    <div
      className="grid grid-cols-[minmax(0,1fr)] gap-8"
      data-testid="estate-calendar"
      aria-busy={busy}
    >
      <div className="grid gap-4">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <h2
            className="text-heritage text-2xl font-semibold sm:text-3xl"
            data-testid="calendar-shown"
          >
            {t("owner.calendar.shown", {
              from: formatDate(calendar.from, language),
              to: formatDate(lastShown, language),
            })}
          </h2>
          <nav aria-label={t("owner.calendar.navLabel")} className="flex flex-wrap gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => step(-CALENDAR_MONTHS)}
              data-testid="calendar-previous"
            >
              <ChevronLeft aria-hidden className="size-4" />
              {t("owner.calendar.previous")}
            </Button>
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => onNavigate(monthStartOf(today))}
              disabled={monthStartOf(today) === monthStartOf(calendar.from)}
            >
              {t("owner.calendar.thisMonth")}
            </Button>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => step(CALENDAR_MONTHS)}
              data-testid="calendar-next"
            >
              {t("owner.calendar.next")}
              <ChevronRight aria-hidden className="size-4" />
            </Button>
          </nav>
        </div>
        <p className="text-muted max-w-3xl text-sm">{t("owner.calendar.intro")}</p>
        <CalendarLegend />
      </div>

      {calendar.collisions.length > 0 && (
        <Alert variant="warning" data-testid="calendar-collisions">
          <AlertTitle>{t("owner.calendar.entries.collisionsTitle")}</AlertTitle>
          <p className="mt-1">{t("owner.calendar.entries.collisionsIntro")}</p>
          <AlertList
            items={calendar.collisions.map(({ external, collidesWith }) =>
              t("owner.calendar.entries.collisionLine", {
                busy: describeCollision(translate, language, {
                  ...external,
                  source: "external",
                  reference: null,
                  kind: null,
                }),
                what: describeCollision(translate, language, collidesWith),
              }),
            )}
          />
        </Alert>
      )}

      <MonthGrids
        start={firstMonth}
        count={CALENDAR_MONTHS}
        language={language}
        describeDay={(date) => dayStateOf(nights.get(date), t)}
        onNavigateOutside={(date) =>
          onNavigate(
            date < calendar.from
              ? addMonths(monthStartOf(date), 1 - CALENDAR_MONTHS)
              : monthStartOf(date),
          )
        }
      />

      <section
        aria-labelledby="calendar-entries-title"
        className="grid grid-cols-[minmax(0,1fr)] gap-4"
      >
        <h3 id="calendar-entries-title" className="text-heritage text-xl font-semibold">
          {t("owner.calendar.entries.title")}
        </h3>
        <CalendarEntries
          calendar={calendar}
          target={target}
          requestHref={requestHref}
          onChanged={onChanged}
        />
      </section>

      {/* One column that never grows past the screen (a long address wraps); two from lg. */}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-10 lg:grid-cols-2">
        <div className="border-gold/30 bg-paper rounded-sm border p-5 sm:p-6">
          <BlockForm
            target={target}
            defaultStart={calendar.from > today ? calendar.from : today}
            onAdded={onChanged}
          />
        </div>
        {feeds}
      </div>
    </div>
  );
}
