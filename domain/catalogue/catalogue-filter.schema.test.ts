import { describe, expect, it } from "vitest";
import { addDays } from "../calendar/nights.ts";
import { earliestBookableDate } from "../requests/dates.ts";
import {
  CATALOGUE_MAX_STAY_NIGHTS,
  CatalogueFilterSchema,
  readCatalogueFilter,
} from "./catalogue-filter.schema.ts";

const issuesOf = (input: Record<string, unknown>) =>
  CatalogueFilterSchema.safeParse(input).error?.issues.map((issue) => ({
    field: issue.path[0],
    message: issue.message,
  })) ?? [];

describe("the stay's dates in the catalogue filter", () => {
  const first = earliestBookableDate();

  it("accepts the earliest today on Earth as check-in, and refuses the day before", () => {
    expect(issuesOf({ checkIn: first, checkOut: addDays(first, 1) })).toEqual([]);
    expect(issuesOf({ checkIn: addDays(first, -1), checkOut: addDays(first, 1) })).toEqual([
      { field: "checkIn", message: "catalogueDates.errors.checkInPast" },
    ]);
  });

  it("takes both or neither, an empty one counting as none", () => {
    expect(issuesOf({ checkIn: "", checkOut: "" })).toEqual([]);
    expect(issuesOf({ checkIn: first, checkOut: "" })).toEqual([
      { field: "checkOut", message: "catalogueDates.errors.bothDates" },
    ]);
    expect(issuesOf({ checkOut: first })).toEqual([
      { field: "checkIn", message: "catalogueDates.errors.bothDates" },
    ]);
  });

  it(`takes one night up to ${CATALOGUE_MAX_STAY_NIGHTS}, check-out after check-in`, () => {
    expect(issuesOf({ checkIn: first, checkOut: first })).toEqual([
      { field: "checkOut", message: "catalogueDates.errors.checkOutOrder" },
    ]);
    const longest = addDays(first, CATALOGUE_MAX_STAY_NIGHTS);
    expect(issuesOf({ checkIn: first, checkOut: longest })).toEqual([]);
    expect(issuesOf({ checkIn: first, checkOut: addDays(longest, 1) })).toEqual([
      { field: "checkOut", message: "catalogueDates.errors.stayTooLong" },
    ]);
  });

  it("refuses what is not a calendar date", () => {
    for (const value of ["2027-02-30", "27-01-01", "2027-1-1", "tomorrow"])
      expect(issuesOf({ checkIn: value, checkOut: "2099-01-01" }), value).toEqual([
        { field: "checkIn", message: "catalogueDates.errors.invalidDate" },
      ]);
  });
});

describe("the catalogue page's reading of its URL", () => {
  it("leaves out broken dates with their errors and keeps the other filters", () => {
    const day = addDays(earliestBookableDate(), 10);
    expect(readCatalogueFilter({ region: "uk", checkIn: day, checkOut: day })).toEqual({
      filter: { region: "uk" },
      dates: { checkIn: day, checkOut: day },
      dateErrors: { checkOut: "catalogueDates.errors.checkOutOrder" },
      hasInvalidFilter: false,
    });
  });

  it("drops every filter, with a notice, when another value is wrong", () => {
    const read = readCatalogueFilter({ region: "atlantis", checkIn: "2099-01-01" });
    expect(read.filter).toEqual({});
    expect(read.hasInvalidFilter).toBe(true);
  });
});
