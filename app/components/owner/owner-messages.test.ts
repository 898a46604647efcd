import { describe, expect, it } from "vitest";
import { type EditableField, parseFieldValue } from "#domain/owners/owner-fields.ts";
import { LANGUAGES } from "#i18n/config.ts";
import { createI18n } from "#i18n/instance.ts";
import { RESOURCES } from "#i18n/resources.ts";
import { translateIssue } from "./owner-messages.ts";

/** Values the shared schemas refuse, one for each kind of message the editor can show. */
const REFUSED: [EditableField, string][] = [
  ["name", "A"],
  ["name", "x".repeat(200)],
  ["description", "Too short"],
  ["facilities", "Pool"],
  ["services", "x"],
  ["guest_capacity", "many"],
  ["starting_price", "amount 450"],
  ["starting_price", "amount: 450\nprice: 3"],
  ["starting_price", "amount: 0\ncurrency: EUR"],
  ["starting_price", "amount: 450\ncurrency: YEN"],
  ["price_range", "min: 900\nmax: 300\ncurrency: EUR"],
  ["coordinates", "lat: 91\nlng: 0"],
  ["url", "not a url"],
  ["phone", "call me"],
  ["postal_code", "!!"],
  ["website_info", "email: nobody"],
  ["website_info", "is_on_airbnb: maybe"],
];

describe("the editor's messages from the shared field schemas", () => {
  it.each(LANGUAGES)("are written out in %s, every placeholder filled", (language) => {
    const { t } = createI18n(language, RESOURCES[language]);
    for (const [field, value] of REFUSED) {
      const parsed = parseFieldValue(field, value);
      expect(parsed.ok, `${field}: ${value}`).toBe(false);
      if (parsed.ok) continue;
      const text = translateIssue(t, language, parsed.issue);
      expect(text, `${field}: ${value}`).not.toMatch(/owner\.errors|\{\{/);
    }
  });

  it("writes numbers the language's way", () => {
    const issue = {
      message: "owner.errors.price",
      params: { key: "amount", min: 1, max: 10_000_000 },
    };
    expect(translateIssue(createI18n("en", RESOURCES.en).t, "en", issue)).toBe(
      "“amount” must be an amount from 1 to 10,000,000.",
    );
    expect(translateIssue(createI18n("fr", RESOURCES.fr).t, "fr", issue)).toMatch(
      /de 1 à 10\s000\s000\./,
    );
  });
});
