import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { DEMO_CATALOGUE } from "#tests/setup/database.ts";
import {
  CATALOGUE_CSV_COLUMNS,
  csvFieldName,
  formatCatalogueCsv,
  parseCatalogueCsv,
} from "./catalogue-csv.ts";
import { csvCell, csvCellText } from "../csv/safe-csv.ts";
import { type PropertyContent, validateCatalogue } from "./property-content.schema.ts";
import { slugify } from "./slug.ts";
import { anyOf } from "#tests/setup/matchers.ts";

const DEMO = DEMO_CATALOGUE;

/** The CSV read back and validated, as the import does it. */
function readBack(text: string) {
  const { entries, problems } = parseCatalogueCsv(text);
  const checked = validateCatalogue(entries, csvFieldName);
  return { entries, problems: [...problems, ...checked.problems], catalogue: checked.catalogue };
}

/** The raw cells of the data rows, without any unescaping, by column name. */
function rawRows(text: string): Record<string, string>[] {
  return parse(text, { bom: true, columns: true }) as Record<string, string>[];
}

function variant(base: PropertyContent, change: (copy: PropertyContent) => void): PropertyContent {
  const copy = structuredClone(base);
  change(copy);
  return copy;
}

describe("the catalogue as CSV", () => {
  it("round-trips the demo catalogue: one row per estate, each starting on the line it reports", () => {
    const text = formatCatalogueCsv(DEMO);
    expect(text.startsWith(`\uFEFF${CATALOGUE_CSV_COLUMNS.map((c) => `"${c}"`).join(",")}\n`)).toBe(
      true,
    );
    expect(CATALOGUE_CSV_COLUMNS.slice(0, 24)).toEqual([
      "id",
      "region",
      "bedrooms",
      "guestCapacity",
      "membersOnly",
      "ownerEmail",
      "amenityKeys",
      "websiteUrl",
      "startingPrice.amount",
      "startingPrice.currency",
      "priceRange.min",
      "priceRange.max",
      "priceRange.currency",
      "phone",
      "address",
      "postalCode",
      "city",
      "coordinates.lat",
      "coordinates.lng",
      "illustration.terrain",
      "illustration.architecture",
      "illustration.imageCount",
      "name_en",
      "location_en",
    ]);
    expect(CATALOGUE_CSV_COLUMNS).toHaveLength(22 + 4 * 6);
    expect(CATALOGUE_CSV_COLUMNS.at(-1)).toBe("historicalSignificance_zh");

    const { entries, problems, catalogue } = readBack(text);
    expect(problems).toEqual([]);
    expect(catalogue).toEqual(DEMO);
    // Every estate was found at the line its row starts on.
    expect(entries).toHaveLength(DEMO.length);

    const lines = text.split("\n");
    for (const entry of entries) {
      const id = (entry.value as { id: number }).id;
      expect(
        lines[entry.line - 1]!.startsWith(`"${id}",`),
        `estate ${id} at line ${entry.line}`,
      ).toBe(true);
    }
    // Lists are one cell with an item per line, so rows span several lines.
    expect(entries[1]!.line).toBeGreaterThan(3);
  });

  it("quotes commas, quotes and line breaks, and reads them back as they were", () => {
    const estate = variant(DEMO[0]!, (e) => {
      e.content.en.name = 'Château "Le Fort", Annex';
      e.content.fr.summary = `${e.content.fr.summary}\n\nSecond paragraph, with "quotes".`;
      e.content.it.amenities[0] = "Piscina, sauna e bagno turco";
    });
    const text = formatCatalogueCsv([estate]);
    expect(text).toContain(',"Château ""Le Fort"", Annex",');
    expect(text).toContain('\n\nSecond paragraph, with ""quotes"".",');
    expect(text).toContain(`,"Piscina, sauna e bagno turco\n${estate.content.it.amenities[1]}\n`);
    const row = rawRows(text)[0]!;
    expect(row.amenityKeys).toBe(estate.amenityKeys.join("|"));
    expect(row.amenities_it!.split("\n")).toEqual(estate.content.it.amenities);
    expect(readBack(text).catalogue).toEqual([estate]);
    // A spreadsheet that saves with CRLF line ends gives the same estates on the same lines.
    const crlf = readBack(text.replace(/\n/g, "\r\n"));
    expect(crlf.catalogue).toEqual([estate]);
    expect(crlf.entries.map((e) => e.line)).toEqual(readBack(text).entries.map((e) => e.line));
  });

  it("prefixes cells a spreadsheet would run as formulas with ' and takes it off on import", () => {
    const estate = variant(DEMO[0]!, (e) => {
      e.content.en.name = '=HYPERLINK("http://evil.example","Open")';
      e.content.fr.location = "+33 Paris, France";
      e.content.it.summary = `@SUM(1+1) ${e.content.it.summary}`;
      e.content.zh.activities[0] = "-骑马";
      e.content.en.location = "'=kept as typed";
      e.content.fr.name = "'Apostrophe d'abord";
    });
    const text = formatCatalogueCsv([estate]);
    const row = rawRows(text)[0]!;
    expect(row.name_en).toBe(`'=HYPERLINK("http://evil.example","Open")`);
    expect(row.location_fr).toBe("'+33 Paris, France");
    expect(row.summary_it!.startsWith("'@SUM(1+1) ")).toBe(true);
    expect(row.activities_zh!.startsWith("'-骑马\n")).toBe(true);
    expect(row.location_en).toBe("''=kept as typed");
    expect(row.name_fr).toBe("'Apostrophe d'abord");
    expect(row.id).toBe(String(estate.id));
    expect(readBack(text).catalogue).toEqual([estate]);

    expect(csvCell("-1")).toBe("'-1");
    expect(csvCellText("'-1")).toBe("-1");
    expect(csvCellText("=typed in the sheet")).toBe("=typed in the sheet");
    expect(csvCellText("'quoted")).toBe("'quoted");
  });

  it("quotes every cell and neutralises formula starts after separators too", () => {
    const estate = variant(DEMO[0]!, (e) => {
      e.content.en.name = "Ada;=cmd|' /C calc'!A0;x";
      e.content.fr.location = "Paris,+33 1;\t@SUM(A1)";
      e.content.it.activities[1] = "=1+1";
    });
    const text = formatCatalogueCsv([estate]);
    const [headerLine, rowLine] = text.replace(/^\uFEFF/, "").split("\n");
    expect(headerLine).toMatch(/^"id","region",/);
    expect(rowLine).toMatch(new RegExp(`^"${estate.id}","`));
    const row = rawRows(text)[0]!;
    expect(row.name_en).toBe("Ada;'=cmd|' /C calc'!A0;x");
    expect(row.location_fr).toBe("Paris,'+33 1;\t'@SUM(A1)");
    expect(row.activities_it!.split("\n")[1]).toBe("'=1+1");
    expect(readBack(text).catalogue).toEqual([estate]);
  });

  it("reports each problem with its line and column, and returns no estate then", () => {
    const [a, b, c] = DEMO as [PropertyContent, PropertyContent, PropertyContent];
    // Edit cells as someone would in a spreadsheet: a region that does not exist, a word for a
    // number, a repeated id, a short summary, a word for a yes or no.
    const cells = parse(formatCatalogueCsv([a, b, c]), { bom: true }) as string[][];
    const column = (name: string) => CATALOGUE_CSV_COLUMNS.indexOf(name);
    cells[2]![column("id")] = String(a.id);
    cells[2]![column("region")] = "mars";
    cells[2]![column("bedrooms")] = "three";
    cells[3]![column("membersOnly")] = "maybe";
    cells[3]![column("summary_fr")] = "Trop court.";
    const text = stringify(cells);
    const lines = text.split("\n");
    const startsRow = (id: number) => (line: string) => line.startsWith(`${id},`);
    const lineA = lines.findIndex(startsRow(a.id)) + 1;
    const lineB = lines.findLastIndex(startsRow(a.id)) + 1;
    const lineC = lines.findIndex(startsRow(c.id)) + 1;
    expect(lineA).toBe(2);
    expect(lineB).toBeGreaterThan(lineA);

    const { problems, catalogue } = readBack(text);
    expect(catalogue).toEqual([]);
    expect(problems).toEqual([
      {
        line: lineB,
        id: a.id,
        field: "region",
        message:
          '"mars" is not one of france, italy, spain, uk, germany, switzerland, portugal, austria',
      },
      { line: lineB, id: a.id, field: "bedrooms", message: '"three" is not a whole number' },
      { line: lineB, id: a.id, field: "id", message: `id ${a.id} is also on line ${lineA}` },
      { line: lineC, id: c.id, field: "membersOnly", message: '"maybe" is not true or false' },
      { line: lineC, id: c.id, field: "summary_fr", message: "11 characters; at least 80" },
    ]);
  });

  it("refuses two estates whose English names give one slug", () => {
    const [a, b] = DEMO as [PropertyContent, PropertyContent];
    const twin = variant(b, (e) => (e.content.en.name = `${a.content.en.name.toUpperCase()} `));
    const { problems } = readBack(formatCatalogueCsv([a, twin]));
    expect(problems).toEqual([
      {
        line: anyOf(Number),
        id: b.id,
        field: "name_en",
        message: `gives the same slug (${slugify(a.content.en.name)}) as the name on line 2`,
      },
    ]);
  });

  it("names list items and the header's problems, and skips rows a spreadsheet left empty", () => {
    const estate = variant(DEMO[0]!, (e) => {
      e.content.it.amenities[2] = "x";
      e.content.zh.activities = ["骑马", "品酒"];
    });
    const text = formatCatalogueCsv([estate]);
    const blankRow = `${",".repeat(CATALOGUE_CSV_COLUMNS.length - 1)}\n`;
    const { problems } = readBack(`${text}${blankRow}\n`);
    expect(problems).toEqual([
      {
        line: 2,
        id: estate.id,
        field: "amenities_it (item 3)",
        message: "1 character; at least 2",
      },
      { line: 2, id: estate.id, field: "activities_zh", message: "2 items; at least 3" },
    ]);

    const header = text.slice(1, text.indexOf("\n"));
    const badHeader = header.replace('"region",', '"regions",').replace(',"ownerEmail"', "");
    expect(parseCatalogueCsv(text.replace(header, badHeader)).problems).toEqual([
      { line: 1, field: "regions", message: "unknown column" },
      { line: 1, field: "region", message: "missing column" },
      { line: 1, field: "ownerEmail", message: "missing column" },
    ]);
  });

  it("reads a file without the owner's facts (an older export): the estates lack only them", () => {
    const { websiteUrl: _w, startingPrice: _s, priceRange: _r, ...older } = DEMO[0]!;
    const { phone: _p, address: _a, postalCode: _c, city: _t, coordinates: _g, ...bare } = older;
    const text = formatCatalogueCsv([bare]);
    const kept = CATALOGUE_CSV_COLUMNS.filter((column) =>
      rawRows(text).every((row) => row[column] !== ""),
    );
    const rows = rawRows(text).map((row) => kept.map((column) => row[column]!));
    const withoutColumns = stringify(rows, { header: true, columns: kept });
    const { problems, catalogue } = readBack(withoutColumns);
    expect(problems).toEqual([]);
    expect(catalogue).toEqual([bare]);
  });

  it("reports rows of the wrong width and broken quoting by line", () => {
    const header = CATALOGUE_CSV_COLUMNS.join(",");
    expect(parseCatalogueCsv(`${header}\n1,france,3\n`).problems).toEqual([
      { line: 2, message: `the row has 3 cells; the header has ${CATALOGUE_CSV_COLUMNS.length}` },
    ]);
    expect(parseCatalogueCsv(`${header}\n1,france\n2,"italy\n3,spain\n`).problems).toEqual([
      { line: 3, message: 'a quoted cell in this row is never closed (a " is missing)' },
    ]);
    expect(parseCatalogueCsv(`${header}\n1,france\n2,it"aly\n`).problems).toEqual([
      { line: 3, message: 'a " inside a cell must be doubled ("") and the cell quoted' },
    ]);
  });
});
