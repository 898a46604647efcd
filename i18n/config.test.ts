import { describe, expect, it } from "vitest";
import { languageFromAcceptLanguage, matchLanguage, negotiateLanguage } from "./config.ts";

describe("language negotiation", () => {
  it("maps regional variants to the four languages", () => {
    expect(matchLanguage("fr-CA")).toBe("fr");
    expect(matchLanguage("zh-TW")).toBe("zh");
    expect(matchLanguage("zh_Hans_CN")).toBe("zh");
    expect(matchLanguage("IT")).toBe("it");
    expect(matchLanguage("de-DE")).toBeUndefined();
  });

  it("honours Accept-Language q-values and skips unsupported languages", () => {
    expect(languageFromAcceptLanguage("de-DE,de;q=0.9,it;q=0.8,en;q=0.7")).toBe("it");
    expect(languageFromAcceptLanguage("en;q=0.5, zh-CN;q=0.9")).toBe("zh");
    expect(languageFromAcceptLanguage("fr;q=0")).toBeUndefined();
    expect(languageFromAcceptLanguage("")).toBeUndefined();
  });

  it("prefers ?lang=, then the cookie, then Accept-Language, then English", () => {
    expect(negotiateLanguage({ query: "it", cookie: "fr", acceptLanguage: "zh" })).toEqual({
      language: "it",
      fromQuery: true,
    });
    expect(negotiateLanguage({ query: "xx", cookie: "fr", acceptLanguage: "zh" })).toEqual({
      language: "fr",
      fromQuery: false,
    });
    expect(negotiateLanguage({ cookie: "nope", acceptLanguage: "zh-HK" })).toEqual({
      language: "zh",
      fromQuery: false,
    });
    expect(negotiateLanguage({ acceptLanguage: "de" })).toEqual({
      language: "en",
      fromQuery: false,
    });
  });
});
