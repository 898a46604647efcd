import { sql } from "drizzle-orm";
import {
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

export interface Money {
  amount: number;
  currency: string;
}
export interface PriceRange {
  min: number;
  max: number;
  currency: string;
}
export interface WebsiteInfo {
  url?: string;
  email?: string;
  phone?: string;
  is_on_airbnb?: boolean;
  facebook?: string;
  instagram?: string;
  additional_images?: string[];
  last_updated?: string;
  email_found_date?: string;
}

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * An estate of the network. Language-independent facts only; text lives in translations.
 * The catalogue's filters are lexemes of `facts`, one GIN index for all of them
 * (docs/decisions/0027).
 */

export const properties = pgTable(
  "properties",
  {
    id: integer("id").primaryKey(),
    slug: text("slug").notNull().unique(),
    region: text("region").notNull(),
    bedrooms: integer("bedrooms").notNull(),
    guestCapacity: integer("guest_capacity").notNull(),
    membersOnly: boolean("members_only").notNull().default(false),
    ownerEmail: text("owner_email").notNull(),
    amenityKeys: text("amenity_keys")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The facts an owner edits on the dashboard; null until someone sets them. */
    websiteUrl: text("website_url"),
    startingPrice: jsonb("starting_price").$type<Money>(),
    priceRange: jsonb("price_range").$type<PriceRange>(),
    phone: text("phone"),
    address: text("address"),
    postalCode: text("postal_code"),
    city: text("city"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    websiteInfo: jsonb("website_info").$type<WebsiteInfo>(),
    /** When the catalogue content (seed or import) last wrote this estate: "scraped_at". */
    scrapedAt: timestamp("scraped_at", { withTimezone: true }),
    /** Hours staff have to answer a request for this estate (null: REQUEST_RESPONSE_HOURS). */
    responseHours: doublePrecision("response_hours"),
    /** The network's share on the owner's statements, in percent (null: OWNER_COMMISSION_PERCENT). */
    commissionPercent: doublePrecision("commission_percent"),
    /**
     * The estate's facts as lexemes for the catalogue's filters, computed by the database
     * (migration 0020, domain/catalogue/search-facts.ts).
     */
    facts: tsvector("facts")
      .notNull()
      .generatedAlwaysAs(
        sql`search_facts(region, guest_capacity, bedrooms, amenity_keys, members_only)`,
      ),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("properties_facts_idx").using("gin", t.facts)],
);

/**
 * The per-language text of a property: one row per (property, language). `search_document` is
 * the text to search, prepared by the domain (Chinese as character bigrams: PostgreSQL has no
 * Chinese parser); `search_vector` indexes it with the language's own configuration.
 */
export const propertyTranslations = pgTable(
  "property_translations",
  {
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    lang: text("lang").notNull(),
    name: text("name").notNull(),
    location: text("location").notNull(),
    summary: text("summary").notNull(),
    amenities: text("amenities").array().notNull(),
    activities: text("activities").array().notNull(),
    historicalSignificance: text("historical_significance"),
    services: text("services")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    accommodationDescription: text("accommodation_description"),
    searchDocument: text("search_document").notNull().default(""),
    searchVector: tsvector("search_vector")
      .notNull()
      .generatedAlwaysAs(
        sql`CASE lang WHEN 'en' THEN to_tsvector('english'::regconfig, search_document) WHEN 'fr' THEN to_tsvector('french'::regconfig, search_document) WHEN 'it' THEN to_tsvector('italian'::regconfig, search_document) ELSE to_tsvector('simple'::regconfig, search_document) END`,
      ),
  },
  (t) => [
    primaryKey({ columns: [t.propertyId, t.lang] }),
    // Translations written before search existed, refreshed at start (refreshSearchDocuments):
    // an empty index once they are, so the check costs nothing on a large catalogue.
    index("property_translations_stale_search_idx")
      .on(t.propertyId)
      .where(sql`${t.searchDocument} = ''`),
  ],
);

/**
 * What the catalogue search reads: one row per estate with the search vectors of all its
 * translations in one (names weighted A, so a name match ranks first) and its names in every
 * language for trigram matching. The database keeps it in step with property_translations
 * (statement triggers, migration 0007), so no writer of translations has to remember it.
 * One narrow row per estate instead of four wide ones: a match costs one heap visit, and the
 * capped count and ranking touch a quarter of the rows (docs/decisions/0010).
 */
export const propertySearch = pgTable(
  "property_search",
  {
    propertyId: integer("property_id")
      .primaryKey()
      .references(() => properties.id, { onDelete: "cascade" }),
    searchVector: tsvector("search_vector").notNull(),
    names: text("names").notNull(),
    /**
     * The estate's facts as lexemes (region, amenities, members only, and a lexeme per step its
     * capacity and bedrooms reach), written by the database from `properties` (migration 0020;
     * domain/catalogue/search-facts.ts makes the queries).
     */
    facts: tsvector("facts").notNull(),
    /** Copies of the estate's figures, for a filter between two steps of the ladders. */
    guestCapacity: integer("guest_capacity").notNull(),
    bedrooms: integer("bedrooms").notNull(),
  },
  (t) => [
    index("property_search_text_facts_idx").using("gin", t.searchVector, t.facts),
    index("property_search_names_trgm_idx").using("gin", sql`${t.names} gin_trgm_ops`),
  ],
);

/** What an image is made from: a generated illustration, or an owner's upload. */
export type ImageSource =
  | {
      kind: "illustration";
      seed: string;
      terrain: string;
      architecture: string;
      index: number;
    }
  | {
      kind: "upload";
      /** SHA-256 of the normalised original (see media_originals). */
      sha256: string;
      /** Where the original lives: the database, or the configured media directory. */
      store: "database" | "directory";
    };

/**
 * Ordered images of a property. `key` is derived from the source, so a changed image gets a
 * new key and new URLs, which is what lets the media route answer with immutable caching.
 */
export const propertyImages = pgTable(
  "property_images",
  {
    id: serial("id").primaryKey(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    key: text("key").notNull().unique(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    source: jsonb("source").$type<ImageSource>().notNull(),
    /**
     * The owner's selection and its order: the public gallery shows the images with a rank,
     * by rank. Null means not shown. Every demo image starts selected in catalogue order.
     */
    selectedRank: integer("selected_rank"),
    /** Who uploaded it (an owner's email or a staff account's); null for demo illustrations. */
    uploadedBy: text("uploaded_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("property_images_position_idx").on(t.propertyId, t.position),
    index("property_images_selected_idx").on(t.propertyId, t.selectedRank),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/** Encoded image variants, made on first request and kept for every later one. */
export const mediaVariants = pgTable(
  "media_variants",
  {
    imageKey: text("image_key").notNull(),
    width: integer("width").notNull(),
    format: text("format").notNull(),
    etag: text("etag").notNull(),
    bytes: bytea("bytes").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.imageKey, t.width, t.format] }),
    index("media_variants_created_idx").on(t.createdAt),
  ],
);

/**
 * Uploaded originals, already normalised (orientation applied, metadata stripped, re-encoded),
 * when the media store is the database. Variants are made from these like any other source.
 */
export const mediaOriginals = pgTable("media_originals", {
  sha256: text("sha256").primaryKey(),
  contentType: text("content_type").notNull(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
