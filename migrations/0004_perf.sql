-- benchdb schema, version 4: block scores (of the primary metric) stored as
-- derived data.
--
-- The view block_score used to aggregate series at query time; a query on
-- one plan (placement-rule) then aggregated every series of the store, so
-- its time grew with the store. block_score_data holds the same rows,
-- computed by the same expression over the same series in the same order,
-- kept up to date by triggers on series (insert, update, delete, and so on
-- a run's cascade), and block_score now reads it through its primary key.
-- The raw values stay in sample, series.n/total stay derived from them;
-- 'benchdb check' compares block_score_data with a fresh aggregate, and
-- docs/schema.md shows how to rebuild it.

CREATE TABLE block_score_data (
  run_id       INTEGER NOT NULL,
  benchmark_id INTEGER NOT NULL,
  block        INTEGER NOT NULL,
  variant_id   INTEGER NOT NULL,
  score        REAL NOT NULL,
  n            INTEGER NOT NULL,
  unit         TEXT NOT NULL,
  PRIMARY KEY (run_id, benchmark_id, block, variant_id)
) WITHOUT ROWID;

INSERT INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit)
SELECT run_id, benchmark_id, block, variant_id, sum(total) / sum(n), sum(n), min(unit)
FROM series
WHERE metric = 'primary'
GROUP BY run_id, benchmark_id, block, variant_id;

-- Each trigger recomputes the block of the changed series from all its
-- series (the unique index on series gives them in fork order, as the
-- aggregate above reads them).
CREATE TRIGGER series_insert_block_score AFTER INSERT ON series BEGIN
  INSERT OR REPLACE INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit)
  SELECT run_id, benchmark_id, block, variant_id, sum(total) / sum(n), sum(n), min(unit)
  FROM series
  WHERE run_id = new.run_id AND benchmark_id = new.benchmark_id AND block = new.block
    AND variant_id = new.variant_id AND metric = 'primary'
  GROUP BY run_id, benchmark_id, block, variant_id;
END;

CREATE TRIGGER series_delete_block_score AFTER DELETE ON series BEGIN
  DELETE FROM block_score_data
  WHERE run_id = old.run_id AND benchmark_id = old.benchmark_id AND block = old.block
    AND variant_id = old.variant_id;
  INSERT INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit)
  SELECT run_id, benchmark_id, block, variant_id, sum(total) / sum(n), sum(n), min(unit)
  FROM series
  WHERE run_id = old.run_id AND benchmark_id = old.benchmark_id AND block = old.block
    AND variant_id = old.variant_id AND metric = 'primary'
  GROUP BY run_id, benchmark_id, block, variant_id;
END;

CREATE TRIGGER series_update_block_score AFTER UPDATE ON series BEGIN
  DELETE FROM block_score_data
  WHERE (run_id = old.run_id AND benchmark_id = old.benchmark_id AND block = old.block
         AND variant_id = old.variant_id)
     OR (run_id = new.run_id AND benchmark_id = new.benchmark_id AND block = new.block
         AND variant_id = new.variant_id);
  INSERT INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit)
  SELECT run_id, benchmark_id, block, variant_id, sum(total) / sum(n), sum(n), min(unit)
  FROM series
  WHERE ((run_id = old.run_id AND benchmark_id = old.benchmark_id AND block = old.block
          AND variant_id = old.variant_id)
      OR (run_id = new.run_id AND benchmark_id = new.benchmark_id AND block = new.block
          AND variant_id = new.variant_id))
    AND metric = 'primary'
  GROUP BY run_id, benchmark_id, block, variant_id;
END;

-- Same columns, same rows as before.
DROP VIEW block_score;
CREATE VIEW block_score AS
SELECT run_id, benchmark_id, block, variant_id, score, n, unit
FROM block_score_data;
