-- Every change to an estate's searchable words is announced on the catalogue channel by the
-- database itself, as migration 0021 does for its facts: each instance's facts index also keeps
-- the common words in memory (decision 0040), and re-reads the estates named. property_search is
-- written by the translations' triggers, so a writer that changes a name or a summary by plain
-- SQL is heard too. At most 500 estates are named; more is a change to everything.
CREATE FUNCTION property_search_words_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(c.property_id) INTO ids FROM (SELECT property_id FROM changed LIMIT 501) c;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(c.property_id) INTO ids FROM (SELECT property_id FROM gone LIMIT 501) c;
  ELSE
    SELECT array_agg(c.property_id) INTO ids FROM (
      SELECT a.property_id FROM changed a JOIN gone b ON a.property_id = b.property_id
      WHERE a.search_vector IS DISTINCT FROM b.search_vector
      LIMIT 501) c;
  END IF;
  IF ids IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('castellum_catalogue',
    CASE WHEN cardinality(ids) > 500 THEN '{}' ELSE json_build_object('propertyIds', ids)::text END);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER property_search_words_notify_insert AFTER INSERT ON property_search
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION property_search_words_notify();--> statement-breakpoint
CREATE TRIGGER property_search_words_notify_update AFTER UPDATE ON property_search
  REFERENCING OLD TABLE AS gone NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION property_search_words_notify();--> statement-breakpoint
CREATE TRIGGER property_search_words_notify_delete AFTER DELETE ON property_search
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION property_search_words_notify();
