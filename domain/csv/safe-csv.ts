/**
 * The one rule for every CSV the app writes (inbox, catalogue, security log): cells a
 * spreadsheet could run as a formula stay text (CSV injection), and every cell is quoted.
 *
 * Quoting alone is not enough and neither is the first character alone. A program that splits
 * on its own list separator (';' in French and Italian Excel, ',' or a tab elsewhere) without
 * honouring quotes turns `Ada;=cmd|' /C calc'!A0;x` into three cells, the second a formula. So
 * a formula character (= + - @) is neutralised with an apostrophe wherever a cell could start:
 * at the beginning (after any tabs, carriage returns or spaces some programs strip first) and
 * after each separator (; , tab, line break) and the white space that may follow it.
 *
 * The apostrophe is reversible (`csvCellText`): an apostrophe already standing where one would
 * be inserted gets one more, so an import takes exactly one off (the catalogue round trip).
 */

/** Options for csv-stringify: every cell quoted, empty ones too, headers included. */
export const CSV_OPTIONS = {
  quoted: true,
  quoted_empty: true,
  quoted_string: true,
} as const;

/**
 * A place a cell could start (the beginning, or a separator), the white space some programs
 * strip there, then any apostrophes and a formula character.
 */
const FORMULA_START = /(^|[;,\t\r\n])([ \t\r\n]*)('*[=+\-@])/g;
/** The same place holding the apostrophe csvCell inserted. */
const ESCAPED_FORMULA_START = /(^|[;,\t\r\n])([ \t\r\n]*)'('*[=+\-@])/g;

/**
 * A value as a CSV cell a spreadsheet shows as text: null and undefined become empty, numbers
 * and booleans their text, and each place a formula could start gets an apostrophe before it.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  const text = value === null || value === undefined ? "" : String(value);
  return text.replace(FORMULA_START, "$1$2'$3");
}

/** The text csvCell was given: takes off exactly the apostrophes it inserted (for imports). */
export function csvCellText(cell: string): string {
  return cell.replace(ESCAPED_FORMULA_START, "$1$2$3");
}
