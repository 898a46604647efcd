import { describe, expect, it } from "vitest";
import { translate } from "#i18n/translate.ts";
import type { Language } from "#i18n/config.ts";
import { summarizeRequest } from "./summary.ts";

const bookingRequest = {
  firstName: "Camille",
  lastName: "Dubois",
  email: "camille.dubois@example.fr",
  checkInDate: "2026-12-25",
  checkOutDate: "2026-12-29",
  bookingType: ["family"],
};

function rowsIn(language: Language) {
  return summarizeRequest("booking_request", bookingRequest, language, (key, params) =>
    translate(language, key, params),
  );
}

describe("the summary of a stored request", () => {
  it("gives check-in and check-out rows of their own, as 'MMM dd, yyyy' in the language", () => {
    const byKey = (language: Language) =>
      Object.fromEntries(rowsIn(language).map((row) => [row.key, row]));
    const en = byKey("en");
    expect(en.checkInDate).toEqual({
      key: "checkInDate",
      label: "Check-in date",
      value: "Dec 25, 2026",
    });
    expect(en.checkOutDate?.value).toBe("Dec 29, 2026");
    expect(byKey("fr").checkInDate?.value).toBe("25 déc. 2026");
    expect(byKey("it").checkInDate?.value).toBe("25 dic 2026");
    expect(byKey("zh").checkOutDate?.value).toBe("2026年12月29日");
    // No row holds both dates.
    expect(rowsIn("en").some((row) => row.value.includes("–"))).toBe(false);
  });

  it("keys every row by its field, the same in every language", () => {
    const keys = rowsIn("en").map((row) => row.key);
    expect(keys).toEqual(rowsIn("zh").map((row) => row.key));
    expect(keys).toContain("name");
    expect(new Set(keys).size).toBe(keys.length);
  });
});
