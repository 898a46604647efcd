import type { OwnerImage } from "#domain/owners/owner-property.ts";

/**
 * The Images tab's selection: the keys of the images guests see, in the order they see them.
 * Selecting appends an image at the end; deselecting removes it and the others close ranks.
 */

/** The saved selection of a gallery, in its order (1, 2, 3, …). */
export function savedSelection(gallery: readonly OwnerImage[]): string[] {
  return gallery
    .filter((image) => image.selectedRank !== null)
    .toSorted((a, b) => (a.selectedRank ?? 0) - (b.selectedRank ?? 0))
    .map((image) => image.key);
}

/** `key` added at the end, or taken out if it was selected. */
export function toggleSelection(selection: readonly string[], key: string): string[] {
  return selection.includes(key)
    ? selection.filter((selected) => selected !== key)
    : [...selection, key];
}

/** The 1-based place of `key` in the selection, or null when it is not selected. */
export function rankOf(selection: readonly string[], key: string): number | null {
  const index = selection.indexOf(key);
  return index === -1 ? null : index + 1;
}

export function isSameSelection(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, index) => b[index] === key);
}

/**
 * The selection to show after the gallery was reloaded (a save, an upload, a delete). Without
 * unsaved changes it follows the server; with them it keeps the owner's choice, minus images
 * that no longer exist.
 */
export function reconcileSelection(input: {
  previousSaved: readonly string[];
  nextSaved: readonly string[];
  current: readonly string[];
  existingKeys: readonly string[];
}): string[] {
  if (isSameSelection(input.current, input.previousSaved)) return [...input.nextSaved];
  const existing = new Set(input.existingKeys);
  return input.current.filter((key) => existing.has(key));
}
