import { CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { LANGUAGES } from "#i18n/config.ts";
import { CSV_OPTIONS, csvCell, csvCellText } from "../csv/safe-csv.ts";
import type {
  CatalogueEntry,
  CatalogueProblem,
  FieldNamer,
  PropertyContent,
} from "./property-content.schema.ts";

/**
 * The catalogue as a spreadsheet: one row per estate, the text of each language in columns
 * suffixed with the language (`summary_fr`). A list is one cell with one item per line (the
 * amenity keys, short and fixed, are separated by `|`). Rows are only shaped here; whether an
 * estate is valid is PropertyContentSchema's to say (validateCatalogue).
 */

const TRANSLATED_COLUMNS = [
  "name",
  "location",
  "summary",
  "amenities",
  "activities",
  "historicalSignificance",
] as const;

/** The owner's facts, in their columns' order. */
const OWNER_FACT_COLUMNS = [
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
] as const;
const SHARED_COLUMNS = [
  "id",
  "region",
  "bedrooms",
  "guestCapacity",
  "membersOnly",
  "ownerEmail",
  "amenityKeys",
  ...OWNER_FACT_COLUMNS,
  "illustration.terrain",
  "illustration.architecture",
  "illustration.imageCount",
] as const;

/** The owner's facts: a file may leave these columns out (an older export), and any cell empty. */
const OPTIONAL_COLUMNS = new Set<string>(OWNER_FACT_COLUMNS);

/** The columns, in order: the facts, then en, fr, it and zh text. */
export const CATALOGUE_CSV_COLUMNS: readonly string[] = [
  ...SHARED_COLUMNS,
  ...LANGUAGES.flatMap((lang) => TRANSLATED_COLUMNS.map((field) => `${field}_${lang}`)),
];

const AMENITY_KEY_SEPARATOR = "|";
const ITEM_SEPARATOR = "\n";

/** The catalogue as CSV text (UTF-8 with a byte-order mark, so spreadsheets read Chinese). */
export function formatCatalogueCsv(catalogue: readonly PropertyContent[]): string {
  const rows = catalogue.map((estate) => {
    const cells: string[] = [
      String(estate.id),
      estate.region,
      String(estate.bedrooms),
      String(estate.guestCapacity),
      String(estate.membersOnly),
      estate.ownerEmail,
      estate.amenityKeys.join(AMENITY_KEY_SEPARATOR),
      estate.websiteUrl ?? "",
      String(estate.startingPrice?.amount ?? ""),
      estate.startingPrice?.currency ?? "",
      String(estate.priceRange?.min ?? ""),
      String(estate.priceRange?.max ?? ""),
      estate.priceRange?.currency ?? "",
      estate.phone ?? "",
      estate.address ?? "",
      estate.postalCode ?? "",
      estate.city ?? "",
      String(estate.coordinates?.lat ?? ""),
      String(estate.coordinates?.lng ?? ""),
      estate.illustration.terrain,
      estate.illustration.architecture,
      String(estate.illustration.imageCount),
    ];
    for (const lang of LANGUAGES) {
      const text = estate.content[lang];
      cells.push(
        text.name,
        text.location,
        text.summary,
        text.amenities.join(ITEM_SEPARATOR),
        text.activities.join(ITEM_SEPARATOR),
        text.historicalSignificance ?? "",
      );
    }
    // Formula starts neutralised (CSV injection); the import takes the apostrophes off again.
    return cells.map(csvCell);
  });
  return stringify(rows, {
    ...CSV_OPTIONS,
    header: true,
    columns: [...CATALOGUE_CSV_COLUMNS],
    bom: true,
  });
}

/**
 * Reads CSV text into entries in the content shape, each with the line its row starts on (the
 * header is line 1), for validateCatalogue. Problems of the file itself (broken quoting, a
 * wrong header, a row with too few or too many cells) come back in `problems`; a header problem
 * stops the reading, since no row can be read without it. Rows with every cell empty, which
 * spreadsheets like to leave at the end, are ignored.
 */
export function parseCatalogueCsv(text: string): {
  entries: CatalogueEntry[];
  problems: CatalogueProblem[];
} {
  // One kind of line break, so that csv-parse counts lines right (it counts the \r and the \n
  // of a CRLF inside a quoted cell as two) and cells hold plain newlines.
  const normalised = text.replace(/\r\n?/g, "\n");
  let records: { record: string[]; info: { lines: number } }[];
  let lastRecordEnd = 0;
  try {
    // With `info`, each record comes as { record, info } (the typings do not know it).
    records = parse(normalised, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (record, context) => ((lastRecordEnd = context.lines), record),
    }) as unknown as typeof records;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // An unclosed quote is only noticed at the end of the file: name the row it opened in.
    const line =
      error.code === "CSV_QUOTE_NOT_CLOSED"
        ? lastRecordEnd + 1
        : typeof error.lines === "number"
          ? error.lines
          : 1;
    return { entries: [], problems: [{ line, message: csvErrorMessage(error) }] };
  }
  const withLines = records.map(({ record, info }) => ({
    cells: record,
    // info.lines is the line the record ends on; a quoted cell may span several.
    line: info.lines - record.reduce((n, cell) => n + cell.split("\n").length - 1, 0),
  }));
  const [header, ...rows] = withLines;
  if (!header) return { entries: [], problems: [] };

  const columns = header.cells.map((cell) => cell.trim());
  const problems = headerProblems(columns, header.line);
  if (problems.length > 0) return { entries: [], problems };

  const entries: CatalogueEntry[] = [];
  for (const { cells, line } of rows) {
    if (cells.every((cell) => cell.trim() === "")) continue;
    if (cells.length !== columns.length) {
      problems.push({
        line,
        message: `the row has ${cells.length} cells; the header has ${columns.length}`,
      });
      continue;
    }
    const row = new Map(columns.map((column, i) => [column, csvCellText(cells[i]!)]));
    entries.push({ line, value: estateOf(row) });
  }
  return { entries, problems };
}

/** Names a schema path by its CSV column: `summary_fr`, `amenities_fr (item 4)`. */
export const csvFieldName: FieldNamer = (path) => {
  const [first, second, third, fourth] = path.map(String);
  if (first === "content" && second && third) {
    const column = `${third}_${second}`;
    return fourth === undefined ? column : `${column} (item ${Number(fourth) + 1})`;
  }
  if (first === "illustration" && second) return `illustration.${second}`;
  if (first === "amenityKeys" && second !== undefined)
    return `amenityKeys (item ${Number(second) + 1})`;
  return path.map(String).join(".");
};

function headerProblems(columns: string[], line: number): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const seen = new Set<string>();
  for (const column of columns) {
    if (!CATALOGUE_CSV_COLUMNS.includes(column))
      problems.push({ line, field: column || "(empty)", message: "unknown column" });
    else if (seen.has(column)) problems.push({ line, field: column, message: "column repeated" });
    seen.add(column);
  }
  for (const column of CATALOGUE_CSV_COLUMNS)
    if (!seen.has(column) && !OPTIONAL_COLUMNS.has(column))
      problems.push({ line, field: column, message: "missing column" });
  return problems;
}

/** One row's cells in the content shape; the schema judges the values. */
function estateOf(row: Map<string, string>): unknown {
  const cell = (column: string) => (row.get(column) ?? "").trim();
  const optional = (column: string) => cell(column) || undefined;
  const content: Record<string, unknown> = {};
  for (const lang of LANGUAGES) {
    const text = (field: string) => cell(`${field}_${lang}`);
    content[lang] = {
      name: text("name"),
      location: text("location"),
      summary: text("summary"),
      amenities: items(text("amenities"), ITEM_SEPARATOR),
      activities: items(text("activities"), ITEM_SEPARATOR),
      historicalSignificance: text("historicalSignificance") || undefined,
    };
  }
  return {
    id: wholeNumber(cell("id")),
    region: optional("region"),
    bedrooms: wholeNumber(cell("bedrooms")),
    guestCapacity: wholeNumber(cell("guestCapacity")),
    membersOnly: yesNo(cell("membersOnly")),
    ownerEmail: optional("ownerEmail"),
    amenityKeys: items(cell("amenityKeys"), AMENITY_KEY_SEPARATOR),
    websiteUrl: optional("websiteUrl"),
    startingPrice: group({
      amount: decimal(cell("startingPrice.amount")),
      currency: optional("startingPrice.currency"),
    }),
    priceRange: group({
      min: decimal(cell("priceRange.min")),
      max: decimal(cell("priceRange.max")),
      currency: optional("priceRange.currency"),
    }),
    phone: optional("phone"),
    address: optional("address"),
    postalCode: optional("postalCode"),
    city: optional("city"),
    coordinates: group({
      lat: decimal(cell("coordinates.lat")),
      lng: decimal(cell("coordinates.lng")),
    }),
    illustration: {
      terrain: optional("illustration.terrain"),
      architecture: optional("illustration.architecture"),
      imageCount: wholeNumber(cell("illustration.imageCount")),
    },
    content,
  };
}

/** Cells that make one value: absent when every one is empty, else all of them. */
function group(cells: Record<string, unknown>): Record<string, unknown> | undefined {
  return Object.values(cells).every((value) => value === undefined) ? undefined : cells;
}

/** A decimal number when the cell is one, else the text (which the schema refuses by name). */
function decimal(cell: string): number | string | undefined {
  if (cell === "") return undefined;
  return /^[+-]?\d{1,10}(\.\d{1,10})?$/.test(cell) ? Number(cell) : cell;
}

/** A number when the cell is one, else the text (which the schema then refuses by name). */
function wholeNumber(cell: string): number | string | undefined {
  if (cell === "") return undefined;
  return /^[+-]?\d{1,15}$/.test(cell) ? Number(cell) : cell;
}

function yesNo(cell: string): boolean | string | undefined {
  const answer = cell.toLowerCase();
  if (answer === "true") return true;
  if (answer === "false") return false;
  return cell === "" ? undefined : cell;
}

function items(cell: string, separator: string): string[] {
  return cell
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean);
}

function csvErrorMessage(error: CsvError): string {
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return 'a quoted cell in this row is never closed (a " is missing)';
    case "CSV_INVALID_CLOSING_QUOTE":
    case "INVALID_OPENING_QUOTE":
      return 'a " inside a cell must be doubled ("") and the cell quoted';
    default:
      return error.message;
  }
}
