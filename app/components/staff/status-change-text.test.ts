import { describe, expect, it } from "vitest";
import { REQUEST_KINDS } from "#domain/requests/options.ts";
import { LANGUAGES } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { statusChangedToast } from "./status-change-text.ts";

describe("the toast after a status change", () => {
  it("names the kind of request that changed, in every language", () => {
    for (const language of LANGUAGES) {
      const t = (key: string) => translate(language, key);
      const texts = REQUEST_KINDS.map((kind) => statusChangedToast(kind, t).description);
      for (const text of texts) expect(text, language).not.toMatch(/^staff\./);
      expect(new Set(texts).size, `${language}: ${texts.join(" | ")}`).toBe(REQUEST_KINDS.length);
    }
    const english = (key: string) => translate("en", key);
    expect(statusChangedToast("booking_request", english).description).toBe(
      "Booking request status has been updated successfully.",
    );
    expect(statusChangedToast("membership", english).description).toMatch(/application/i);
    expect(statusChangedToast("membership", english).description).not.toMatch(/booking/i);
  });
});
