import { afterEach, describe, expect, it } from "vitest";
import {
  DEFAULT_IMPORT_LIMITS,
  IcalImportError,
  importWindow,
  MAX_SKIPPED_LISTED,
  ORIGIN_PROPERTY,
  readBusyTimes,
  readCalendar,
} from "./ical-import.ts";

/** Today, for every read: the window is 2026-05-15 to 2028-06-15. */
const NOW = new Date("2026-06-15T12:00:00Z");

/** A calendar of `events` (VEVENT bodies), with CRLF line ends as RFC 5545 writes them. */
function calendar(...events: string[]): string {
  const body = events.map((event) => `BEGIN:VEVENT\n${event.trim()}\nEND:VEVENT`).join("\n");
  return `BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//Test//Feeds//EN\nCALSCALE:GREGORIAN\n${body}\nEND:VCALENDAR\n`.replace(
    /\n/g,
    "\r\n",
  );
}

/** Airbnb's export, as it looks: all-day reservations and blocked dates, with a PII-ish description. */
const AIRBNB = calendar(
  `DTEND;VALUE=DATE:20260710
DTSTART;VALUE=DATE:20260705
UID:1418fb94e984-f0c46c7e6a64c3fd5c8e6e2e7c0b9c1d@airbnb.com
DESCRIPTION:Reservation URL: https://www.airbnb.com/hosting/reservations/details/HMABCDEF\\nPhone Number (Last 4 Digits): 1234
SUMMARY:Reserved
DTSTAMP:20260601T101010Z`,
  `DTEND;VALUE=DATE:20260801
DTSTART;VALUE=DATE:20260720
UID:7f5d7e4c1a2b-3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f@airbnb.com
SUMMARY:Airbnb (Not available)
DTSTAMP:20260601T101010Z`,
);

const codeOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof IcalImportError) return error.code;
    throw error;
  }
  return "read";
};

describe("readBusyTimes", () => {
  const zone = process.env.TZ;
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it("reads the window as a month back and two years ahead", () => {
    expect(importWindow(NOW)).toEqual({ start: "2026-05-15", end: "2028-06-15" });
  });

  it("reads all-day events as their dates, the end day left free", () => {
    expect(readBusyTimes(AIRBNB, NOW)).toEqual([
      {
        uid: "1418fb94e984-f0c46c7e6a64c3fd5c8e6e2e7c0b9c1d@airbnb.com",
        start: "2026-07-05",
        end: "2026-07-10",
      },
      {
        uid: "7f5d7e4c1a2b-3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f@airbnb.com",
        start: "2026-07-20",
        end: "2026-08-01",
      },
    ]);
  });

  it("gives the same dates and UIDs whatever the server's time zone", () => {
    const read = () => readBusyTimes(AIRBNB, NOW);
    const inUtc = read();
    for (const tz of ["America/Los_Angeles", "Pacific/Kiritimati", "Asia/Shanghai"]) {
      process.env.TZ = tz;
      expect({ tz, busy: read() }).toEqual({ tz, busy: inUtc });
    }
  });

  it("reads timed events as every UTC date they touch", () => {
    const busy = readBusyTimes(
      calendar(
        // 15:00 to 10:00 two days later: touches the 1st, 2nd and 3rd.
        "UID:timed-1\nDTSTAMP:20260601T000000Z\nDTSTART:20260801T150000Z\nDTEND:20260803T100000Z",
        // Ending exactly at midnight leaves that day free.
        "UID:timed-2\nDTSTAMP:20260601T000000Z\nDTSTART:20260901T000000Z\nDTEND:20260903T000000Z",
        // 23:00 to 01:00 in Rome is 21:00 to 23:00 UTC: one date.
        "UID:timed-3\nDTSTAMP:20260601T000000Z\nDTSTART;TZID=Europe/Rome:20260810T230000\nDTEND;TZID=Europe/Rome:20260811T010000",
        // No end: the date it starts on.
        "UID:timed-4\nDTSTAMP:20260601T000000Z\nDTSTART:20261001T090000Z",
      ),
      NOW,
    );
    expect(busy).toEqual([
      { uid: "timed-1", start: "2026-08-01", end: "2026-08-04" },
      { uid: "timed-3", start: "2026-08-10", end: "2026-08-11" },
      { uid: "timed-2", start: "2026-09-01", end: "2026-09-03" },
      { uid: "timed-4", start: "2026-10-01", end: "2026-10-02" },
    ]);
  });

  it("skips cancelled and transparent events, other components, and what lies outside the window", () => {
    const busy = readBusyTimes(
      `${calendar(
        "UID:kept\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260705\nDTEND;VALUE=DATE:20260706",
        "UID:cancelled\nDTSTAMP:20260601T000000Z\nSTATUS:CANCELLED\nDTSTART;VALUE=DATE:20260707\nDTEND;VALUE=DATE:20260708",
        "UID:free\nDTSTAMP:20260601T000000Z\nTRANSP:TRANSPARENT\nDTSTART;VALUE=DATE:20260709\nDTEND;VALUE=DATE:20260710",
        "UID:past\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20200101\nDTEND;VALUE=DATE:20200105",
        "UID:far\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20300101\nDTEND;VALUE=DATE:20300105",
        // Started before the window and still running into it: kept whole.
        "UID:ongoing\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260501\nDTEND;VALUE=DATE:20260520",
      ).replace(
        "END:VCALENDAR",
        "BEGIN:VTODO\r\nUID:todo\r\nDTSTAMP:20260601T000000Z\r\nDUE;VALUE=DATE:20260711\r\nEND:VTODO\r\nEND:VCALENDAR",
      )}`,
      NOW,
    );
    expect(busy.map((time) => time.uid)).toEqual(["ongoing", "kept"]);
    expect(busy[0]).toEqual({ uid: "ongoing", start: "2026-05-01", end: "2026-05-20" });
  });

  it("expands recurring events (COUNT, UNTIL, endless, EXDATE, a moved instance) with stable UIDs", () => {
    const text = calendar(
      // Three Mondays.
      "UID:count\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260706\nDTEND;VALUE=DATE:20260707\nRRULE:FREQ=WEEKLY;COUNT=3",
      // Every day 10:00-12:00 UTC until the 3rd of August.
      "UID:until\nDTSTAMP:20260601T000000Z\nDTSTART:20260801T100000Z\nDTEND:20260801T120000Z\nRRULE:FREQ=DAILY;UNTIL=20260803T235959Z",
      // The first of every month since 2020, for ever; one skipped, one moved.
      "UID:monthly\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20200101\nDTEND;VALUE=DATE:20200102\nRRULE:FREQ=MONTHLY\nEXDATE;VALUE=DATE:20261201",
      "UID:monthly\nDTSTAMP:20260601T000000Z\nRECURRENCE-ID;VALUE=DATE:20270101\nDTSTART;VALUE=DATE:20270105\nDTEND;VALUE=DATE:20270107",
    );
    const busy = readBusyTimes(text, NOW);
    const of = (prefix: string) => busy.filter((time) => time.uid.startsWith(`${prefix}#`));
    expect(of("count")).toEqual([
      { uid: "count#2026-07-06", start: "2026-07-06", end: "2026-07-07" },
      { uid: "count#2026-07-13", start: "2026-07-13", end: "2026-07-14" },
      { uid: "count#2026-07-20", start: "2026-07-20", end: "2026-07-21" },
    ]);
    expect(of("until")).toEqual([
      { uid: "until#2026-08-01T10:00:00.000Z", start: "2026-08-01", end: "2026-08-02" },
      { uid: "until#2026-08-02T10:00:00.000Z", start: "2026-08-02", end: "2026-08-03" },
      { uid: "until#2026-08-03T10:00:00.000Z", start: "2026-08-03", end: "2026-08-04" },
    ]);
    const monthly = of("monthly");
    // June 2026 to June 2028 is 25 months; December 2026 is excluded.
    expect(monthly).toHaveLength(24);
    expect(monthly[0]).toEqual({
      uid: "monthly#2026-06-01",
      start: "2026-06-01",
      end: "2026-06-02",
    });
    expect(monthly.at(-1)).toEqual({
      uid: "monthly#2028-06-01",
      start: "2028-06-01",
      end: "2028-06-02",
    });
    expect(monthly.some((time) => time.start === "2026-12-01")).toBe(false);
    // The January instance moved to the 5th keeps the UID of its recurrence date.
    expect(monthly.find((time) => time.uid === "monthly#2027-01-01")).toEqual({
      uid: "monthly#2027-01-01",
      start: "2027-01-05",
      end: "2027-01-07",
    });
    expect(monthly.some((time) => time.start === "2027-01-01")).toBe(false);
    // The same text read again, a day later, gives the same UIDs for the same nights.
    expect(readBusyTimes(text, new Date("2026-06-16T08:00:00Z"))).toEqual(busy);
  });

  it("refuses what is not a calendar", () => {
    expect(codeOf(() => readBusyTimes("", NOW))).toBe("not_calendar");
    expect(
      codeOf(() => readBusyTimes("<!doctype html><html><body>Log in</body></html>", NOW)),
    ).toBe("not_calendar");
    expect(codeOf(() => readBusyTimes("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n", NOW))).toBe(
      "not_calendar",
    );
    // A calendar with no events is read as nothing busy.
    expect(
      readBusyTimes(calendar().replace("\r\n\r\nEND:VCALENDAR", "\r\nEND:VCALENDAR"), NOW),
    ).toEqual([]);
  });

  it("reads every event it can, and names each one it cannot, with its line and why", () => {
    const text = calendar(
      "UID:good-1\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260705\nDTEND;VALUE=DATE:20260710",
      "UID:bad-start\nSUMMARY:Viewing\\, east wing\nDTSTAMP:20260601T000000Z\nDTSTART:tomorrow",
      "UID:nostart\nDTSTAMP:20260601T000000Z\nSUMMARY:x",
      "UID:r\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260701\nRRULE:FREQ=SOMETIMES",
      "UID:good-2\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260801\nDTEND;VALUE=DATE:20260803",
    );
    const read = readCalendar(text, NOW);
    expect(read.busy.map((time) => [time.uid, time.start, time.end])).toEqual([
      ["good-1", "2026-07-05", "2026-07-10"],
      ["good-2", "2026-08-01", "2026-08-03"],
    ]);
    expect(read.skippedCount).toBe(3);
    // Lines of BEGIN:VEVENT: the calendar's four header lines, then six lines an event.
    expect(read.skipped.map(({ detail: _detail, ...event }) => event)).toEqual([
      { uid: "bad-start", summary: "Viewing, east wing", line: 11, reason: "no_start" },
      { uid: "nostart", summary: "x", line: 17, reason: "no_start" },
      { uid: "r", summary: null, line: 22, reason: "unreadable" },
    ]);
    expect(text.split("\r\n")[21]).toBe("BEGIN:VEVENT");
    expect(read.skipped[2]!.detail).toContain("SOMETIMES");
  });

  it("lists at most MAX_SKIPPED_LISTED events left out, and counts them all", () => {
    const broken = Array.from(
      { length: MAX_SKIPPED_LISTED + 7 },
      (_, i) => `UID:broken-${i}\nDTSTAMP:20260601T000000Z\nRRULE:FREQ=NEVER`,
    );
    const read = readCalendar(calendar(...broken), NOW);
    expect(read.busy).toEqual([]);
    expect(read.skippedCount).toBe(MAX_SKIPPED_LISTED + 7);
    expect(read.skipped).toHaveLength(MAX_SKIPPED_LISTED);
    expect(read.skipped[0]).toMatchObject({ uid: "broken-0", reason: "no_start", line: 5 });
  });

  it("refuses a huge feed and an endless fine-grained recurrence quickly, with a clear error", () => {
    const many = Array.from(
      { length: 5001 },
      (_, i) =>
        `UID:e${i}\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260701\nDTEND;VALUE=DATE:20260702`,
    );
    expect(codeOf(() => readBusyTimes(calendar(...many), NOW))).toBe("too_many_events");
    expect(readBusyTimes(calendar(...many.slice(0, 5000)), NOW)).toHaveLength(5000);
    for (const rule of [
      "FREQ=SECONDLY",
      "FREQ=MINUTELY",
      "FREQ=HOURLY",
      "FREQ=DAILY;INTERVAL=1;BYHOUR=1,2,3",
    ]) {
      const started = performance.now();
      const error = (() => {
        try {
          readBusyTimes(
            calendar(
              `UID:storm\nDTSTAMP:20260601T000000Z\nDTSTART:20260101T000000Z\nDTEND:20260101T000100Z\nRRULE:${rule}`,
            ),
            NOW,
          );
        } catch (caught) {
          return caught;
        }
      })();
      expect(error, rule).toBeInstanceOf(IcalImportError);
      expect((error as IcalImportError).code, rule).toBe("too_many_events");
      expect((error as IcalImportError).message, rule).toContain("storm");
      expect(performance.now() - started).toBeLessThan(5000);
    }
  });
});

/** The review's hostile feed: 3,000 hourly series of 1,000 instances each (3,000,000). */
function hourlyStorm(series: number, transparent: boolean): string {
  return calendar(
    ...Array.from(
      { length: series },
      (_, i) =>
        `UID:storm-${i}\nDTSTAMP:20260601T000000Z\nDTSTART:20260701T000000Z\nDTEND:20260701T003000Z\nRRULE:FREQ=HOURLY;COUNT=1000${transparent ? "\nTRANSP:TRANSPARENT" : ""}`,
    ),
  );
}

describe("the work a feed can cause", () => {
  it("expands no series that holds no time, and reads its moved instances that do", () => {
    expect(readBusyTimes(hourlyStorm(3000, true), NOW)).toEqual([]);
    const free = calendar(
      `UID:free-series\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260701\nDTEND;VALUE=DATE:20260702\nRRULE:FREQ=WEEKLY;COUNT=10\nTRANSP:TRANSPARENT`,
      `UID:free-series\nDTSTAMP:20260601T000000Z\nRECURRENCE-ID;VALUE=DATE:20260708\nDTSTART;VALUE=DATE:20260709\nDTEND;VALUE=DATE:20260711\nTRANSP:OPAQUE`,
    );
    expect(readBusyTimes(free, NOW)).toEqual([
      { uid: "free-series#2026-07-08", start: "2026-07-09", end: "2026-07-11" },
    ]);
  });

  it("counts every expanded instance against the feed's budget, and stops at it", () => {
    const limits = { ...DEFAULT_IMPORT_LIMITS, maxEvents: 100_000 };
    // Twenty hourly series fit the 20,000 instances; the twenty-first is refused by name.
    expect(readBusyTimes(hourlyStorm(20, false), NOW, limits)).toHaveLength(20 * 1000);
    const error = (() => {
      try {
        readBusyTimes(hourlyStorm(3000, false), NOW, limits);
      } catch (caught) {
        return caught as IcalImportError;
      }
    })();
    expect(error).toBeInstanceOf(IcalImportError);
    expect(error?.code).toBe("too_many_events");
    expect(error?.detail).toBe("more than 20000 recurring instances (at storm-20)");
  });
});

describe("timed events and the nights a feed closes", () => {
  /** A one-hour viewing every day, with no end: it touches every day of the window. */
  const DAILY_HOUR =
    "UID:viewing\nDTSTAMP:20260601T000000Z\nDTSTART:20260601T140000Z\nDTEND:20260601T150000Z\nRRULE:FREQ=DAILY";
  const STAY =
    "UID:stay\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260705\nDTEND;VALUE=DATE:20260710";

  it("counts the distinct nights from today on, and those timed events close", () => {
    const read = readCalendar(calendar(DAILY_HOUR, STAY), NOW);
    // From 2026-06-15 to the window's end, 2028-06-15: every night, the stay's among them.
    expect(read.nightsClosed).toBe(731);
    expect(read.timedNightsClosed).toBe(731);
    expect(read.busy.find((time) => time.uid === "stay")).toMatchObject({ isTimed: false });

    const stays = readCalendar(
      calendar(
        STAY,
        // Overlapping the first: its nights count once.
        "UID:stay-2\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260708\nDTEND;VALUE=DATE:20260712",
        // Before today: not counted.
        "UID:past\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260601\nDTEND;VALUE=DATE:20260603",
      ),
      NOW,
    );
    expect(stays.nightsClosed).toBe(7);
    expect(stays.timedNightsClosed).toBe(0);
  });

  it("lets timed events close no night when the feed says so; all-day events still do", () => {
    const read = readCalendar(calendar(DAILY_HOUR, STAY), NOW, { timedEventsClose: false });
    expect(read.busy.map((time) => time.uid)).toEqual(["stay"]);
    expect(read.nightsClosed).toBe(5);
    expect(read.timedNightsClosed).toBe(0);
  });

  it("still counts a timed series' instances against the feed's budget when they close nothing", () => {
    const limits = { ...DEFAULT_IMPORT_LIMITS, maxInstances: 100 };
    expect(() =>
      readCalendar(calendar(DAILY_HOUR), NOW, { limits, timedEventsClose: false }),
    ).toThrow(IcalImportError);
  });
});

describe("events that came from Castellum", () => {
  it("never imports an event carrying our mark, or a UID at our host", () => {
    const text = calendar(
      `UID:elsewhere-1@other.example\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260705\nDTEND;VALUE=DATE:20260710\n${ORIGIN_PROPERTY}:imported`,
      "UID:7b0c@castellum.example\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260801\nDTEND;VALUE=DATE:20260803",
      "UID:theirs@other.example\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260901\nDTEND;VALUE=DATE:20260903",
    );
    expect(
      readCalendar(text, NOW, { ownHost: "castellum.example" }).busy.map((time) => time.uid),
    ).toEqual(["theirs@other.example"]);
    // Without our host known, the mark alone still keeps our events out.
    expect(readCalendar(text, NOW).busy.map((time) => time.uid)).toEqual([
      "7b0c@castellum.example",
      "theirs@other.example",
    ]);
  });
});
