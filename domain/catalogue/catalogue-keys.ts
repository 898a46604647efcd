/**
 * The catalogue's fixed vocabularies. Kept apart from the zod schemas so that pages can use
 * them without shipping zod to the browser.
 */

/** Regions a guest can prefer (preferredRegion). */
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

/** Amenity keys shared with the booking form (preferredAmenities). */
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

/**
 * The longest stay a date search may ask for. Estates are let by the night, the week or the
 * month, and two months covers all three; a longer window asks about a season, which an
 * estate's availability (its month grids) answers better than a list of estates free for all
 * of it.
 */
export const CATALOGUE_MAX_STAY_NIGHTS = 60;

/** The date fields of a filter (both or neither), for their errors on the page. */
export const STAY_DATE_FIELDS = ["checkIn", "checkOut"] as const;
