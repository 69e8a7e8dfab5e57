-- benchdb schema, version 9: series' references to run, benchmark, variant
-- and unit are checked once per statement by the triggers below instead
-- of by foreign keys, whose per-row checks were most of the time of an
-- ingest's COPY of its series (docs/postgresql.md, "ingest"). The same
-- rows are refused and the same deletes cascade or are refused, with the
-- foreign key's error; schema/benchdb.schema says how. The stored rows
-- satisfied the foreign keys, so nothing is checked again here.

ALTER TABLE series DROP CONSTRAINT series_run_id_fkey, DROP CONSTRAINT series_benchmark_id_fkey,
  DROP CONSTRAINT series_variant_id_fkey, DROP CONSTRAINT series_unit_fkey;

CREATE FUNCTION series_refs_missing(col TEXT, val TEXT, tab TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'insert or update on table "series" violates foreign key constraint "series_%_fkey"', col
    USING ERRCODE = 'foreign_key_violation', TABLE = 'series', CONSTRAINT = 'series_' || col || '_fkey',
          DETAIL = format('Key (%s)=(%s) is not present in table "%s".', col, val, tab);
END $$;

CREATE FUNCTION series_refs_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM run WHERE id = NEW.run_id FOR KEY SHARE;
  IF NOT FOUND THEN
    PERFORM series_refs_missing('run_id', CAST(NEW.run_id AS TEXT), 'run');
  END IF;
  PERFORM 1 FROM benchmark WHERE id = NEW.benchmark_id FOR KEY SHARE;
  IF NOT FOUND THEN
    PERFORM series_refs_missing('benchmark_id', CAST(NEW.benchmark_id AS TEXT), 'benchmark');
  END IF;
  PERFORM 1 FROM variant WHERE id = NEW.variant_id FOR KEY SHARE;
  IF NOT FOUND THEN
    PERFORM series_refs_missing('variant_id', CAST(NEW.variant_id AS TEXT), 'variant');
  END IF;
  PERFORM 1 FROM "unit" WHERE name = NEW.unit FOR KEY SHARE;
  IF NOT FOUND THEN
    PERFORM series_refs_missing('unit', NEW.unit, 'unit');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER series_check_refs_insert AFTER INSERT ON series
  FOR EACH ROW WHEN (NEW.archive_id IS NOT NULL OR coalesce(current_setting('benchdb.ingest_defer', true), '') = '')
  EXECUTE FUNCTION series_refs_row();
CREATE TRIGGER series_check_refs_update AFTER UPDATE OF run_id, benchmark_id, variant_id, unit ON series
  FOR EACH ROW WHEN (OLD.run_id <> NEW.run_id OR OLD.benchmark_id <> NEW.benchmark_id
                     OR OLD.variant_id <> NEW.variant_id OR OLD.unit <> NEW.unit)
  EXECUTE FUNCTION series_refs_row();

-- The rows series_check_refs_insert stood aside for, all at once: their
-- distinct keys in one pass over the statement's rows, then each table's
-- rows locked by key; a key with no row locked is missing.
CREATE FUNCTION series_refs_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  runs BIGINT[];
  benchmarks BIGINT[];
  variants BIGINT[];
  units TEXT[];
  locked_ids BIGINT[];
  locked_names TEXT[];
BEGIN
  IF coalesce(current_setting('benchdb.ingest_defer', true), '') = '' THEN
    RETURN NULL;
  END IF;
  SELECT array_agg(DISTINCT run_id), array_agg(DISTINCT benchmark_id), array_agg(DISTINCT variant_id),
         array_agg(DISTINCT unit)
  INTO runs, benchmarks, variants, units FROM new_series WHERE archive_id IS NULL;
  IF runs IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT array_agg(id) INTO locked_ids FROM (SELECT id FROM run WHERE id = ANY (runs) FOR KEY SHARE) AS l;
  IF coalesce(cardinality(locked_ids), 0) < cardinality(runs) THEN
    PERFORM series_refs_missing('run_id', (SELECT CAST(min(x) AS TEXT) FROM unnest(runs) AS x
                                           WHERE x <> ALL (coalesce(locked_ids, '{}'))), 'run');
  END IF;
  SELECT array_agg(id) INTO locked_ids FROM (SELECT id FROM benchmark WHERE id = ANY (benchmarks) FOR KEY SHARE) AS l;
  IF coalesce(cardinality(locked_ids), 0) < cardinality(benchmarks) THEN
    PERFORM series_refs_missing('benchmark_id', (SELECT CAST(min(x) AS TEXT) FROM unnest(benchmarks) AS x
                                                 WHERE x <> ALL (coalesce(locked_ids, '{}'))), 'benchmark');
  END IF;
  SELECT array_agg(id) INTO locked_ids FROM (SELECT id FROM variant WHERE id = ANY (variants) FOR KEY SHARE) AS l;
  IF coalesce(cardinality(locked_ids), 0) < cardinality(variants) THEN
    PERFORM series_refs_missing('variant_id', (SELECT CAST(min(x) AS TEXT) FROM unnest(variants) AS x
                                               WHERE x <> ALL (coalesce(locked_ids, '{}'))), 'variant');
  END IF;
  SELECT array_agg(name) INTO locked_names FROM (SELECT name FROM "unit" WHERE name = ANY (units) FOR KEY SHARE) AS l;
  IF coalesce(cardinality(locked_names), 0) < cardinality(units) THEN
    PERFORM series_refs_missing('unit', (SELECT min(x) FROM unnest(units) AS x
                                         WHERE x <> ALL (coalesce(locked_names, '{}'))), 'unit');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER series_insert_refs AFTER INSERT ON series REFERENCING NEW TABLE AS new_series
  FOR EACH STATEMENT EXECUTE FUNCTION series_refs_statement();

-- ON DELETE CASCADE of series.run_id.
CREATE FUNCTION run_delete_series() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM series WHERE run_id IN (SELECT id FROM old_run);
  RETURN NULL;
END $$;
CREATE TRIGGER run_delete_series AFTER DELETE ON run REFERENCING OLD TABLE AS old_run
  FOR EACH STATEMENT EXECUTE FUNCTION run_delete_series();

-- The refusals (TG_ARGV[0]: series' column, TG_ARGV[1]: the key it
-- refers to): a delete of rows still referred to, once per statement.
CREATE FUNCTION series_refs_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  val TEXT;
BEGIN
  EXECUTE format('SELECT CAST(o.%I AS TEXT) FROM old_keys AS o WHERE EXISTS '
                 '(SELECT 1 FROM series WHERE %I = o.%I) LIMIT 1', TG_ARGV[1], TG_ARGV[0], TG_ARGV[1]) INTO val;
  IF val IS NOT NULL THEN
    RAISE EXCEPTION 'update or delete on table "%" violates foreign key constraint "series_%_fkey" on table "series"',
      TG_TABLE_NAME, TG_ARGV[0]
      USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME, CONSTRAINT = 'series_' || TG_ARGV[0] || '_fkey',
            DETAIL = format('Key (%s)=(%s) is still referenced from table "series".', TG_ARGV[1], val);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER benchmark_delete_series_refs AFTER DELETE ON benchmark REFERENCING OLD TABLE AS old_keys
  FOR EACH STATEMENT EXECUTE FUNCTION series_refs_refuse_delete('benchmark_id', 'id');
CREATE TRIGGER variant_delete_series_refs AFTER DELETE ON variant REFERENCING OLD TABLE AS old_keys
  FOR EACH STATEMENT EXECUTE FUNCTION series_refs_refuse_delete('variant_id', 'id');
CREATE TRIGGER unit_delete_series_refs AFTER DELETE ON "unit" REFERENCING OLD TABLE AS old_keys
  FOR EACH STATEMENT EXECUTE FUNCTION series_refs_refuse_delete('unit', 'name');

-- A key changed under rows referring to it (the row locked by the update
-- first, so an ingest that locked it FOR KEY SHARE has ended).
CREATE FUNCTION series_refs_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  val TEXT;
BEGIN
  EXECUTE format('SELECT CAST($1.%I AS TEXT) FROM series WHERE %I = $1.%I LIMIT 1', TG_ARGV[1], TG_ARGV[0], TG_ARGV[1])
    INTO val USING OLD;
  IF val IS NOT NULL THEN
    RAISE EXCEPTION 'update or delete on table "%" violates foreign key constraint "series_%_fkey" on table "series"',
      TG_TABLE_NAME, TG_ARGV[0]
      USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME, CONSTRAINT = 'series_' || TG_ARGV[0] || '_fkey',
            DETAIL = format('Key (%s)=(%s) is still referenced from table "series".', TG_ARGV[1], val);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER run_update_series_refs BEFORE UPDATE OF id ON run
  FOR EACH ROW WHEN (OLD.id <> NEW.id) EXECUTE FUNCTION series_refs_refuse_update('run_id', 'id');
CREATE TRIGGER benchmark_update_series_refs BEFORE UPDATE OF id ON benchmark
  FOR EACH ROW WHEN (OLD.id <> NEW.id) EXECUTE FUNCTION series_refs_refuse_update('benchmark_id', 'id');
CREATE TRIGGER variant_update_series_refs BEFORE UPDATE OF id ON variant
  FOR EACH ROW WHEN (OLD.id <> NEW.id) EXECUTE FUNCTION series_refs_refuse_update('variant_id', 'id');
CREATE TRIGGER unit_update_series_refs BEFORE UPDATE OF name ON "unit"
  FOR EACH ROW WHEN (OLD.name <> NEW.name) EXECUTE FUNCTION series_refs_refuse_update('unit', 'name');

-- TRUNCATE, which a foreign key refuses unless series goes too: refused
-- while series has rows.
CREATE FUNCTION series_refs_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM series) THEN
    RAISE EXCEPTION 'cannot truncate a table referenced in a foreign key constraint'
      USING ERRCODE = 'feature_not_supported',
            DETAIL = format('Table "series" references "%s".', TG_TABLE_NAME);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER run_truncate_series_refs BEFORE TRUNCATE ON run
  FOR EACH STATEMENT EXECUTE FUNCTION series_refs_refuse_truncate();
CREATE TRIGGER benchmark_truncate_series_refs BEFORE TRUNCATE ON benchmark
  FOR EACH STATEMENT EXECUTE FUNCTION series_refs_refuse_truncate();
CREATE TRIGGER variant_truncate_series_refs BEFORE TRUNCATE ON variant
  FOR EACH STATEMENT EXECUTE FUNCTION series_refs_refuse_truncate();
CREATE TRIGGER unit_truncate_series_refs BEFORE TRUNCATE ON "unit"
  FOR EACH STATEMENT EXECUTE FUNCTION series_refs_refuse_truncate();

-- What an ingest computes before its commit for the series the triggers
-- stood aside for (benchdb.ingest_defer; src/store/dialect.c calls it with
-- the archive's id), in one call instead of a round trip per statement:
-- the block scores of the runs the archive opened (their totals summed in
-- fork order), their history points (a point's in the order its series
-- were stored: their ids; each run's start time parsed once), then
-- run_cell_data of the runs it opened or added series to, from the scores;
-- then the mark is cleared. The block scores' insert is planned afresh
-- each time (EXECUTE): a generic plan of it was once seen seven times
-- slower than a fresh one. The others keep the plan PL/pgSQL caches for
-- the session, generic after five calls when no worse: planning
-- run_cell_data's insert (block_ratio's joins) took ten times longer than
-- running it on a small archive.
CREATE FUNCTION benchdb_ingest_finish(archive BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'INSERT INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit) '
    'SELECT s.run_id, s.benchmark_id, s.block, s.variant_id, sum(s.total ORDER BY s.fork) / sum(s.n), '
    'sum(s.n), min(s.unit) FROM series AS s JOIN run AS r ON r.id = s.run_id '
    'WHERE r.archive_id = $1 AND s.archive_id IS NULL AND s.metric = ''primary'' '
    'GROUP BY s.run_id, s.benchmark_id, s.block, s.variant_id' USING archive;
  WITH r AS MATERIALIZED (SELECT id, host_id, position, history_started(started_at) AS started
                          FROM run WHERE archive_id = benchdb_ingest_finish.archive)
  INSERT INTO history_point_data(run_id, benchmark_id, variant_id, metric, host_id, started, position, series, n,
                                 total, unit)
  SELECT s.run_id, s.benchmark_id, s.variant_id, s.metric, min(r.host_id), min(r.started), min(r.position), count(*),
         sum(s.n), sum(s.total ORDER BY s.id), (array_agg(s.unit ORDER BY s.id))[1]
  FROM series AS s JOIN r ON r.id = s.run_id
  WHERE s.archive_id IS NULL GROUP BY s.run_id, s.benchmark_id, s.variant_id, s.metric;
  DELETE FROM run_cell_data WHERE run_id IN (SELECT id FROM run WHERE archive_id = benchdb_ingest_finish.archive
                                             UNION SELECT run_id FROM series
                                             WHERE archive_id = benchdb_ingest_finish.archive);
  INSERT INTO run_cell_data(run_id, benchmark_id, blocks, mean_log, sd_log, moments)
  SELECT run_id, benchmark_id, count(*), trimmed_mean(log_ratio, 0), stddev(log_ratio), moments(log_ratio)
  FROM block_ratio
  WHERE run_id IN (SELECT id FROM run WHERE archive_id = benchdb_ingest_finish.archive
                   UNION SELECT run_id FROM series WHERE archive_id = benchdb_ingest_finish.archive)
  GROUP BY run_id, benchmark_id;
  PERFORM set_config('benchdb.ingest_defer', '', true);
END $$;
