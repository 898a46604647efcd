import { describe, expect, it } from "vitest";
import type { OwnerPropertyDetails } from "#domain/owners/owner-property.ts";
import { fieldDisplay } from "./field-display.ts";

function details(change: Partial<OwnerPropertyDetails> = {}): OwnerPropertyDetails {
  return {
    id: 7,
    slug: "castello-test",
    language: "en",
    contactEmail: null,
    name: "Castello Test",
    url: null,
    location: "Tuscany, Italy",
    description: "A castle.",
    history: null,
    pricing: { starting_price: null, price_range: { min: 300, max: 900, currency: "EUR" } },
    guest_capacity: 12,
    contact: { phone: null, address: "", postal_code: null, city: "Siena", coordinates: null },
    facilities: ["Pool", "Library"],
    services: [],
    activities: [],
    accommodation: { beds: 6, description: null },
    images: ["/media/a/800.jpg", "/media/b/800.jpg"],
    selectedImages: ["/media/b/800.jpg"],
    website_info: {
      url: "https://castello.example",
      email: null,
      phone: null,
      is_on_airbnb: false,
      additional_images: [],
      social_media: { facebook: null, instagram: null },
      last_updated: "2026-03-05",
      email_found_date: null,
    },
    scraped_at: null,
    fields: {} as OwnerPropertyDetails["fields"],
    gallery: [
      { key: "a", width: 800, height: 600, selectedRank: null, uploaded: false },
      { key: "b", width: 800, height: 600, selectedRank: 1, uploaded: true },
    ],
    stale: [],
    estates: [],
    actor: { role: "owner", email: "owner@castello.example" },
    ...change,
  };
}

describe("how the Overview tab shows a field", () => {
  it("shows text as text and blank or missing values as not set", () => {
    expect(fieldDisplay(details(), "name")).toEqual({
      kind: "text",
      text: "Castello Test",
      multiline: false,
    });
    expect(fieldDisplay(details(), "description")).toMatchObject({ multiline: true });
    expect(fieldDisplay(details(), "history")).toEqual({ kind: "empty" });
    expect(fieldDisplay(details(), "address")).toEqual({ kind: "empty" });
    expect(fieldDisplay(details(), "starting_price")).toEqual({ kind: "empty" });
  });

  it("shows lists as items and an empty list as not set", () => {
    expect(fieldDisplay(details(), "facilities")).toEqual({
      kind: "list",
      items: ["Pool", "Library"],
    });
    expect(fieldDisplay(details(), "services")).toEqual({ kind: "empty" });
  });

  it("shows objects as rows, skipping empty keys", () => {
    expect(fieldDisplay(details(), "price_range")).toEqual({
      kind: "pairs",
      pairs: [
        { key: "min", kind: "money", value: 300, currency: "EUR" },
        { key: "max", kind: "money", value: 900, currency: "EUR" },
      ],
    });
    expect(fieldDisplay(details(), "website_info")).toEqual({
      kind: "pairs",
      pairs: [
        { key: "url", kind: "text", value: "https://castello.example" },
        { key: "is_on_airbnb", kind: "yesNo", value: false },
        { key: "last_updated", kind: "date", value: "2026-03-05" },
      ],
    });
  });

  it("shows the record's images and id read-only", () => {
    expect(fieldDisplay(details(), "images")).toEqual({ kind: "imageCount", count: 2 });
    expect(fieldDisplay(details(), "selectedImages")).toEqual({
      kind: "selectedImages",
      keys: ["b"],
    });
    expect(fieldDisplay(details(), "id")).toEqual({ kind: "number", value: 7 });
    expect(fieldDisplay(details(), "scraped_at")).toEqual({ kind: "empty" });
  });
});
