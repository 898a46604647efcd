import { describe, expect, it } from "vitest";
import type { OwnerImage } from "#domain/owners/owner-property.ts";
import {
  isSameSelection,
  rankOf,
  reconcileSelection,
  savedSelection,
  toggleSelection,
} from "./selection.ts";

const image = (key: string, selectedRank: number | null): OwnerImage => ({
  key,
  width: 800,
  height: 600,
  selectedRank,
  uploaded: false,
});

describe("the owner's image selection", () => {
  it("reads the saved selection in the order guests see it", () => {
    const gallery = [image("a", 2), image("b", null), image("c", 1), image("d", 3)];
    expect(savedSelection(gallery)).toEqual(["c", "a", "d"]);
  });

  it("appends a newly selected image at the end", () => {
    expect(toggleSelection(["c", "a"], "b")).toEqual(["c", "a", "b"]);
    expect(rankOf(["c", "a", "b"], "b")).toBe(3);
  });

  it("renumbers the others when one is deselected", () => {
    const selection = toggleSelection(["c", "a", "b"], "c");
    expect(selection).toEqual(["a", "b"]);
    expect(rankOf(selection, "a")).toBe(1);
    expect(rankOf(selection, "b")).toBe(2);
    expect(rankOf(selection, "c")).toBeNull();
  });

  it("tells an order change from the same selection", () => {
    expect(isSameSelection(["a", "b"], ["a", "b"])).toBe(true);
    expect(isSameSelection(["a", "b"], ["b", "a"])).toBe(false);
    expect(isSameSelection(["a"], ["a", "b"])).toBe(false);
  });

  it("follows the server after a reload when nothing was changed", () => {
    expect(
      reconcileSelection({
        previousSaved: ["a", "b"],
        nextSaved: ["a", "b", "new"],
        current: ["a", "b"],
        existingKeys: ["a", "b", "new"],
      }),
    ).toEqual(["a", "b", "new"]);
  });

  it("keeps unsaved changes after a reload, minus deleted images", () => {
    expect(
      reconcileSelection({
        previousSaved: ["a", "b"],
        nextSaved: ["a", "b"],
        current: ["b", "gone", "a"],
        existingKeys: ["a", "b"],
      }),
    ).toEqual(["b", "a"]);
  });
});
