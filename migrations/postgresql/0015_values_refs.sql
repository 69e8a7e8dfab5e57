-- benchdb schema, version 15: sample_values' reference to series, a
-- foreign key up to version 14, is checked by the triggers below, once per
-- statement (an ingest's COPY of a run's values: one query, no lock and
-- WAL record per series it inserted itself), with the foreign key's errors,
-- locks, cascade and refusals; and the ingest's functions that read by key
-- with generic plans (benchdb_ingest_finish(), series_refs_statement() and
-- the new check) plan with seqscan off, so that their plans, made at a
-- fresh store's first archive, keep reading by index as the store grows
-- (docs/postgresql.md, "ingest"; bench/pg-ingest.md, "twelfth pass").

ALTER TABLE sample_values DROP CONSTRAINT sample_values_series_id_fkey;

-- sample_values' reference to series (a foreign key up to version 14) is
-- checked by the triggers below instead: the foreign key's check, a query
-- and a row lock with its WAL record per row, was a tenth of a 1x ingest's
-- server CPU (bench/pg-ingest.md, "twelfth pass"). What it did, these do:
-- a row whose series does not exist is refused with the foreign key's
-- error; the series referred to are locked FOR KEY SHARE as its check
-- locks them, but for those this transaction inserted, which no other
-- transaction sees, so none can delete or change them (an ingest's own:
-- the lock and its WAL record per series are what the check saves);
-- deleting a series deletes its values (ON DELETE CASCADE); changing the
-- id of a series that has values, or truncating series while
-- sample_values has rows, is refused. An insert's rows are checked once
-- per statement, their series read by key in one query.
CREATE FUNCTION sample_values_refs_missing(val TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'insert or update on table "sample_values" violates foreign key constraint "sample_values_series_id_fkey"'
    USING ERRCODE = 'foreign_key_violation', TABLE = 'sample_values', CONSTRAINT = 'sample_values_series_id_fkey',
          DETAIL = format('Key (series_id)=(%s) is not present in table "series".', val);
END $$;

CREATE FUNCTION sample_values_refs_statement() RETURNS trigger LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  others BIGINT;
  ids BIGINT[];
  found BIGINT[];
  mine xid := CAST(pg_current_xact_id() AS xid);
BEGIN
  -- An ingest's values: every series found by key, and this transaction's
  -- (one row of new_values a series: its primary key).
  SELECT (SELECT count(*) FROM new_values)
         - (SELECT count(*) FROM series AS s WHERE s.id = ANY (ARRAY(SELECT series_id FROM new_values)) AND s.xmin = mine)
  INTO others;
  IF others = 0 THEN
    RETURN NULL;
  END IF;
  SELECT array_agg(DISTINCT series_id) INTO ids FROM new_values;
  SELECT array_agg(id) INTO found FROM (
    SELECT s.id FROM series AS s WHERE s.id = ANY (ids) AND s.xmin = mine
    UNION ALL
    SELECT l.id FROM (SELECT id FROM series WHERE id = ANY (ids) AND xmin <> mine FOR KEY SHARE) AS l) AS f;
  IF coalesce(cardinality(found), 0) < cardinality(ids) THEN
    PERFORM sample_values_refs_missing((SELECT CAST(min(x) AS TEXT) FROM unnest(ids) AS x
                                        WHERE x <> ALL (coalesce(found, '{}'))));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER sample_values_insert_refs AFTER INSERT ON sample_values REFERENCING NEW TABLE AS new_values
  FOR EACH STATEMENT EXECUTE FUNCTION sample_values_refs_statement();

CREATE FUNCTION sample_values_refs_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM series WHERE id = NEW.series_id FOR KEY SHARE;
  IF NOT FOUND THEN
    PERFORM sample_values_refs_missing(CAST(NEW.series_id AS TEXT));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER sample_values_check_refs_update AFTER UPDATE OF series_id ON sample_values
  FOR EACH ROW WHEN (OLD.series_id <> NEW.series_id) EXECUTE FUNCTION sample_values_refs_row();

-- ON DELETE CASCADE, by key: the deleted series' ids as an array.
CREATE FUNCTION series_delete_values() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sample_values WHERE series_id = ANY (ARRAY(SELECT id FROM old_series));
  RETURN NULL;
END $$;
CREATE TRIGGER series_delete_values AFTER DELETE ON series REFERENCING OLD TABLE AS old_series
  FOR EACH STATEMENT EXECUTE FUNCTION series_delete_values();

-- The refusals: a series' id changed while values refer to it (after the
-- update, when a transaction that inserted such values meanwhile has
-- committed: it held the series' key lock), series truncated while
-- sample_values has rows.
CREATE FUNCTION series_values_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM sample_values WHERE series_id = OLD.id) THEN
    RAISE EXCEPTION 'update or delete on table "series" violates foreign key constraint "sample_values_series_id_fkey" on table "sample_values"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'series', CONSTRAINT = 'sample_values_series_id_fkey',
            DETAIL = format('Key (id)=(%s) is still referenced from table "sample_values".', OLD.id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER series_update_values_refs AFTER UPDATE OF id ON series
  FOR EACH ROW WHEN (OLD.id <> NEW.id) EXECUTE FUNCTION series_values_refuse_update();
CREATE FUNCTION series_values_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM sample_values) THEN
    RAISE EXCEPTION 'cannot truncate a table referenced in a foreign key constraint'
      USING ERRCODE = 'feature_not_supported', DETAIL = 'Table "sample_values" references "series".';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER series_truncate_values_refs BEFORE TRUNCATE ON series
  FOR EACH STATEMENT EXECUTE FUNCTION series_values_refuse_truncate();

ALTER FUNCTION benchdb_ingest_finish(BIGINT) SET enable_seqscan = off;
ALTER FUNCTION series_refs_statement() SET enable_seqscan = off;
