import type { TFunction } from "i18next";

/**
 * A message key of the shared owner schemas (`owner.errors.*`) with its params, in the page's
 * language. Numbers are written the language's way (10,000,000 / 10 000 000); a param that
 * names a key (`amount`, `lat`) stays as written, since the owner types it.
 */
export function translateIssue(
  t: TFunction,
  locale: string,
  issue: { message: string; params?: Record<string, string | number> },
): string {
  const format = new Intl.NumberFormat(locale);
  const params = Object.fromEntries(
    Object.entries(issue.params ?? {}).map(([name, value]) => [
      name,
      typeof value === "number" ? format.format(value) : value,
    ]),
  );
  return t(issue.message, params);
}
