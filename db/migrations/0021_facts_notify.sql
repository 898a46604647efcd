-- Every change to an estate's facts is announced on the catalogue channel by the database
-- itself (decision 0028), whoever writes the row: each instance's facts index re-reads the
-- estates named, so no writer can leave a search answering from stale facts. A statement
-- names at most 500 estates (NOTIFY payloads are limited to 8000 bytes); more is announced as
-- a change to everything. The channel is CATALOGUE_CHANNEL of domain/catalogue/catalogue-changes.ts.
CREATE FUNCTION properties_facts_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(c.id) INTO ids FROM (SELECT id FROM changed LIMIT 501) c;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(c.id) INTO ids FROM (SELECT id FROM gone LIMIT 501) c;
  ELSE
    SELECT array_agg(c.id) INTO ids FROM (
      SELECT a.id FROM changed a JOIN gone b ON a.id = b.id
      WHERE a.facts IS DISTINCT FROM b.facts
        OR a.guest_capacity <> b.guest_capacity OR a.bedrooms <> b.bedrooms
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
CREATE TRIGGER properties_facts_notify_insert AFTER INSERT ON properties
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION properties_facts_notify();--> statement-breakpoint
CREATE TRIGGER properties_facts_notify_update AFTER UPDATE ON properties
  REFERENCING OLD TABLE AS gone NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION properties_facts_notify();--> statement-breakpoint
CREATE TRIGGER properties_facts_notify_delete AFTER DELETE ON properties
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION properties_facts_notify();
