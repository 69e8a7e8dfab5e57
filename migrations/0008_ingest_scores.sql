-- benchdb schema, version 8: an ingest computes its runs' block scores once.
--
-- The insert trigger of block_score_data stands aside for the series of
-- the runs an ingest opens while its transaction is marked (a row of
-- ingest_defer, as run_cell_data's insert trigger already did), and the
-- ingest computes those runs' block scores once before the commit, with
-- the trigger's SELECT (src/store/dialect.c): the per-series trigger
-- recomputed a block from all its series for every series stored. Every
-- other writer keeps the trigger; the stored rows are unchanged.

DROP TRIGGER series_insert_block_score;
CREATE TRIGGER series_insert_block_score AFTER INSERT ON series
WHEN new.archive_id IS NOT NULL OR NOT EXISTS (SELECT 1 FROM ingest_defer) BEGIN
  INSERT OR REPLACE INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit)
  SELECT run_id, benchmark_id, block, variant_id, sum(total) / sum(n), sum(n), min(unit)
  FROM series
  WHERE run_id = new.run_id AND benchmark_id = new.benchmark_id AND block = new.block
    AND variant_id = new.variant_id AND metric = 'primary'
  GROUP BY run_id, benchmark_id, block, variant_id;
END;
