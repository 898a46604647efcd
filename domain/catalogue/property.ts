import type { Language } from "#i18n/config.ts";

export interface PropertyImage {
  key: string;
  width: number;
  height: number;
}

/** A property as guests see it, in one language. The owner's contact stays private. */
export interface Property {
  id: number;
  slug: string;
  language: Language;
  region: string;
  bedrooms: number;
  guestCapacity: number;
  membersOnly: boolean;
  amenityKeys: string[];
  name: string;
  location: string;
  summary: string;
  amenities: string[];
  activities: string[];
  historicalSignificance: string | null;
  /** The owner's selected images, in order. */
  images: PropertyImage[];
}
