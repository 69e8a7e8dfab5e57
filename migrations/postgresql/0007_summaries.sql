-- benchdb schema on PostgreSQL, version 7 (migrations/0007_summaries.sql on
-- SQLite): per-(run, cell) summaries of the log ratios in run_cell_data,
-- kept by triggers on block_score_data and run with SQLite's rules (the
-- same aggregates of benchstats: the same count, mean, standard deviation
-- and moments() bytes); the calibration design as the views plan_run,
-- calibration_pair and calibration_comparison (SQLite's definitions); run_cell
-- reading run_cell_data; evaluation.schema_sha256.

-- The triggers' aggregates must be benchstats' (stddev is in pg_catalog
-- too, with other bits): the database's search_path puts benchstats first
-- (docs/postgresql.md), and run_cell_refresh(), which computes the rows,
-- keeps the search_path it was created with.
DO $$
BEGIN
  IF to_regprocedure('stddev(double precision)') IS DISTINCT FROM to_regprocedure('benchstats.stddev(double precision)') THEN
    RAISE EXCEPTION 'benchdb needs benchstats before pg_catalog in search_path, which is %', current_setting('search_path')
      USING HINT = 'ALTER DATABASE name SET search_path = public, benchstats, pg_catalog (docs/postgresql.md)';
  END IF;
END $$;

CREATE TABLE run_cell_data (
  run_id       BIGINT NOT NULL,
  benchmark_id BIGINT NOT NULL,
  blocks       BIGINT NOT NULL CHECK (blocks >= 1),
  mean_log     DOUBLE PRECISION NOT NULL,
  sd_log       DOUBLE PRECISION,
  moments      BYTEA NOT NULL,
  PRIMARY KEY (run_id, benchmark_id)
);

INSERT INTO run_cell_data(run_id, benchmark_id, blocks, mean_log, sd_log, moments)
SELECT run_id, benchmark_id, count(*), trimmed_mean(log_ratio, 0), stddev(log_ratio), moments(log_ratio)
FROM block_ratio
GROUP BY run_id, benchmark_id;

-- A (run, cell)'s row recomputed from its block ratios (none: no row).
-- benchdb.ingest_defer: while an ingest's transaction has this setting
-- (set_config(..., true): the transaction's own, set as it begins and
-- cleared before it commits; no other writer sets it), the insert triggers
-- stand aside (their WHEN clauses, without a function call per row):
-- block_score_data and history_point_data for the series of the runs the
-- archive opens (archive_id NULL; those it adds to a stored run keep the
-- triggers), and run_cell_data; the ingest computes the rows of its runs
-- once, before the commit, with the same SELECTs (src/ingest/sink/
-- statements.c). Every other writer keeps the per-row triggers. SQLite has
-- a table, ingest_defer, for the same.

CREATE FUNCTION run_cell_refresh(r BIGINT, b BIGINT) RETURNS void LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
  DELETE FROM run_cell_data WHERE run_id = r AND benchmark_id = b;
  INSERT INTO run_cell_data(run_id, benchmark_id, blocks, mean_log, sd_log, moments)
  SELECT run_id, benchmark_id, count(*), trimmed_mean(log_ratio, 0), stddev(log_ratio), moments(log_ratio)
  FROM block_ratio
  WHERE run_id = r AND benchmark_id = b
  GROUP BY run_id, benchmark_id;
END $$;

-- Insert: the new score's cell, when its block has the other variant's
-- score (only then is there a ratio); delete: the old one's; update: both.
CREATE FUNCTION block_score_run_cell() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF EXISTS (SELECT 1 FROM run AS r JOIN block_score_data AS o
               ON o.run_id = r.id AND o.benchmark_id = NEW.benchmark_id AND o.block = NEW.block
              AND o.variant_id = CASE NEW.variant_id WHEN r.treatment_id THEN r.baseline_id
                                                      WHEN r.baseline_id THEN r.treatment_id END
               WHERE r.id = NEW.run_id) THEN
      PERFORM run_cell_refresh(NEW.run_id, NEW.benchmark_id);
    END IF;
    RETURN NULL;
  END IF;
  PERFORM run_cell_refresh(OLD.run_id, OLD.benchmark_id);
  IF TG_OP = 'UPDATE' AND (NEW.run_id, NEW.benchmark_id) IS DISTINCT FROM (OLD.run_id, OLD.benchmark_id) THEN
    PERFORM run_cell_refresh(NEW.run_id, NEW.benchmark_id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER block_score_insert_run_cell AFTER INSERT ON block_score_data
  FOR EACH ROW WHEN (coalesce(current_setting('benchdb.ingest_defer', true), '') = '')
  EXECUTE FUNCTION block_score_run_cell();
CREATE TRIGGER block_score_delete_run_cell AFTER DELETE ON block_score_data
  FOR EACH ROW EXECUTE FUNCTION block_score_run_cell();
CREATE TRIGGER block_score_update_run_cell AFTER UPDATE ON block_score_data
  FOR EACH ROW EXECUTE FUNCTION block_score_run_cell();

-- A run's treatment or baseline changed: all its cells.
CREATE FUNCTION run_update_run_cell() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM run_cell_data WHERE run_id = OLD.id OR run_id = NEW.id;
  PERFORM run_cell_refresh(NEW.id, benchmark_id) FROM block_score_data WHERE run_id = NEW.id GROUP BY benchmark_id;
  RETURN NULL;
END $$;
CREATE TRIGGER run_update_run_cell AFTER UPDATE OF treatment_id, baseline_id ON run
  FOR EACH ROW EXECUTE FUNCTION run_update_run_cell();

-- The series triggers of 0004 and 0006 stand aside for an ingest's own
-- runs (benchdb.ingest_defer above).
DROP TRIGGER series_insert_block_score ON series;
CREATE TRIGGER series_insert_block_score AFTER INSERT ON series
  FOR EACH ROW WHEN (NEW.archive_id IS NOT NULL OR coalesce(current_setting('benchdb.ingest_defer', true), '') = '')
  EXECUTE FUNCTION series_block_score();
DROP TRIGGER series_insert_history ON series;
CREATE TRIGGER series_insert_history AFTER INSERT ON series
  FOR EACH ROW WHEN (NEW.archive_id IS NOT NULL OR coalesce(current_setting('benchdb.ingest_defer', true), '') = '')
  EXECUTE FUNCTION series_history();

DROP VIEW run_cell;
CREATE VIEW run_cell AS
SELECT run_id, benchmark_id, blocks, mean_log, sd_log, exp(mean_log) AS geomean_ratio
FROM run_cell_data;

CREATE VIEW plan_run AS
SELECT p.id AS plan_id, p.name AS plan, r.id AS run_id, r.name AS run, r.host_id, h.name AS host, r.position,
       r.attributes
FROM plan AS p
JOIN run AS r ON r.plan_id = p.id
JOIN host AS h ON h.id = r.host_id;

CREATE VIEW calibration_pair AS
SELECT CASE WHEN a.host_id = b.host_id THEN 'within' ELSE 'between' END AS kind,
       a.plan_id, a.plan, a.run_id AS a_id, b.run_id AS b_id, a.run AS run_a, b.run AS run_b,
       a.attributes AS a_attributes, b.attributes AS b_attributes
FROM plan_run AS a
JOIN plan_run AS b ON b.plan_id = a.plan_id
WHERE (b.host_id = a.host_id AND a.position < b.position)
   OR (b.position = a.position AND a.host < b.host);

CREATE VIEW calibration_comparison AS
SELECT p.kind, p.plan_id, p.plan, p.a_id, p.b_id, p.run_a, p.run_b, p.a_attributes, p.b_attributes,
       a.benchmark_id,
       a.blocks AS a_blocks, a.mean_log AS a_mean_log, a.sd_log AS a_sd_log, a.moments AS a_moments,
       b.blocks AS b_blocks, b.mean_log AS b_mean_log, b.sd_log AS b_sd_log, b.moments AS b_moments
FROM calibration_pair AS p
JOIN run_cell_data AS a ON a.run_id = p.a_id
JOIN run_cell_data AS b ON b.run_id = p.b_id AND b.benchmark_id = a.benchmark_id;

ALTER TABLE evaluation ADD COLUMN schema_sha256 TEXT CHECK (schema_sha256 IS NULL OR length(schema_sha256) = 64);
