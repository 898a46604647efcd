import { describe, expect, it } from "vitest";
import { tokenomicsFigures } from "#domain/tokenomics/figures.ts";
import { LANGUAGES } from "#i18n/config.ts";
import { FAQ, fillPlaceholders, PRIVACY_NOTICE, WHITEPAPER } from "./site-content.ts";

describe("site content", () => {
  it.each(LANGUAGES)(
    "fills every FAQ and whitepaper placeholder from the tokenomics module (%s)",
    (language) => {
      const figures = tokenomicsFigures(language);
      const texts = [
        ...FAQ.items.flatMap((item) => [item.question[language], item.answer[language]]),
        ...WHITEPAPER.sections.flatMap((section) => section.paragraphs.map((p) => p[language])),
      ];
      const unfilled = texts
        .map((text) => fillPlaceholders(text, figures))
        .filter((text) => /\{\{\w+\}\}/.test(text));
      expect(unfilled).toEqual([]);
    },
  );

  it("states the supply the tokenomics module holds, not another figure", () => {
    const basics = FAQ.items.find((item) => item.key === "token-basics");
    const text = fillPlaceholders(basics?.answer.en ?? "", tokenomicsFigures("en"));
    expect(text).toContain(tokenomicsFigures("en").totalSupply);
    expect(text).not.toMatch(/\b1 billion\b/);
  });

  it.each(LANGUAGES)(
    "has the privacy notice whole in %s, its placeholders the contact address and the periods",
    (language) => {
      const contactEmail = "privacy@castellum.test";
      const sections = PRIVACY_NOTICE.sections;
      const texts = sections.flatMap((section) => [
        section.title[language],
        ...[...section.paragraphs, ...(section.items ?? []), ...(section.closing ?? [])].map(
          (text) => text[language],
        ),
      ]);
      expect(texts.every((text) => text.trim().length > 0)).toBe(true);
      const filled = texts.map((text) =>
        fillPlaceholders(text, { contactEmail, retention: "2", financialRecords: "10" }),
      );
      expect(filled.filter((text) => /\{\{\w+\}\}/.test(text))).toEqual([]);
      // Where to write is said where the rights are, not only at the top.
      const howToAsk = sections.find((section) => section.key === "how-to-ask");
      expect(howToAsk?.paragraphs[0]?.[language]).toContain("{{contactEmail}}");
      // The authorities a guest in France, Italy or the UK complains to, by name.
      const rights = filled.join("\n");
      for (const authority of ["CNIL", "Garante", "ICO"]) expect(rights).toContain(authority);
    },
  );
});
