/**
 * The catalogue content schema lives in the domain (domain/catalogue/property-content.schema.ts);
 * this module keeps the content folder's imports working.
 */
export { LANGUAGES } from "#i18n/config.ts";
export {
  AMENITY_KEYS,
  ARCHITECTURES,
  REGIONS,
  TERRAINS,
} from "#domain/catalogue/catalogue-keys.ts";
export {
  type PropertyContent,
  PropertyContentSchema,
  type PropertyTranslation,
  PropertyTranslationSchema,
} from "#domain/catalogue/property-content.schema.ts";
