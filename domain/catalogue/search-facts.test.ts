import { describe, expect, it } from "vitest";
import { CatalogueFilterSchema } from "./catalogue-filter.schema.ts";
import { BEDROOM_STEPS, GUEST_STEPS, factsQuery } from "./search-facts.ts";

const filter = (input: Record<string, string>) => CatalogueFilterSchema.parse(input);

/** "Any step from `from` up" as tsquery text. */
const stepsFrom = (prefix: "g" | "b", from: number) =>
  `( ${(prefix === "g" ? GUEST_STEPS : BEDROOM_STEPS)
    .filter((step) => step >= from)
    .map((step) => `'${prefix}${step}'`)
    .join(" | ")} )`;

describe("the filters as lexemes of the facts", () => {
  it("asks for a step or any above it, and checks the figure only between two steps", () => {
    expect(factsQuery(filter({ guests: "40", bedrooms: "20" }))).toEqual({
      indexed: `${stepsFrom("g", 40)} & ${stepsFrom("b", 20)}`,
      checked: null,
    });
    expect(factsQuery(filter({ guests: "45", bedrooms: "7" }))).toEqual({
      indexed: `${stepsFrom("g", 40)} & ${stepsFrom("b", 6)}`,
      checked: null,
      guestsAtLeast: 45,
      bedroomsAtLeast: 7,
    });
    // The top step is one lexeme.
    expect(factsQuery(filter({ guests: "200" }))).toEqual({ indexed: "'g200'", checked: null });
    // Below the first step every estate qualifies: only the figure is checked.
    expect(factsQuery(filter({ guests: "1", bedrooms: "1" }))).toEqual({
      indexed: null,
      checked: null,
      guestsAtLeast: 1,
      bedroomsAtLeast: 1,
    });
  });

  it("names the region, each amenity once and members only", () => {
    expect(
      factsQuery(filter({ region: "austria", amenities: "golf,lake,golf", members: "1" })),
    ).toEqual({ indexed: "'r.austria' & 'a.golf' & 'a.lake' & 'm'", checked: null });
  });

  it("asks the index for the rarest terms while they spare more rows than they cost, and checks the rest on the row", () => {
    const shares = new Map(
      Object.entries({
        "r.italy": 0.25,
        "a.golf": 0.1,
        // 20 guests or more: a fifth of the estates over its steps.
        g20: 0.1,
        g24: 0.05,
        g30: 0.03,
        g40: 0.01,
        g50: 0.005,
        g60: 0.003,
        g80: 0.001,
        g100: 0.0005,
        g150: 0.0003,
        g200: 0.0002,
        // Six bedrooms or more: three in four.
        b6: 0.2,
        b8: 0.2,
        b10: 0.17,
        b12: 0.1,
        b15: 0.05,
        b20: 0.03,
        b25: 0.01,
        b30: 0.005,
        b40: 0.003,
        b50: 0.001,
        b60: 0.0005,
        b80: 0.0005,
      }),
    );
    // Golf (a tenth), then 20 guests and Italy narrow the rows read more than their entries
    // cost; three bedrooms in four by then spares a few rows for 770,000 entries.
    expect(
      factsQuery(
        filter({ region: "italy", guests: "20", bedrooms: "6", amenities: "golf" }),
        shares,
      ),
    ).toEqual({
      indexed: `'r.italy' & 'a.golf' & ${stepsFrom("g", 20)}`,
      checked: stepsFrom("b", 6),
    });
    // The rarest is common already: nothing for the index, a walk with the check.
    expect(factsQuery(filter({ region: "italy", bedrooms: "6" }), shares)).toEqual({
      indexed: null,
      checked: `'r.italy' & ${stepsFrom("b", 6)}`,
    });
    // A lexeme the statistics do not list is as rare as the rarest they list.
    expect(factsQuery(filter({ region: "austria", bedrooms: "6" }), shares)).toEqual({
      indexed: "'r.austria'",
      checked: stepsFrom("b", 6),
    });
  });
});
