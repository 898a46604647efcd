/**
 * Text PostgreSQL can hold: no NUL character (a text column, and a bound parameter, refuse
 * 0x00) and no unpaired surrogate (not encodable as UTF-8). Shared by the body checks of the
 * API, the query-string guard and the schemas that read the URL.
 */
export function isStorableText(text: string): boolean {
  return text.isWellFormed() && !text.includes("\u0000");
}

/** The message (a translation key) of text refused for holding what no column can store. */
export const UNSTORABLE_TEXT = "errors.unstorableText";

/** The text with every NUL removed and every unpaired surrogate replaced by U+FFFD. */
export function toStorableText(text: string): string {
  return text.toWellFormed().replaceAll("\u0000", "");
}
