-- benchdb schema: histories. A history is the sequence of one cell's
-- scores (per metric and variant) on one host over runs ordered by start
-- time (docs/queries.md, "Histories"). history_point_data holds one row per
-- (run, cell, variant, metric) with what ordering needs (the host, the
-- start time normalised to UTC, the position), kept at ingest by triggers
-- on series and run, so that a query finds a run's previous runs in a
-- history by an index instead of scanning the store; the view
-- history_point adds names, the run's revision and its score.

-- started: started_at as UTC text 'YYYY-MM-DDTHH:MM:SS.sssZ' (strftime, so
-- milliseconds; an offset applied; 't'/'z' read as 'T'/'Z'; a leap second
-- :60 read as :59), which sorts as time; NULL when the run has none.
CREATE TABLE history_point_data (
  run_id       INTEGER NOT NULL,
  benchmark_id INTEGER NOT NULL,
  variant_id   INTEGER NOT NULL,
  metric       TEXT NOT NULL,
  host_id      INTEGER NOT NULL,
  started      TEXT,
  position     INTEGER,
  series       INTEGER NOT NULL CHECK (series >= 1),
  n            INTEGER NOT NULL,
  total        REAL NOT NULL,
  unit         TEXT NOT NULL,
  PRIMARY KEY (run_id, benchmark_id, variant_id, metric)
) WITHOUT ROWID;
CREATE INDEX history_point_order ON history_point_data(host_id, benchmark_id, metric, variant_id, started, position);

-- The points of the series already stored, added series by series in the
-- order they were stored, as the trigger below adds them.
INSERT INTO history_point_data(run_id, benchmark_id, variant_id, metric, host_id, started, position, series, n,
                               total, unit)
SELECT s.run_id, s.benchmark_id, s.variant_id, s.metric, r.host_id,
       strftime('%Y-%m-%dT%H:%M:%fZ', CASE WHEN substr(r.started_at, 18, 2) = '60'
                                           THEN upper(substr(r.started_at, 1, 17) || '59' || substr(r.started_at, 20))
                                           ELSE upper(r.started_at) END),
       r.position, 1, s.n, s.total, s.unit
FROM series AS s JOIN run AS r ON r.id = s.run_id
ORDER BY s.id
ON CONFLICT (run_id, benchmark_id, variant_id, metric)
DO UPDATE SET series = series + 1, n = n + excluded.n, total = total + excluded.total;

-- A series adds to its point (creating it): its count to n, its total to
-- total, so the point's total is the sum of its series' totals in the order
-- they were stored (an archive's order). A deleted one takes away, and the
-- point goes with its last series; an update is both.
CREATE TRIGGER series_insert_history AFTER INSERT ON series BEGIN
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

CREATE TRIGGER series_delete_history AFTER DELETE ON series BEGIN
  DELETE FROM history_point_data
  WHERE run_id = old.run_id AND benchmark_id = old.benchmark_id AND variant_id = old.variant_id
    AND metric = old.metric AND series = 1;
  UPDATE history_point_data SET series = series - 1, n = n - old.n, total = total - old.total
  WHERE run_id = old.run_id AND benchmark_id = old.benchmark_id AND variant_id = old.variant_id
    AND metric = old.metric;
END;

CREATE TRIGGER series_update_history AFTER UPDATE OF run_id, benchmark_id, variant_id, metric, n, total, unit ON series BEGIN
  DELETE FROM history_point_data
  WHERE run_id = old.run_id AND benchmark_id = old.benchmark_id AND variant_id = old.variant_id
    AND metric = old.metric AND series = 1;
  UPDATE history_point_data SET series = series - 1, n = n - old.n, total = total - old.total
  WHERE run_id = old.run_id AND benchmark_id = old.benchmark_id AND variant_id = old.variant_id
    AND metric = old.metric;
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

-- A run's host, start time or position may be set after its series (a
-- harness file that names them): its points follow.
CREATE TRIGGER run_update_history AFTER UPDATE OF host_id, started_at, position ON run BEGIN
  UPDATE history_point_data
  SET host_id = new.host_id,
      started = strftime('%Y-%m-%dT%H:%M:%fZ', CASE WHEN substr(new.started_at, 18, 2) = '60'
                                                   THEN upper(substr(new.started_at, 1, 17) || '59' || substr(new.started_at, 20))
                                                   ELSE upper(new.started_at) END),
      position = new.position
  WHERE run_id = new.id;
END;

-- Every history point with its run, plan, revision, start time and score
-- (the mean of the run's measured values of the cell, variant and metric,
-- over all blocks and forks: sum of the series' totals / sum of their
-- counts). Order a history by started NULLS LAST, position NULLS LAST,
-- plan, run (docs/queries.md).
CREATE VIEW history_point AS
SELECT h.host_id, ho.name AS host, h.benchmark_id, b.name AS benchmark, b.params, h.metric,
       h.variant_id, v.name AS variant, h.unit, u.direction,
       h.run_id, r.name AS run, p.name AS plan, h.position, r.source AS revision, r.started_at, h.started,
       h.n, h.total / h.n AS value
FROM history_point_data AS h
JOIN run AS r ON r.id = h.run_id
JOIN plan AS p ON p.id = r.plan_id
JOIN host AS ho ON ho.id = h.host_id
JOIN benchmark AS b ON b.id = h.benchmark_id
JOIN variant AS v ON v.id = h.variant_id
LEFT JOIN "unit" AS u ON u.name = h.unit;
