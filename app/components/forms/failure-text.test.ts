import { describe, expect, it } from "vitest";
import { translate } from "#i18n/translate.ts";
import { failureText } from "./use-guest-form.ts";

const en = (key: string, params?: Record<string, unknown>) => translate("en", key, params);
const bookingRequest = {
  failed: en("forms.bookingRequest.failed"),
  fallback: en("forms.bookingRequest.failedFallback"),
};
const membership = {
  failed: en("forms.membership.failed"),
  fallback: en("forms.membership.failedFallback"),
};

describe("a guest form's failed submit", () => {
  it("says 'Failed to submit …' when the server failed or could not be reached", () => {
    expect(failureText(0, null, bookingRequest, en)).toBe(
      "Failed to submit booking request. There was a problem submitting your booking request. Please try again.",
    );
    expect(failureText(503, "Service Unavailable", bookingRequest, en)).toMatch(
      /^Failed to submit booking request\. /,
    );
    expect(failureText(500, undefined, membership, en)).toMatch(/^Failed to submit application\. /);
  });

  it("gives the server's own message for a refusal it explained", () => {
    expect(failureText(409, "Already sent", membership, en)).toBe("Already sent");
    expect(failureText(422, "", membership, en)).toMatch(/^Failed to submit application/);
  });
});
