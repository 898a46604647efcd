import { describe, expect, it } from "vitest";
import { tokenomicsFigures } from "#domain/tokenomics/figures.ts";
import { LANGUAGES } from "#i18n/config.ts";
import { FAQ, fillPlaceholders, WHITEPAPER } from "./site-content.ts";

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
});
