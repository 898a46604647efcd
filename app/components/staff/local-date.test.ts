import { describe, expect, it } from "vitest";
import { datePartOrder, formatLocalDate, parseLocalDate } from "./local-date.ts";

describe("dates in the page's language (the inbox's date filters)", () => {
  it("writes a date in each language's order, whatever the browser's locale", () => {
    expect(formatLocalDate("2026-12-05", "en")).toBe("12/05/2026");
    expect(formatLocalDate("2026-12-05", "fr")).toBe("05/12/2026");
    expect(formatLocalDate("2026-12-05", "it")).toBe("05/12/2026");
    expect(formatLocalDate("2026-12-05", "zh")).toBe("2026/12/05");
    expect(datePartOrder("zh")).toEqual(["year", "month", "day"]);
  });

  it("reads what was typed in the page's order, and ISO dates in any language", () => {
    expect(parseLocalDate("05/12/2026", "fr")).toBe("2026-12-05");
    expect(parseLocalDate("12/05/2026", "en")).toBe("2026-12-05");
    expect(parseLocalDate("5.12.2026", "it")).toBe("2026-12-05");
    expect(parseLocalDate("2026/12/05", "zh")).toBe("2026-12-05");
    expect(parseLocalDate("2026年12月5日", "zh")).toBe("2026-12-05");
    expect(parseLocalDate("2026-12-05", "fr")).toBe("2026-12-05");
    expect(parseLocalDate("", "en")).toBe("");
  });

  it("refuses what is no date", () => {
    expect(parseLocalDate("31/02/2026", "fr")).toBeNull();
    expect(parseLocalDate("13/25/2026", "en")).toBeNull();
    expect(parseLocalDate("tomorrow", "en")).toBeNull();
    expect(parseLocalDate("1/2", "en")).toBeNull();
  });
});
