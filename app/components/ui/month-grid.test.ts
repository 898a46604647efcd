import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "#i18n/config.ts";
import { type DayState, MonthGrids } from "./month-grid.tsx";
import {
  dayLabel,
  lastOfMonth,
  monthTitle,
  monthWeeks,
  movedDate,
  WEEK_START_FALLBACK,
  weekdayNames,
  weekStartOf,
} from "./month-grid-dates.ts";

describe("the week's first day", () => {
  it("is Monday in every language: English as in Britain, as the staff overview counts weeks", () => {
    expect(weekStartOf("en")).toBe(1);
    expect(weekStartOf("fr")).toBe(1);
    expect(weekStartOf("it")).toBe(1);
    expect(weekStartOf("zh")).toBe(1);
  });

  it("comes from the fallback table where Intl has no week information (Firefox)", () => {
    for (const language of LANGUAGES)
      expect(weekStartOf(language, () => undefined)).toBe(WEEK_START_FALLBACK[language]);
    // …and the table agrees with what Intl says where it can.
    for (const language of LANGUAGES)
      expect(WEEK_START_FALLBACK[language]).toBe(weekStartOf(language));
  });

  it("heads the columns from that day, named by Intl", () => {
    expect(weekdayNames("en", weekStartOf("en")).map((day) => day.short)).toEqual([
      "Mon",
      "Tue",
      "Wed",
      "Thu",
      "Fri",
      "Sat",
      "Sun",
    ]);
    expect(weekdayNames("fr", weekStartOf("fr"))[0]).toEqual({ short: "lun.", long: "lundi" });
    expect(weekdayNames("it", weekStartOf("it"))[6]!.long).toBe("domenica");
    expect(weekdayNames("zh", weekStartOf("zh"))[0]!.long).toBe("星期一");
  });

  it("places the first of the month under its weekday", () => {
    // 1 May 2027 is a Saturday.
    expect(monthWeeks("2027-05", 7)[0]).toEqual([null, null, null, null, null, null, "2027-05-01"]);
    expect(monthWeeks("2027-05", 1)[0]!.indexOf("2027-05-01")).toBe(5);
    const weeks = monthWeeks("2027-05", 1);
    expect(weeks.flat().filter(Boolean)).toHaveLength(31);
    expect(weeks.every((week) => week.length === 7)).toBe(true);
    expect(weeks.at(-1)).toContain("2027-05-31");
    expect(lastOfMonth("2028-02")).toBe("2028-02-29");
  });
});

describe("the names a screen reader hears", () => {
  it("reads each day in full with its state, in the page's language", () => {
    expect(dayLabel("2027-05-01", "en", "unavailable")).toBe("Saturday, May 1, 2027, unavailable");
    expect(dayLabel("2027-05-01", "fr", "indisponible")).toBe("samedi 1 mai 2027, indisponible");
    expect(dayLabel("2027-05-01", "it", "non disponibile")).toBe(
      "sabato 1 maggio 2027, non disponibile",
    );
    expect(dayLabel("2027-05-01", "zh", "不可预订")).toBe("2027年5月1日星期六，不可预订");
  });

  it("titles each month", () => {
    expect(monthTitle("2027-05", "en")).toBe("May 2027");
    expect(monthTitle("2027-05", "it")).toBe("maggio 2027");
    expect(monthTitle("2027-05", "zh")).toBe("2027年5月");
  });
});

describe("the keys", () => {
  it("move by day, week, the row's ends, month and year", () => {
    const monday = 1;
    expect(movedDate("2027-05-12", "ArrowRight", monday)).toBe("2027-05-13");
    expect(movedDate("2027-05-01", "ArrowLeft", monday)).toBe("2027-04-30");
    expect(movedDate("2027-05-12", "ArrowDown", monday)).toBe("2027-05-19");
    expect(movedDate("2027-05-03", "ArrowUp", monday)).toBe("2027-04-26");
    // Wednesday 12 May: Monday 10 and Sunday 16 with a Monday week; Sunday 9 and Saturday 15
    // with a Sunday week.
    expect(movedDate("2027-05-12", "Home", monday)).toBe("2027-05-10");
    expect(movedDate("2027-05-12", "End", monday)).toBe("2027-05-16");
    expect(movedDate("2027-05-12", "Home", 7)).toBe("2027-05-09");
    expect(movedDate("2027-05-12", "End", 7)).toBe("2027-05-15");
    // A row's ends stop at the month's edge, as the row shows them.
    expect(movedDate("2027-05-02", "Home", monday)).toBe("2027-05-01");
    expect(movedDate("2027-05-31", "End", monday)).toBe("2027-05-31");
    expect(movedDate("2027-03-31", "PageUp", monday)).toBe("2027-02-28");
    expect(movedDate("2027-01-31", "PageDown", monday)).toBe("2027-02-28");
    expect(movedDate("2027-05-12", "PageDown", monday, true)).toBe("2028-05-12");
    expect(movedDate("2027-05-12", "Tab", monday)).toBeNull();
  });
});

describe("the grids as the server renders them", () => {
  const TAKEN = new Set(["2027-05-10", "2027-05-11"]);
  const describeDay = (date: string): DayState =>
    TAKEN.has(date)
      ? { tone: "unavailable", label: "unavailable" }
      : { tone: "available", label: "available" };
  const render = (props: Partial<Parameters<typeof MonthGrids>[0]> = {}) =>
    renderToString(
      createElement(MonthGrids, {
        start: "2027-05",
        count: 2,
        language: "en",
        describeDay,
        ...props,
      }),
    );

  it("is one grid per month, every day labelled, one day in the tab order", () => {
    const html = render();
    expect(html.match(/role="grid"/g)).toHaveLength(2);
    expect(html.match(/role="gridcell"/g)).toHaveLength(31 + 30);
    expect(html.match(/tabindex="0"/g)).toHaveLength(1);
    expect(html).toContain('data-date="2027-05-01" data-tone="available" tabindex="0"');
    expect(html).toContain('aria-label="Monday, May 10, 2027, unavailable"');
    expect(html).toContain('aria-label="Tuesday, June 1, 2027, available"');
    // Read-only without a selection; no aria-selected on a read-only grid.
    expect(html).toContain('aria-readonly="true"');
    expect(html).not.toContain("aria-selected");
    expect(html).toContain("<caption");
    expect(html).toContain("June 2027");
  });

  it("starts the focus on the day asked for, and marks the selection when days can be chosen", () => {
    const html = render({
      focusDate: "2027-06-15",
      onSelectDay: () => {},
      describeDay: (date) =>
        date === "2027-05-20"
          ? { tone: "selected", label: "check-in" }
          : date < "2027-05-05"
            ? { tone: "outside", label: "not available" }
            : describeDay(date),
    });
    expect(html).toContain('data-date="2027-06-15" data-tone="available" tabindex="0"');
    expect(html).not.toContain("aria-readonly");
    expect(html).toMatch(/data-date="2027-05-20"[^>]*aria-selected="true"/);
    expect(html).toMatch(/data-date="2027-05-21"[^>]*aria-selected="false"/);
    expect(html).toMatch(/data-date="2027-05-04"[^>]*aria-disabled="true"/);
    expect(html).not.toMatch(/data-date="2027-05-05"[^>]*aria-disabled/);
  });

  it("puts Monday first in French", () => {
    const html = render({ language: "fr" });
    const headers = [...html.matchAll(/<span class="sr-only">([^<]+)<\/span>/g)].map((m) => m[1]);
    expect(headers.slice(0, 7)).toEqual([
      "lundi",
      "mardi",
      "mercredi",
      "jeudi",
      "vendredi",
      "samedi",
      "dimanche",
    ]);
  });
});
