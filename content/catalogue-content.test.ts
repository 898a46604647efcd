import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { slugify } from "#domain/catalogue/slug.ts";
import { loadPropertyContent } from "./load-properties.ts";
import { REGIONS } from "./property-content.schema.ts";

const catalogue = loadPropertyContent(join(import.meta.dirname, "properties"));

/** Both lists of members' estates the site shows; decisions.md: the badge flag is their union. */
const MEMBERS_ESTATES = [
  "Venetian Countryside",
  "Portofino",
  "Padua",
  "Tuscany",
  "Florence",
  "Umbria",
  "Amalfi Coast",
  "Rome",
  "Roman Countryside",
  "Sicily",
  "Positano",
  "Tabiano",
  "Apulia",
  "Carlton Towers",
  "Gordon Castle",
  "Bellingham Castle",
];

describe("demo catalogue content", () => {
  it("has at least 40 estates with unique ids, slugs and owner addresses", () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(40);
    const unique = (values: unknown[]) => new Set(values).size === values.length;
    expect(unique(catalogue.map((p) => p.id))).toBe(true);
    expect(unique(catalogue.map((p) => slugify(p.content.en.name)))).toBe(true);
    expect(unique(catalogue.map((p) => p.ownerEmail))).toBe(true);
  });

  it("includes every estate the spec names, flagged members-only", () => {
    for (const name of MEMBERS_ESTATES) {
      const estate = catalogue.find((p) => p.content.en.name === name);
      expect(estate, name).toBeDefined();
      expect(estate?.membersOnly, name).toBe(true);
    }
  });

  it("covers every preferred region of the booking form", () => {
    expect(new Set(catalogue.map((p) => p.region))).toEqual(new Set(REGIONS));
  });

  it("writes the Chinese text in Chinese and the others differently from English", () => {
    for (const estate of catalogue) {
      const { en, fr, it: italian, zh } = estate.content;
      expect(zh.summary, en.name).toMatch(/\p{Script=Han}/u);
      expect(fr.summary, en.name).not.toBe(en.summary);
      expect(italian.summary, en.name).not.toBe(en.summary);
      expect(fr.amenities.length, en.name).toBe(en.amenities.length);
      expect(zh.activities.length, en.name).toBe(en.activities.length);
    }
  });

  it("gives most estates a historical significance", () => {
    const withHistory = catalogue.filter((p) => p.content.en.historicalSignificance);
    expect(withHistory.length / catalogue.length).toBeGreaterThan(0.8);
  });
});
