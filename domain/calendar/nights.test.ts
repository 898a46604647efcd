import { describe, expect, it } from "vitest";
import {
  addDays,
  firstTakenNight,
  fromDateRange,
  mergeNights,
  nightsBetween,
  stayNights,
  toDateRange,
} from "./nights.ts";

describe("nights", () => {
  it("counts across month and year ends and leap days", () => {
    expect(addDays("2027-12-31", 1)).toBe("2028-01-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
    expect(nightsBetween("2027-12-30", "2028-01-02")).toBe(3);
  });

  it("gives a same-day stay its one night", () => {
    expect(stayNights("2027-05-01", "2027-05-01")).toEqual({
      start: "2027-05-01",
      end: "2027-05-02",
    });
    expect(stayNights("2027-05-01", "2027-05-04")).toEqual({
      start: "2027-05-01",
      end: "2027-05-04",
    });
  });

  it("joins ranges that overlap or touch, and keeps apart those with a free night between", () => {
    expect(
      mergeNights([
        { start: "2027-01-10", end: "2027-01-12" },
        { start: "2027-01-01", end: "2027-01-05" },
        { start: "2027-01-05", end: "2027-01-07" },
        { start: "2027-01-03", end: "2027-01-04" },
      ]),
    ).toEqual([
      { start: "2027-01-01", end: "2027-01-07" },
      { start: "2027-01-10", end: "2027-01-12" },
    ]);
  });

  it("names the first night of a wish that is taken, and none when the check-out day is the next arrival", () => {
    const taken = [
      { start: "2027-01-08", end: "2027-01-10" },
      { start: "2027-01-01", end: "2027-01-05" },
    ];
    expect(firstTakenNight({ start: "2027-01-03", end: "2027-01-09" }, taken)).toBe("2027-01-03");
    expect(firstTakenNight({ start: "2027-01-05", end: "2027-01-09" }, taken)).toBe("2027-01-08");
    expect(firstTakenNight({ start: "2027-01-05", end: "2027-01-08" }, taken)).toBeNull();
  });

  it("reads and writes PostgreSQL's date range text", () => {
    const nights = { start: "2027-01-01", end: "2027-01-05" };
    expect(fromDateRange(toDateRange(nights))).toEqual(nights);
    expect(() => fromDateRange("empty")).toThrow();
  });
});
