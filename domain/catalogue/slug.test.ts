import { describe, expect, it } from "vitest";
import { slugify } from "./slug.ts";

describe("slugify", () => {
  it.each([
    ["Gordon Castle", "gordon-castle"],
    ["Venetian   Countryside", "venetian-countryside"],
    ["Château de Valmont", "chateau-de-valmont"],
    ["château-de-valmont", "chateau-de-valmont"],
    ["  Amalfi Coast ", "amalfi-coast"],
    ["Schloss Wörth am See", "schloss-worth-am-see"],
    ["Quinta d'Azenha", "quinta-dazenha"],
  ])("%s → %s", (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });
});
