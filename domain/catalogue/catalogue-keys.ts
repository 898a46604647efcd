/**
 * The catalogue's fixed vocabularies. Kept apart from the zod schemas so that pages can use
 * them without shipping zod to the browser.
 */

/** Regions a guest can prefer (spec point 3, preferredRegion). */
export const REGIONS = [
  "france",
  "italy",
  "spain",
  "uk",
  "germany",
  "switzerland",
  "portugal",
  "austria",
] as const;

/** Amenity keys shared with the booking form (spec point 3, preferredAmenities). */
export const AMENITY_KEYS = [
  "pool",
  "spa",
  "gym",
  "wine",
  "library",
  "garden",
  "tennis",
  "golf",
  "beach",
  "mountain",
  "lake",
  "city",
] as const;

export const TERRAINS = ["hills", "coast", "lake", "vineyard", "mountain", "parkland"] as const;
export const ARCHITECTURES = ["castle", "chateau", "villa", "manor", "tower"] as const;
