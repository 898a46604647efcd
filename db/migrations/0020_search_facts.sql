-- The catalogue's filters as lexemes (decision 0027): beside the words in
-- property_search, so a search with text and filters is one scan of one GIN index, and on
-- properties, whose rows are a tenth as wide, for a search with filters only.
--
-- An estate's facts: r.<region>, a.<amenity>, m (members only), and the step of each ladder
-- below that its guest capacity and bedrooms reach (g40: 40 to 49 guests; b20: 20 to 24
-- bedrooms). "At least 40 guests" asks for g40 or any step above it; a wish between two steps
-- asks from the step below and checks the exact figure on the row. The ladders are also in
-- domain/catalogue/search-facts.ts, and a test holds the two the same.
CREATE FUNCTION search_fact_steps(kind text) RETURNS integer[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE kind
    WHEN 'guests' THEN '{2,4,6,8,10,12,16,20,24,30,40,50,60,80,100,150,200}'::integer[]
    WHEN 'bedrooms' THEN '{2,3,4,5,6,8,10,12,15,20,25,30,40,50,60,80}'::integer[]
  END
$$;--> statement-breakpoint
CREATE FUNCTION search_facts(region text, guest_capacity integer, bedrooms integer, amenity_keys text[], members_only boolean)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_to_tsvector(
    ARRAY['r.' || region]
    || ARRAY(SELECT DISTINCT 'a.' || key FROM unnest(amenity_keys) AS key)
    || CASE WHEN members_only THEN ARRAY['m'] ELSE ARRAY[]::text[] END
    || ARRAY(SELECT 'g' || max(step) FROM unnest(search_fact_steps('guests')) AS step WHERE step <= guest_capacity HAVING max(step) IS NOT NULL)
    || ARRAY(SELECT 'b' || max(step) FROM unnest(search_fact_steps('bedrooms')) AS step WHERE step <= bedrooms HAVING max(step) IS NOT NULL))
$$;--> statement-breakpoint
-- On properties, computed by the database whoever writes the row.
ALTER TABLE "properties" ADD COLUMN "facts" tsvector GENERATED ALWAYS AS (search_facts(region, guest_capacity, bedrooms, amenity_keys, members_only)) STORED NOT NULL;--> statement-breakpoint
DROP INDEX "property_search_vector_idx";--> statement-breakpoint
DROP INDEX "property_search_names_trgm_idx";--> statement-breakpoint
-- Rebuilt below from the source: a fresh table, not a million updated rows and their dead copies.
TRUNCATE "property_search";--> statement-breakpoint
ALTER TABLE "property_search"
  ADD COLUMN "facts" tsvector NOT NULL,
  ADD COLUMN "guest_capacity" integer NOT NULL,
  ADD COLUMN "bedrooms" integer NOT NULL;--> statement-breakpoint
DROP VIEW property_search_source;--> statement-breakpoint
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
  string_agg(t.name, ' · ' ORDER BY t.lang) AS names,
  p.facts,
  p.guest_capacity,
  p.bedrooms
FROM property_translations t
JOIN properties p ON p.id = t.property_id
GROUP BY t.property_id, p.id;--> statement-breakpoint
CREATE OR REPLACE FUNCTION property_search_refresh(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO property_search (property_id, search_vector, names, facts, guest_capacity, bedrooms)
  SELECT property_id, search_vector, names, facts, guest_capacity, bedrooms
  FROM property_search_source WHERE property_id = ANY (ids)
  ON CONFLICT (property_id) DO UPDATE
    SET search_vector = excluded.search_vector, names = excluded.names, facts = excluded.facts,
      guest_capacity = excluded.guest_capacity, bedrooms = excluded.bedrooms;
  -- A join, not "= ANY (ids)" in a filter: that compares each row with every id.
  DELETE FROM property_search s USING unnest(ids) AS gone(id)
  WHERE s.property_id = gone.id
    AND NOT EXISTS (SELECT 1 FROM property_translations t WHERE t.property_id = gone.id);
$$;--> statement-breakpoint
-- An estate's facts change with its row in properties (staff or an import edit it); its text
-- with its translations (the triggers of migration 0007).
CREATE FUNCTION properties_facts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE property_search s
  SET facts = c.facts, guest_capacity = c.guest_capacity, bedrooms = c.bedrooms
  FROM changed c
  WHERE s.property_id = c.id AND s.facts IS DISTINCT FROM c.facts;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER properties_search_facts_update AFTER UPDATE ON properties
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION properties_facts_changed();--> statement-breakpoint
INSERT INTO property_search (property_id, search_vector, names, facts, guest_capacity, bedrooms)
SELECT property_id, search_vector, names, facts, guest_capacity, bedrooms FROM property_search_source;--> statement-breakpoint
-- One index for text and filters: a search for "castle" in Austria for 40 guests is one scan
-- that steps through the rarest lexeme's entries and skips ahead in the others (GIN's fast
-- scan), not the intersection of two bitmaps of a quarter of the catalogue each.
CREATE INDEX "property_search_text_facts_idx" ON "property_search" USING gin ("search_vector", "facts");--> statement-breakpoint
CREATE INDEX "property_search_names_trgm_idx" ON "property_search" USING gin ("names" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "properties_facts_idx" ON "properties" USING gin ("facts");--> statement-breakpoint
-- The filters' own indexes on properties (migration 0007) served the search only.
DROP INDEX "properties_region_id_idx";--> statement-breakpoint
DROP INDEX "properties_members_region_id_idx";--> statement-breakpoint
DROP INDEX "properties_guest_capacity_idx";--> statement-breakpoint
DROP INDEX "properties_bedrooms_idx";--> statement-breakpoint
DROP INDEX "properties_amenity_keys_idx";--> statement-breakpoint
ANALYZE "properties";--> statement-breakpoint
ANALYZE "property_search";
