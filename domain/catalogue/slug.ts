/**
 * The slug of a property name: lowercased, accents removed, whitespace runs turned into
 * hyphens (the spec's rule), and anything else that would need escaping in a URL dropped.
 * Applying it to the spec's raw form ("gordon-castle", "Château de X") gives the same slug.
 */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{Mn}/gu, "")
    .toLowerCase()
    .trim()
    .replace(/\s+/g, "-")
    .replace(/[^a-z0-9-]/g, "")
    .replace(/-{2,}/g, "-")
    .replace(/^-|-$/g, "");
}
