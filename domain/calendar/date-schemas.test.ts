import { describe, expect, it } from "vitest";
import { StaySettingSchema } from "../staff/inbox.contract.ts";
import { BlockInputSchema, CalendarWindowQuerySchema } from "./block.schema.ts";

/** The paths of the issues a schema finds, or the exception it threw (a 500 to the caller). */
function issuesOf(
  schema: { safeParse(value: unknown): { error?: { issues: { path: PropertyKey[] }[] } } },
  value: unknown,
) {
  try {
    return (schema.safeParse(value).error?.issues ?? []).map((issue) => issue.path.join("."));
  } catch (error) {
    return `threw ${String(error)}`;
  }
}

describe("the calendar's date rules with a malformed date", () => {
  // Found by the query-string fuzz: "from=-0&to=Infinity" reached the window rule, whose
  // month arithmetic threw on the malformed date (a 500 instead of a 400).
  it("names only the malformed date, and never throws", () => {
    expect(issuesOf(CalendarWindowQuerySchema, { from: "-0", to: "Infinity" })).toEqual([
      "from",
      "to",
    ]);
    expect(issuesOf(CalendarWindowQuerySchema, { from: "2027-01-01", to: "2027-13-01" })).toEqual([
      "to",
    ]);
    expect(
      issuesOf(BlockInputSchema, { start: "0000-00-00", end: "2027-01-01", kind: "other" }),
    ).toEqual(["start"]);
    expect(
      issuesOf(StaySettingSchema, { propertyId: 1, start: "yesterday", end: "2027-01-05" }),
    ).toEqual(["start"]);
  });

  it("refuses a date whose window would end past year 9999", () => {
    expect(issuesOf(CalendarWindowQuerySchema, { from: "9999-12-31" })).toEqual(["from"]);
    expect(issuesOf(CalendarWindowQuerySchema, { from: "2199-12-31" })).toEqual([]);
  });

  it("still applies the rules between two real dates", () => {
    expect(issuesOf(CalendarWindowQuerySchema, { from: "2027-01-01", to: "2027-01-01" })).toEqual([
      "to",
    ]);
    expect(issuesOf(CalendarWindowQuerySchema, { from: "2027-01-01", to: "2028-08-01" })).toEqual([
      "to",
    ]);
    expect(
      issuesOf(StaySettingSchema, { propertyId: 1, start: "2027-01-05", end: "2027-01-05" }),
    ).toEqual(["end"]);
    expect(
      issuesOf(StaySettingSchema, { propertyId: 1, start: "2027-01-05", end: "2028-02-05" }),
    ).toEqual(["end"]);
    expect(
      issuesOf(StaySettingSchema, { propertyId: 1, start: "2027-01-05", end: "2027-01-06" }),
    ).toEqual([]);
  });
});
