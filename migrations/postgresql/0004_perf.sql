-- benchdb schema on PostgreSQL, version 4 (migrations/0004_perf.sql on
-- SQLite): block scores (of the primary metric) stored as derived data in
-- block_score_data, kept by triggers on series with SQLite's rules (each
-- recomputes the blocks of the changed series from all their series, the
-- totals summed in fork order as SQLite's unique index gives them, so the
-- score is the same double); block_score reads it by key.

CREATE TABLE block_score_data (
  run_id       BIGINT NOT NULL,
  benchmark_id BIGINT NOT NULL,
  block        BIGINT NOT NULL,
  variant_id   BIGINT NOT NULL,
  score        DOUBLE PRECISION NOT NULL,
  n            BIGINT NOT NULL,
  unit         TEXT NOT NULL,
  PRIMARY KEY (run_id, benchmark_id, block, variant_id)
);

INSERT INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit)
SELECT run_id, benchmark_id, block, variant_id, sum(total ORDER BY fork) / sum(n), sum(n), min(unit)
FROM series
WHERE metric = 'primary'
GROUP BY run_id, benchmark_id, block, variant_id;

CREATE FUNCTION block_score_refresh(r BIGINT, b BIGINT, k BIGINT, v BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM block_score_data WHERE run_id = r AND benchmark_id = b AND block = k AND variant_id = v;
  INSERT INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit)
  SELECT run_id, benchmark_id, block, variant_id, sum(total ORDER BY fork) / sum(n), sum(n), min(unit)
  FROM series
  WHERE run_id = r AND benchmark_id = b AND block = k AND variant_id = v AND metric = 'primary'
  GROUP BY run_id, benchmark_id, block, variant_id;
END $$;

-- Insert: the new series' block; delete: the old one's; update: both.
CREATE FUNCTION series_block_score() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM block_score_refresh(OLD.run_id, OLD.benchmark_id, OLD.block, OLD.variant_id);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM block_score_refresh(NEW.run_id, NEW.benchmark_id, NEW.block, NEW.variant_id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER series_insert_block_score AFTER INSERT ON series
  FOR EACH ROW EXECUTE FUNCTION series_block_score();
CREATE TRIGGER series_delete_block_score AFTER DELETE ON series
  FOR EACH ROW EXECUTE FUNCTION series_block_score();
CREATE TRIGGER series_update_block_score AFTER UPDATE ON series
  FOR EACH ROW EXECUTE FUNCTION series_block_score();

-- Same columns, same rows as before.
CREATE OR REPLACE VIEW block_score AS
SELECT run_id, benchmark_id, block, variant_id, score, n, unit
FROM block_score_data;
