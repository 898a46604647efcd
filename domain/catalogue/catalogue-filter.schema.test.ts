import { describe, expect, it } from "vitest";
import { addDays } from "../calendar/nights.ts";
import { earliestBookableDate, lastBookableDate } from "../requests/dates.ts";
import { FORM_LIMITS } from "../requests/options.ts";
import { propertyBookingSchema } from "../requests/property-booking.schema.ts";
import {
  CATALOGUE_MAX_STAY_NIGHTS,
  CatalogueFilterSchema,
  readCatalogueFilter,
  readStayDates,
  staySearchOf,
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

describe("the booking horizon in the catalogue's dates", () => {
  const last = lastBookableDate(FORM_LIMITS.bookingHorizonMonths);

  it("accepts a stay that ends on the horizon's last day, as the booking form does", () => {
    expect(issuesOf({ checkIn: addDays(last, -3), checkOut: last })).toEqual([]);
  });

  it("refuses a date past it with the booking form's own message, on the field past it", () => {
    expect(issuesOf({ checkIn: addDays(last, -1), checkOut: addDays(last, 2) })).toEqual([
      { field: "checkOut", message: "validation.dateBeyondWindow" },
    ]);
    expect(issuesOf({ checkIn: addDays(last, 1), checkOut: addDays(last, 3) })).toEqual([
      { field: "checkIn", message: "validation.dateBeyondWindow" },
      { field: "checkOut", message: "validation.dateBeyondWindow" },
    ]);
    // The booking form refuses the same date with the same message.
    const form = propertyBookingSchema().safeParse({ startDate: addDays(last, 1) });
    expect(form.error?.issues.find((issue) => issue.path[0] === "startDate")?.message).toBe(
      "validation.dateBeyondWindow",
    );
  });

  it("follows the configured horizon on the page", () => {
    const day = addDays(lastBookableDate(6), 10);
    const read = readCatalogueFilter({ checkIn: day, checkOut: addDays(day, 2) }, 6);
    expect(read.dateErrors).toEqual({
      checkIn: "validation.dateBeyondWindow",
      checkOut: "validation.dateBeyondWindow",
    });
    expect(read.filter).toEqual({});
    expect(readCatalogueFilter({ checkIn: day, checkOut: addDays(day, 2) }, 24).dateErrors).toEqual(
      {},
    );
  });
});

describe("the stay's dates carried to the estate's page and its booking form", () => {
  const day = addDays(earliestBookableDate(), 30);
  const carried = (search: string) => readStayDates(new URLSearchParams(search));

  it("keeps both dates when they keep the search's rules, and makes the next link with them", () => {
    const stay = carried(`checkIn=${day}&checkOut=${addDays(day, 3)}`);
    expect(stay).toEqual({ checkIn: day, checkOut: addDays(day, 3) });
    expect(staySearchOf(stay)).toBe(`?checkIn=${day}&checkOut=${addDays(day, 3)}`);
    expect(staySearchOf(null)).toBe("");
  });

  it("drops them without a word when one is missing, broken, past, out of order or too far", () => {
    const last = lastBookableDate(FORM_LIMITS.bookingHorizonMonths);
    for (const search of [
      `checkIn=${day}`,
      `checkIn=${day}&checkOut=2027-02-30`,
      `checkIn=${addDays(earliestBookableDate(), -1)}&checkOut=${day}`,
      `checkIn=${day}&checkOut=${day}`,
      `checkIn=${last}&checkOut=${addDays(last, 1)}`,
      "checkIn=x&checkOut=y",
      "",
    ])
      expect(carried(search), search).toBeNull();
  });
});
