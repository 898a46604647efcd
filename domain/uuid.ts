/**
 * Whether `text` has the shape of a UUID. Ids in paths and stored references are checked before
 * a query: PostgreSQL refuses a malformed uuid with an error, where the caller means "no such
 * row".
 */
export function isUuid(text: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
}
