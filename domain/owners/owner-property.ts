import type { Language } from "#i18n/config.ts";
import type {
  CoordinatesValue,
  EditableField,
  MoneyValue,
  PriceRangeValue,
} from "./owner-fields.ts";

/** Who acts on an estate: its owner (a proven email) or a member of staff, for support. */
export type EstateActor =
  { role: "owner"; email: string } | { role: "staff"; staffUserId: string; email: string };

/** One image of an estate as the Images tab shows it. */
export interface OwnerImage {
  key: string;
  width: number;
  height: number;
  /** 1-based place in the public gallery, or null when not shown. */
  selectedRank: number | null;
  /** An owner's upload (can be deleted), not a demo illustration. */
  uploaded: boolean;
}

/** A translated field that fell behind after an edit in `sourceLang`. */
export interface StaleTranslation {
  field: string;
  lang: string;
  sourceLang: string;
  since: string;
}

/**
 * The owner property record (GET /api/property-owners/property-details), in
 * one language, plus what the dashboard needs to edit it: `fields` holds each editable field
 * as the editor shows it (lists as lines, objects as `key: value` lines).
 */
export interface OwnerPropertyDetails {
  id: number;
  slug: string;
  language: Language;
  /** The owner's contact email on record ('No email available' when null). */
  contactEmail: string | null;
  name: string;
  url: string | null;
  location: string;
  description: string;
  history: string | null;
  pricing: { starting_price: MoneyValue | null; price_range: PriceRangeValue | null };
  guest_capacity: number;
  contact: {
    phone: string | null;
    address: string | null;
    postal_code: string | null;
    city: string | null;
    coordinates: CoordinatesValue | null;
  };
  facilities: string[];
  services: string[];
  activities: string[];
  accommodation: { beds: number; description: string | null };
  /** Every image's address (800 px JPEG), in gallery order. */
  images: string[];
  /** The shown images' addresses, in the order guests see them. */
  selectedImages: string[];
  website_info: {
    url: string | null;
    email: string | null;
    phone: string | null;
    is_on_airbnb: boolean | null;
    additional_images: string[];
    social_media: { facebook: string | null; instagram: string | null };
    last_updated: string | null;
    email_found_date: string | null;
  };
  scraped_at: string | null;
  fields: Record<EditableField, string>;
  gallery: OwnerImage[];
  stale: StaleTranslation[];
  /** The estates this actor may open (an owner's claimed estates; empty for staff). */
  estates: { id: number; name: string }[];
  actor: { role: "owner" | "staff"; email: string };
}
