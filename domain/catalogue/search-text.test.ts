import { describe, expect, it } from "vitest";
import { chineseBigrams, chineseTsQuery, searchDocument } from "./search-text.ts";

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
