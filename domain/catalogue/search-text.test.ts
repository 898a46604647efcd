import { describe, expect, it } from "vitest";
import {
  catalogueQueryTerms,
  catalogueTsQuery,
  chineseBigrams,
  chineseTsQuery,
  searchDocument,
} from "./search-text.ts";

describe("Chinese search text", () => {
  it("indexes runs of Chinese characters as bigrams and keeps other words", () => {
    expect(chineseBigrams("戈登城堡，位于 Moray")).toBe("戈登 登城 城堡 位于 moray");
    expect(chineseBigrams("湖")).toBe("湖");
  });

  it("turns a Chinese query into bigrams that must all match, a single character as a prefix", () => {
    expect(chineseTsQuery("城堡")).toBe("城堡");
    expect(chineseTsQuery("戈登城堡")).toBe("戈登 & 登城 & 城堡");
    expect(chineseTsQuery("湖")).toBe("湖:*");
    expect(chineseTsQuery("castle")).toBeUndefined();
  });

  it("prepares documents per language", () => {
    const text = {
      name: "戈登城堡",
      location: "苏格兰",
      summary: "花园",
      amenities: ["泳池"],
      activities: [],
    };
    expect(searchDocument("zh", text)).toBe("戈登 登城 城堡 苏格 格兰 花园 泳池");
    expect(searchDocument("en", { ...text, name: "Gordon Castle" })).toContain("Gordon Castle");
  });
});

describe("catalogue query terms", () => {
  it("keeps the distinct words of two letters or more, lowercased", () => {
    expect(catalogueQueryTerms("Château d'Ashford")).toEqual({ words: ["château", "ashford"] });
    expect(catalogueQueryTerms("Villa villa at")).toEqual({ words: ["villa", "at"] });
    expect(catalogueQueryTerms("12 & | ! :* <->")).toEqual({ words: ["12"] });
  });

  it("turns the Chinese part into bigrams beside the other words", () => {
    expect(catalogueQueryTerms("Gordon 戈登城堡")).toEqual({
      words: ["gordon"],
      chinese: "戈登 & 登城 & 城堡",
    });
    expect(catalogueQueryTerms("城堡")).toEqual({ words: [], chinese: "城堡" });
  });

  it("requires every word in one of its forms, quoted as lexemes", () => {
    expect(catalogueTsQuery([["castl", "castle"], ["lake"]], undefined)).toBe(
      "('castl' | 'castle') & ('lake')",
    );
    expect(catalogueTsQuery([["o'hara"]], "城堡")).toBe("('o''hara') & 城堡");
    expect(catalogueTsQuery([], undefined)).toBeNull();
  });
});
