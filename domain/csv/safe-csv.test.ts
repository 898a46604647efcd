import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CSV_OPTIONS, csvCell, csvCellText } from "./safe-csv.ts";

/** The review's example: unquoted, Excel with ';' as its list separator makes cell 2 a formula. */
const SEMICOLON_ATTACK = "Ada;=cmd|' /C calc'!A0;x";

/** One row of cells written as every export writes them. */
function csvOf(values: string[]): string {
  return stringify([values.map(csvCell)], CSV_OPTIONS);
}

/**
 * What a spreadsheet that splits a cell on `separator`, ignoring quotes, would see, each piece
 * with the white space it strips before reading a formula taken off.
 */
function naiveCells(line: string, separator: RegExp): string[] {
  return line.split(separator).map((cell) => cell.replace(/^[ \t\r\n]+/, ""));
}

const HOSTILE = [
  SEMICOLON_ATTACK,
  "=1+1",
  "+33 1 23 45 67 89",
  "-2",
  "@SUM(A1)",
  "\t=1+1",
  "\r=1+1",
  "Ada;+1",
  "Ada;-1",
  "Ada;@SUM(A1)",
  "Ada; =1",
  "Ada;\t=1",
  "Ada;\r=1",
  "Ada,=1",
  "Ada, -1",
  "Ada\t=1",
  "Ada\t@x",
  "Ada\n=1",
  "Ada\r\n+1",
  "'=already quoted",
  "Ada;'=1",
];

describe("safe CSV cells", () => {
  it("quotes every cell, the header and empty ones too", () => {
    const text = stringify([["Ada", "", "plain"]], {
      ...CSV_OPTIONS,
      header: true,
      columns: ["a", "b", "c"],
    });
    expect(text).toBe('"a","b","c"\n"Ada","","plain"\n');
  });

  it("keeps the review's ';' example in one quoted cell with its formula start neutralised", () => {
    const text = csvOf(["Ada Lovelace", SEMICOLON_ATTACK]);
    expect(text).toBe(`"Ada Lovelace","Ada;'=cmd|' /C calc'!A0;x"\n`);
    expect(parse(text)).toEqual([["Ada Lovelace", "Ada;'=cmd|' /C calc'!A0;x"]]);
    // A reader that honours quotes with ';' as its separator (French Excel) sees one cell.
    expect(parse(csvOf([SEMICOLON_ATTACK]), { delimiter: ";" })).toEqual([
      ["Ada;'=cmd|' /C calc'!A0;x"],
    ]);
  });

  it.each(HOSTILE)("leaves no formula start at any separator: %j", (value) => {
    const text = csvOf([value]);
    // Written quoted, read back by a CSV reader as one cell, and the original text recovered.
    expect(text.startsWith('"')).toBe(true);
    const cell: string = (parse(text) as string[][])[0]![0]!;
    expect(cell).toBe(csvCell(value));
    expect(csvCellText(cell)).toBe(value);
    // Split on each list separator a spreadsheet may use, quotes ignored: no piece is a formula.
    for (const separator of [/;/, /,/, /\t/, /\r?\n|\r/]) {
      for (const piece of naiveCells(cell, separator)) {
        expect(piece, `${JSON.stringify(value)} split on ${separator}`).not.toMatch(/^[=+\-@]/);
      }
    }
  });

  it("leaves text with no formula start as it is", () => {
    for (const value of ["Ada Lovelace", "Château d'Aramont", "2026-05-01", "a-b", "x=y", "城堡"])
      expect(csvCell(value)).toBe(value);
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell(12)).toBe("12");
    expect(csvCell(-3.5)).toBe("'-3.5");
  });

  it("gives back exactly the text it was given, whatever it holds", () => {
    const alphabet = fc.constantFrom("=", "+", "-", "@", "'", ";", ",", "\t", "\r", "\n", " ", "a");
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 24 }).map((chars) => chars.join("")),
        (value) => {
          const cell = csvCell(value);
          expect(csvCellText(cell)).toBe(value);
          for (const separator of [/;/, /,/, /\t/, /\r?\n|\r/])
            for (const piece of naiveCells(cell, separator)) expect(piece).not.toMatch(/^[=+\-@]/);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 1_000) },
    );
  });
});
