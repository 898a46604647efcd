import { describe, expect, it } from "vitest";
import { CatalogueFilterSchema } from "./catalogue-filter.schema.ts";
import { DENSE_FACT_SHARE, factsQuery } from "./search-facts.ts";

const filter = (input: Record<string, string>) => CatalogueFilterSchema.parse(input);

describe("the filters as lexemes of the facts", () => {
  it("asks for a step's lexeme, and checks the figure only between two steps", () => {
    expect(factsQuery(filter({ guests: "40", bedrooms: "20" }))).toEqual({
      indexed: "'g40' & 'b20'",
      checked: null,
    });
    expect(factsQuery(filter({ guests: "45", bedrooms: "7" }))).toEqual({
      indexed: "'g40' & 'b6'",
      checked: null,
      guestsAtLeast: 45,
      bedroomsAtLeast: 7,
    });
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

  it("asks the index for the rarest lexemes while they spare more rows than they cost, and checks the rest on the row", () => {
    const shares = new Map([
      ["r.italy", 0.25],
      ["g20", DENSE_FACT_SHARE],
      ["b6", 0.77],
      ["a.golf", 0.1],
      ["a.city", 0.01],
    ]);
    // Golf (a tenth), then 20 guests and Italy narrow the rows read more than their entries
    // cost; three bedrooms in four by then spares a few rows for 770,000 entries.
    expect(
      factsQuery(
        filter({ region: "italy", guests: "20", bedrooms: "6", amenities: "golf" }),
        shares,
      ),
    ).toEqual({ indexed: "'r.italy' & 'a.golf' & 'g20'", checked: "'b6'" });
    // The rarest is common already: nothing for the index, a walk with the check.
    expect(factsQuery(filter({ region: "italy", bedrooms: "6" }), shares)).toEqual({
      indexed: null,
      checked: "'r.italy' & 'b6'",
    });
    // A lexeme the statistics do not list is as rare as the rarest they list (a city, 1%).
    expect(factsQuery(filter({ region: "austria", bedrooms: "6" }), shares)).toEqual({
      indexed: "'r.austria'",
      checked: "'b6'",
    });
  });
});
