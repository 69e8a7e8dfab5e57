-- benchdb schema, version 12: an ingest keeps its runs' history points itself.
--
-- The insert trigger of history_point_data stands aside for the series of
-- the runs an ingest opens while its transaction is marked (a row of
-- ingest_defer, as the block scores' since version 8), and the ingest adds
-- each point's series up as it stores them, in their order, writing each
-- point once before the commit with the trigger's SELECT from run
-- (src/ingest/sink/history.c, src/store/dialect.c): the per-series
-- trigger was a fifth of an ingest's CPU and a third of its allocations.
-- Every other writer keeps the trigger; the stored rows are unchanged, to
-- the bit (a point's total is still its series' totals added left to
-- right in the order they were stored).

DROP TRIGGER series_insert_history;
CREATE TRIGGER series_insert_history AFTER INSERT ON series
WHEN new.archive_id IS NOT NULL OR NOT EXISTS (SELECT 1 FROM ingest_defer) BEGIN
  INSERT INTO history_point_data(run_id, benchmark_id, variant_id, metric, host_id, started, position, series, n,
                                 total, unit)
  SELECT new.run_id, new.benchmark_id, new.variant_id, new.metric, r.host_id,
         strftime('%Y-%m-%dT%H:%M:%fZ', CASE WHEN substr(r.started_at, 18, 2) = '60'
                                             THEN upper(substr(r.started_at, 1, 17) || '59' || substr(r.started_at, 20))
                                             ELSE upper(r.started_at) END),
         r.position, 1, new.n, new.total, new.unit
  FROM run AS r WHERE r.id = new.run_id
  ON CONFLICT (run_id, benchmark_id, variant_id, metric)
  DO UPDATE SET series = series + 1, n = n + excluded.n, total = total + excluded.total;
END;
