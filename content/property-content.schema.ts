import { z } from "zod";

export { LANGUAGES } from "../i18n/config.ts";

import {
  AMENITY_KEYS,
  ARCHITECTURES,
  REGIONS,
  TERRAINS,
} from "../domain/catalogue/catalogue-keys.ts";

export { AMENITY_KEYS, ARCHITECTURES, REGIONS, TERRAINS };

const text = (min: number, max: number) => z.string().trim().min(min).max(max);

export const PropertyTranslationSchema = z.strictObject({
  name: text(2, 80),
  location: text(2, 120),
  summary: text(80, 900),
  amenities: z.array(text(2, 120)).min(4).max(12),
  activities: z.array(text(2, 120)).min(3).max(12),
  historicalSignificance: text(80, 1500).optional(),
});

export const PropertyContentSchema = z.strictObject({
  /** Stable public id: /property/{id}. Never reused. */
  id: z.number().int().positive(),
  region: z.enum(REGIONS),
  bedrooms: z.number().int().min(1).max(80),
  guestCapacity: z.number().int().min(1).max(200),
  membersOnly: z.boolean(),
  ownerEmail: z.email(),
  /** Amenity keys used by filters; must agree with the translated amenity lists. */
  amenityKeys: z.array(z.enum(AMENITY_KEYS)).min(1),
  illustration: z.strictObject({
    terrain: z.enum(TERRAINS),
    architecture: z.enum(ARCHITECTURES),
    /** How many generated images the estate has (4 to 12). */
    imageCount: z.number().int().min(4).max(12),
  }),
  content: z.strictObject({
    en: PropertyTranslationSchema,
    fr: PropertyTranslationSchema,
    it: PropertyTranslationSchema,
    zh: PropertyTranslationSchema,
  }),
});

export type PropertyContent = z.infer<typeof PropertyContentSchema>;
