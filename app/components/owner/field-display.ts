import type { EditableField } from "#domain/owners/owner-fields.ts";
import type { OwnerPropertyDetails } from "#domain/owners/owner-property.ts";
import { savedSelection } from "./selection.ts";

/** Every field the Overview tab shows: the editable ones and the read-only record. */
export type OverviewField = EditableField | "images" | "selectedImages" | "id" | "scraped_at";

/** One `key: value` row of an object field. */
export type DisplayPair =
  | { key: string; kind: "text"; value: string }
  | { key: string; kind: "money"; value: number; currency: string }
  | { key: string; kind: "number"; value: number }
  | { key: string; kind: "yesNo"; value: boolean }
  | { key: string; kind: "date"; value: string }
  | { key: string; kind: "count"; value: number };

/** How a field's value is shown: text as text, lists as lists, objects as rows. */
export type FieldDisplay =
  | { kind: "empty" }
  | { kind: "text"; text: string; multiline: boolean }
  | { kind: "number"; value: number }
  | { kind: "date"; value: string }
  | { kind: "list"; items: string[] }
  | { kind: "pairs"; pairs: DisplayPair[] }
  | { kind: "imageCount"; count: number }
  | { kind: "selectedImages"; keys: string[] };

function text(value: string | null | undefined, multiline = false): FieldDisplay {
  return value?.trim() ? { kind: "text", text: value, multiline } : { kind: "empty" };
}

function list(items: readonly string[]): FieldDisplay {
  return items.length > 0 ? { kind: "list", items: [...items] } : { kind: "empty" };
}

function pairs(rows: (DisplayPair | null)[]): FieldDisplay {
  const present = rows.filter((row): row is DisplayPair => row !== null);
  return present.length > 0 ? { kind: "pairs", pairs: present } : { kind: "empty" };
}

function textPair(key: string, value: string | null | undefined): DisplayPair | null {
  return value ? { key, kind: "text", value } : null;
}

/**
 * The value of `field` in the record, ready to show. Reads the structured record rather than
 * the editor's text, so prices and dates can be written the reader's way.
 */
export function fieldDisplay(details: OwnerPropertyDetails, field: OverviewField): FieldDisplay {
  switch (field) {
    case "name":
      return text(details.name);
    case "url":
      return text(details.url);
    case "location":
      return text(details.location);
    case "description":
      return text(details.description, true);
    case "history":
      return text(details.history, true);
    case "accommodation_description":
      return text(details.accommodation.description, true);
    case "facilities":
      return list(details.facilities);
    case "services":
      return list(details.services);
    case "activities":
      return list(details.activities);
    case "guest_capacity":
      return { kind: "number", value: details.guest_capacity };
    case "beds":
      return { kind: "number", value: details.accommodation.beds };
    case "phone":
      return text(details.contact.phone);
    case "address":
      return text(details.contact.address);
    case "postal_code":
      return text(details.contact.postal_code);
    case "city":
      return text(details.contact.city);
    case "starting_price": {
      const price = details.pricing.starting_price;
      return price
        ? pairs([{ key: "amount", kind: "money", value: price.amount, currency: price.currency }])
        : { kind: "empty" };
    }
    case "price_range": {
      const range = details.pricing.price_range;
      return range
        ? pairs([
            { key: "min", kind: "money", value: range.min, currency: range.currency },
            { key: "max", kind: "money", value: range.max, currency: range.currency },
          ])
        : { kind: "empty" };
    }
    case "coordinates": {
      const point = details.contact.coordinates;
      return point
        ? pairs([
            { key: "lat", kind: "number", value: point.lat },
            { key: "lng", kind: "number", value: point.lng },
          ])
        : { kind: "empty" };
    }
    case "website_info": {
      const info = details.website_info;
      return pairs([
        textPair("url", info.url),
        textPair("email", info.email),
        textPair("phone", info.phone),
        info.is_on_airbnb === null
          ? null
          : { key: "is_on_airbnb", kind: "yesNo", value: info.is_on_airbnb },
        textPair("facebook", info.social_media.facebook),
        textPair("instagram", info.social_media.instagram),
        info.additional_images.length > 0
          ? { key: "additional_images", kind: "count", value: info.additional_images.length }
          : null,
        info.last_updated ? { key: "last_updated", kind: "date", value: info.last_updated } : null,
        info.email_found_date
          ? { key: "email_found_date", kind: "date", value: info.email_found_date }
          : null,
      ]);
    }
    case "images":
      return { kind: "imageCount", count: details.images.length };
    case "selectedImages": {
      const keys = savedSelection(details.gallery);
      return keys.length > 0 ? { kind: "selectedImages", keys } : { kind: "empty" };
    }
    case "scraped_at":
      return details.scraped_at ? { kind: "date", value: details.scraped_at } : { kind: "empty" };
    case "id":
      return { kind: "number", value: details.id };
  }
}
