import { expect, it } from "vitest";
import { formatDay } from "./format.ts";
import { formatShortDate } from "#domain/requests/summary.ts";

it("writes a short date as each language's readers do: English with the spec's two-digit day", () => {
  const written = (format: (value: string, language: string) => string) =>
    ["en", "fr", "it", "zh"].map((language) => format("2027-02-05", language));
  for (const format of [formatShortDate, formatDay])
    expect(written(format)).toEqual(["Feb 05, 2027", "5 févr. 2027", "5 feb 2027", "2027年2月5日"]);
});
