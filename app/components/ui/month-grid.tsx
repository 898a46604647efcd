import {
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { ChevronLeft, ChevronRight } from "lucide-react";
import type { Language } from "#i18n/config.ts";
import { Button } from "./button.tsx";
import { cn } from "./cn.ts";
import { addDays } from "#domain/calendar/nights.ts";
import {
  addMonthsToMonth,
  clampDate,
  dayLabel,
  firstOfMonth,
  type IsoWeekday,
  lastOfMonth,
  monthTitle,
  monthWeeks,
  movedDate,
  weekdayNames,
  weekStartOf,
} from "./month-grid-dates.ts";

/**
 * Month grids: one table per month, days in rows of weeks that start as the page's language
 * starts them, every day named in full for screen readers. Several months share one focus
 * (`MonthGrids`): a roving tabindex, so Tab enters the months at one day and leaves them at the
 * next control. Keys (WAI-ARIA's date grid): arrows by day and week, Home and End to the row's
 * ends, PageUp and PageDown by month (Shift: by year), across the months shown; Enter or Space
 * selects. What a day means is the caller's (`describeDay`): the grid draws its tone and reads
 * out its label. Unavailable days are struck through and hatched, never told by colour alone.
 */

/** How a day is drawn. */
export type DayTone =
  | "available"
  /** Taken: struck through over a hatch. */
  | "unavailable"
  /** Chosen (an arrival or departure). */
  | "selected"
  /** Between the chosen days. */
  | "range"
  /** Chosen but taken: what the guest must change. */
  | "conflict"
  /** Not on offer (past, beyond the booking window). */
  | "outside";

export interface DayState {
  tone: DayTone;
  /** The day's state in words, read after its date: "available", "unavailable". */
  label: string;
  /** Whether Enter, Space or a click selects it (with `onSelectDay`); default: not `outside`. */
  isSelectable?: boolean;
  /** Something more drawn in the cell (a dot), hidden from screen readers: say it in `label`. */
  mark?: ReactNode;
}

/**
 * Each tone's look, as a class of app.css (`.day-tone-*`, with `.month-day`, the day's square):
 * short names, since a year of days is drawn on the estate page, and one set of rules that the
 * grids and their legends share. Taken days are struck through over a fine diagonal hatch, so
 * they are told apart without colour.
 */
export const DAY_TONE_CLASS: Record<DayTone, string> = {
  available: "day-tone-available",
  unavailable: "day-tone-unavailable",
  selected: "day-tone-selected",
  range: "day-tone-range",
  conflict: "day-tone-conflict",
  outside: "day-tone-outside",
};

export interface MonthGridsProps {
  /** The first month shown, 'YYYY-MM'. */
  start: string;
  /** How many months, from `start` (default 1). */
  count?: number;
  /** The page's language: the week's first day, the names of days and months. */
  language: Language;
  /** What each day of the months shown is. Called for every day on every render. */
  describeDay(date: string): DayState;
  /** Makes the days selectable (Enter, Space, click); without it the grids are read-only. */
  onSelectDay?(date: string): void;
  /** The day that first takes the focus, if shown (default: the first selected, else the first day). */
  focusDate?: string;
  /**
   * Called when the keys go past the months shown (PageDown on the last one), with the date
   * they went to: show its month (change `start`) and the focus follows. Without it the focus
   * stops at the first or last day shown.
   */
  onNavigateOutside?(date: string): void;
  /**
   * `grid` (default): the months wrap in rows. `strip`: one row that scrolls sideways (snapping
   * at each month), with buttons for the earlier and later months.
   */
  layout?: "grid" | "strip";
  /** The strip's buttons, in the page's language (required with `layout="strip"`). */
  stripLabels?: { earlier: string; later: string };
  /** Shown at the start of the strip's row of buttons (a legend). */
  toolbar?: ReactNode;
  /** Width of each month: the strip's defaults show one on a phone, two, then three. */
  monthClassName?: string;
  className?: string;
}

/** One month; `MonthGrids` with a single month. */
export function MonthGrid({
  month,
  ...props
}: Omit<MonthGridsProps, "start" | "count"> & {
  month: string;
}) {
  return <MonthGrids start={month} count={1} {...props} />;
}

/** `count` months from `start`, with one focus across them. */
export function MonthGrids({
  start,
  count = 1,
  language,
  describeDay,
  onSelectDay,
  focusDate,
  onNavigateOutside,
  layout = "grid",
  stripLabels,
  toolbar,
  monthClassName,
  className,
}: MonthGridsProps) {
  const weekStart = useMemo(() => weekStartOf(language), [language]);
  const weekdays = useMemo(() => weekdayNames(language, weekStart), [language, weekStart]);
  const months = Array.from({ length: count }, (_, i) => addMonthsToMonth(start, i));
  const firstDay = firstOfMonth(months[0]!);
  const lastDay = lastOfMonth(months.at(-1)!);
  const isSelecting = onSelectDay !== undefined;

  // The roving focus: the one day Tab reaches. Kept while it is shown; else the default.
  const [focused, setFocused] = useState<string | null>(null);
  const isShown = (date: string | null | undefined): date is string =>
    !!date && date >= firstDay && date <= lastDay;
  const active = isShown(focused)
    ? focused
    : isShown(focusDate)
      ? focusDate
      : (firstSelectedDay(firstDay, lastDay, describeDay) ?? firstDay);

  const root = useRef<HTMLDivElement>(null);
  const shouldFocus = useRef(false);
  useEffect(() => {
    if (!shouldFocus.current) return;
    shouldFocus.current = false;
    root.current?.querySelector<HTMLElement>(`[data-date="${active}"]`)?.focus();
  });

  const moveTo = (date: string) => {
    shouldFocus.current = true;
    setFocused(date);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const cell = (event.target as HTMLElement).closest<HTMLElement>("[data-date]");
    const date = cell?.dataset.date;
    if (!date || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (cell.getAttribute("aria-disabled") !== "true") onSelectDay?.(date);
      return;
    }
    const target = movedDate(date, event.key, weekStart, event.shiftKey);
    if (!target) return;
    event.preventDefault();
    if (isShown(target) || !onNavigateOutside) return moveTo(clampDate(target, firstDay, lastDay));
    onNavigateOutside(target);
    moveTo(target);
  };
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const date = (event.target as HTMLElement).dataset.date;
    if (date && date !== focused) setFocused(date);
  };
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const cell = (event.target as HTMLElement).closest<HTMLElement>("[data-date]");
    const date = cell?.dataset.date;
    if (date && cell.getAttribute("aria-disabled") !== "true") onSelectDay?.(date);
  };

  // One component per month: hydrating or updating the months is then as many short pieces of
  // work, each a month's days, rather than one for the whole year.
  const tables = months.map((month) => (
    <MonthTable
      key={month}
      month={month}
      language={language}
      weekStart={weekStart}
      weekdays={weekdays}
      describeDay={describeDay}
      active={active}
      isSelecting={isSelecting}
      className={cn(
        // A strip shows one to three months at a time: the others are laid out only as they
        // scroll near, so a year of days costs the first paint no more than the months shown.
        // The clip margin keeps an edge day's focus ring whole under the paint containment.
        layout === "strip" &&
          "w-[86%] shrink-0 snap-start [contain-intrinsic-size:auto_20rem] [content-visibility:auto] [overflow-clip-margin:4px] sm:w-[calc(50%-1rem)] lg:w-[calc(33.333%-1.334rem)]",
        monthClassName,
      )}
    />
  ));

  const handlers = { onKeyDown, onFocus, onClick };
  if (layout === "strip")
    return (
      <MonthStrip
        labels={stripLabels}
        toolbar={toolbar}
        className={className}
        rootRef={root}
        handlers={handlers}
      >
        {tables}
      </MonthStrip>
    );
  return (
    <div
      ref={root}
      data-slot="month-grids"
      className={cn("grid gap-x-8 gap-y-6 sm:grid-cols-2 lg:grid-cols-3", className)}
      {...handlers}
    >
      {tables}
    </div>
  );
}

/** The first day from `from` to `to` (inclusive) drawn as selected, if any. */
function firstSelectedDay(
  from: string,
  to: string,
  describeDay: MonthGridsProps["describeDay"],
): string | undefined {
  for (let date = from; date <= to; date = addDays(date, 1))
    if (describeDay(date).tone === "selected") return date;
  return undefined;
}

/** One month's table: its days in rows of weeks, the roving focus on `active` if it is here. */
function MonthTable({
  month,
  language,
  weekStart,
  weekdays,
  describeDay,
  active,
  isSelecting,
  className,
}: {
  month: string;
  language: Language;
  weekStart: IsoWeekday;
  weekdays: { short: string; long: string }[];
  describeDay: MonthGridsProps["describeDay"];
  active: string;
  isSelecting: boolean;
  className?: string;
}) {
  const weeks = monthWeeks(month, weekStart);
  return (
    <div data-slot="month" className={className}>
      <table
        role="grid"
        aria-readonly={isSelecting ? undefined : true}
        className="w-full table-fixed border-separate border-spacing-0.5"
      >
        <caption className="font-display text-heritage mb-2 text-left text-xl font-semibold capitalize">
          {monthTitle(month, language)}
        </caption>
        <thead>
          <tr>
            {weekdays.map((name) => (
              <th key={name.long} scope="col" className="text-muted pb-1 text-xs font-medium">
                <span aria-hidden>{name.short}</span>
                <span className="sr-only">{name.long}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, row) => (
            <tr key={row}>
              {week.map((date, column) => {
                if (!date) return <td key={`blank-${column}`} />;
                const state = describeDay(date);
                const canSelect = isSelecting && (state.isSelectable ?? state.tone !== "outside");
                return (
                  <td
                    key={date}
                    role="gridcell"
                    data-date={date}
                    data-tone={state.tone}
                    tabIndex={date === active ? 0 : -1}
                    aria-label={dayLabel(date, language, state.label)}
                    aria-selected={
                      isSelecting
                        ? ["selected", "range", "conflict"].includes(state.tone)
                        : undefined
                    }
                    aria-disabled={isSelecting && !canSelect ? true : undefined}
                    // The cell's own look is app.css's `[data-slot="month"] td`.
                    className={canSelect ? "group cursor-pointer" : undefined}
                  >
                    <span
                      className={cn(
                        "month-day",
                        DAY_TONE_CLASS[state.tone],
                        canSelect && state.tone === "available" && "group-hover:bg-heritage/10",
                      )}
                    >
                      {Number(date.slice(8))}
                      {state.mark && (
                        <span
                          aria-hidden
                          className="absolute inset-x-0 bottom-0.5 flex justify-center"
                        >
                          {state.mark}
                        </span>
                      )}
                    </span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The strip: months in one row that scrolls sideways, with buttons a page of months at a time. */
function MonthStrip({
  labels,
  toolbar,
  className,
  rootRef,
  handlers,
  children,
}: {
  labels: MonthGridsProps["stripLabels"];
  toolbar?: ReactNode;
  className?: string;
  rootRef: React.RefObject<HTMLDivElement | null>;
  handlers: Pick<React.ComponentProps<"div">, "onKeyDown" | "onFocus" | "onClick">;
  children: ReactNode;
}) {
  const [edges, setEdges] = useState({ atStart: true, atEnd: false });
  const readEdges = () => {
    const strip = rootRef.current;
    if (!strip) return;
    const atStart = strip.scrollLeft <= 1;
    const atEnd = strip.scrollLeft + strip.clientWidth >= strip.scrollWidth - 1;
    setEdges((old) => (old.atStart === atStart && old.atEnd === atEnd ? old : { atStart, atEnd }));
  };
  useEffect(readEdges);
  const scroll = (direction: -1 | 1) => {
    const strip = rootRef.current;
    if (!strip) return;
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    strip.scrollBy({ left: direction * strip.clientWidth, behavior: reduce ? "auto" : "smooth" });
  };
  return (
    // min-w-0: inside a grid or flex item, the months' own width must not widen the page.
    <div data-slot="month-strip" className={cn("grid min-w-0 gap-3", className)}>
      {(labels || toolbar) && (
        <div className="flex flex-wrap items-end justify-between gap-x-6 gap-y-3">
          <div className="min-w-64 flex-1">{toolbar}</div>
          {labels && (
            <div className="ml-auto flex shrink-0 gap-2">
              <Button
                type="button"
                variant="outline"
                size="sm"
                aria-label={labels.earlier}
                title={labels.earlier}
                disabled={edges.atStart}
                onClick={() => scroll(-1)}
              >
                <ChevronLeft aria-hidden className="size-4" />
              </Button>
              <Button
                type="button"
                variant="outline"
                size="sm"
                aria-label={labels.later}
                title={labels.later}
                disabled={edges.atEnd}
                onClick={() => scroll(1)}
              >
                <ChevronRight aria-hidden className="size-4" />
              </Button>
            </div>
          )}
        </div>
      )}
      <div
        ref={rootRef}
        data-slot="month-grids"
        onScroll={readEdges}
        // relative: the containing block of the weekdays' screen-reader names, which would
        // otherwise stand past the page's edge, unclipped, and widen the page.
        className="relative flex snap-x snap-mandatory [scrollbar-width:thin] gap-8 overflow-x-auto scroll-smooth pb-3 motion-reduce:scroll-auto"
        {...handlers}
      >
        {children}
      </div>
    </div>
  );
}

/** What the tones mean, drawn as the grid draws them (a struck-through, hatched sample day). */
export function MonthGridLegend({
  items,
  label,
  className,
}: {
  items: { tone: DayTone; label: string }[];
  /** What the list is ("Key"), for screen readers. */
  label?: string;
  className?: string;
}) {
  return (
    <ul
      aria-label={label}
      data-slot="month-grid-legend"
      className={cn("text-ink flex flex-wrap gap-x-6 gap-y-2 text-sm", className)}
    >
      {items.map((item) => (
        <li key={item.tone} className="flex items-center gap-2">
          <span
            aria-hidden
            className={cn(
              "border-ink/10 flex size-7 items-center justify-center rounded-sm border text-xs tabular-nums",
              DAY_TONE_CLASS[item.tone],
            )}
          >
            8
          </span>
          {item.label}
        </li>
      ))}
    </ul>
  );
}
