CREATE TABLE "property_search" (
	"property_id" integer PRIMARY KEY NOT NULL,
	"search_vector" "tsvector" NOT NULL,
	"names" text NOT NULL
);--> statement-breakpoint
ALTER TABLE "property_search" ADD CONSTRAINT "property_search_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- property_search holds, per estate, the search vectors of all its translations in one (names
-- weighted A) and its names in every language. The database keeps it in step with
-- property_translations: statement triggers refresh the estates a statement touched, whoever
-- wrote (seed, import, owner or staff edit). Custom SQL below: drizzle-kit models none of it.
CREATE AGGREGATE tsvector_agg(tsvector) (SFUNC = tsvector_concat, STYPE = tsvector, INITCOND = '');--> statement-breakpoint
CREATE VIEW property_search_source AS
SELECT t.property_id,
  tsvector_agg(
    CASE t.lang
      WHEN 'en' THEN setweight(to_tsvector('english'::regconfig, t.name), 'A') || t.search_vector
      WHEN 'fr' THEN setweight(to_tsvector('french'::regconfig, t.name), 'A') || t.search_vector
      WHEN 'it' THEN setweight(to_tsvector('italian'::regconfig, t.name), 'A') || t.search_vector
      -- Chinese names are in the document as bigrams already; the parser cannot split them.
      ELSE t.search_vector
    END ORDER BY t.lang) AS search_vector,
  string_agg(t.name, ' · ' ORDER BY t.lang) AS names
FROM property_translations t
GROUP BY t.property_id;--> statement-breakpoint
CREATE FUNCTION property_search_refresh(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO property_search (property_id, search_vector, names)
  SELECT property_id, search_vector, names FROM property_search_source WHERE property_id = ANY (ids)
  ON CONFLICT (property_id) DO UPDATE
    SET search_vector = excluded.search_vector, names = excluded.names;
  -- A join, not "= ANY (ids)" in a filter: that compares each row with every id.
  DELETE FROM property_search s USING unnest(ids) AS gone(id)
  WHERE s.property_id = gone.id
    AND NOT EXISTS (SELECT 1 FROM property_translations t WHERE t.property_id = gone.id);
$$;--> statement-breakpoint
CREATE FUNCTION property_translations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM property_search_refresh(ARRAY(SELECT DISTINCT property_id FROM changed));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER property_translations_search_insert AFTER INSERT ON property_translations
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION property_translations_changed();--> statement-breakpoint
CREATE TRIGGER property_translations_search_update AFTER UPDATE ON property_translations
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION property_translations_changed();--> statement-breakpoint
CREATE TRIGGER property_translations_search_delete AFTER DELETE ON property_translations
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION property_translations_changed();--> statement-breakpoint
INSERT INTO property_search (property_id, search_vector, names)
SELECT property_id, search_vector, names FROM property_search_source;--> statement-breakpoint
-- The planner estimates a word's matches from this column's most common lexemes; with the
-- default target a rare word (a place name) is guessed at several times its matches, enough
-- to choose a walk of the catalogue over the few rows the text index holds.
ALTER TABLE "property_search" ALTER COLUMN "search_vector" SET STATISTICS 1000;--> statement-breakpoint
-- The search indexes come after the backfill: one build instead of a million inserts.
CREATE INDEX "property_search_vector_idx" ON "property_search" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "property_search_names_trgm_idx" ON "property_search" USING gin ("names" gin_trgm_ops);--> statement-breakpoint
DROP INDEX "property_translations_search_idx";--> statement-breakpoint
CREATE INDEX "properties_region_id_idx" ON "properties" USING btree ("region","id");--> statement-breakpoint
CREATE INDEX "properties_members_region_id_idx" ON "properties" USING btree ("region","id") WHERE "properties"."members_only";--> statement-breakpoint
CREATE INDEX "properties_guest_capacity_idx" ON "properties" USING btree ("guest_capacity");--> statement-breakpoint
CREATE INDEX "properties_bedrooms_idx" ON "properties" USING btree ("bedrooms");--> statement-breakpoint
CREATE INDEX "properties_amenity_keys_idx" ON "properties" USING gin ("amenity_keys");--> statement-breakpoint
CREATE INDEX "property_translations_stale_search_idx" ON "property_translations" USING btree ("property_id") WHERE "property_translations"."search_document" = '';
