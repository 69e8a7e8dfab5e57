-- benchdb schema on PostgreSQL, version 6 (migrations/0006_history.sql on
-- SQLite): histories. history_point_data holds one row per (run, cell,
-- variant, metric) with what ordering needs (the host, the start time
-- normalised to UTC as SQLite's strftime gives it, the position), kept at
-- ingest by triggers on series and run with SQLite's rules; the view
-- history_point adds names, the run's revision and its score.

-- SQLite's strftime('%Y-%m-%dT%H:%M:%fZ', t) for the start times benchdb
-- stores (docs/postgresql.md): t as SQLite reads a date and time
-- (YYYY-MM-DD, then optionally 'T's or spaces and HH:MM[:SS[.fraction]],
-- then optionally Z or +-HH:MM with at most 14 hours, spaces around it),
-- NULL for anything else. Without an offset the fields are printed as
-- given, seconds rounded half up to milliseconds (at most 59.999); with
-- one, through SQLite's Julian-day milliseconds and back, with its
-- floating-point steps (PostgreSQL's float8 is the same IEEE double).
-- The forms SQLite also reads that are no date-time of RFC 3339, which
-- benchdb never stores (a time alone, a Julian day number, 'now'), give
-- NULL here.
CREATE FUNCTION benchdb_started(t TEXT) RETURNS TEXT
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  m TEXT[];
  y BIGINT; mo BIGINT; d BIGINT; h BIGINT := 0; mi BIGINT := 0; sec BIGINT := 0;
  frac TEXT := ''; tz BIGINT := 0;
  f DOUBLE PRECISION := 0; scale DOUBLE PRECISION := 1; s DOUBLE PRECISION;
  yy BIGINT; mm BIGINT; a BIGINT; b BIGINT; jd BIGINT; ms BIGINT;
  z BIGINT; c BIGINT; e BIGINT; x1 BIGINT; dd BIGINT;
  i INT;
BEGIN
  m := regexp_match(t, '^(-?)([0-9]{4})-([0-9]{2})-([0-9]{2})[ \t\n\v\f\rT]*(?:([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]+))?)?(?:[ \t\n\v\f\r]*(?:([Zz])|([+-])([0-9]{2}):([0-9]{2})))?[ \t\n\v\f\r]*)?$');
  IF m IS NULL THEN
    RETURN NULL;
  END IF;
  y := CAST(m[2] AS BIGINT); mo := CAST(m[3] AS BIGINT); d := CAST(m[4] AS BIGINT);
  IF m[1] = '-' THEN y := -y; END IF;
  IF mo < 1 OR mo > 12 OR d < 1 OR d > 31 THEN RETURN NULL; END IF;
  IF m[5] IS NOT NULL THEN
    h := CAST(m[5] AS BIGINT); mi := CAST(m[6] AS BIGINT);
    IF h > 24 OR mi > 59 THEN RETURN NULL; END IF;
    IF m[7] IS NOT NULL THEN
      sec := CAST(m[7] AS BIGINT);
      IF sec > 59 THEN RETURN NULL; END IF;
      frac := coalesce(m[8], '');
    END IF;
    IF m[10] IS NOT NULL THEN
      IF CAST(m[11] AS BIGINT) > 14 OR CAST(m[12] AS BIGINT) > 59 THEN RETURN NULL; END IF;
      tz := CAST(m[11] AS BIGINT) * 60 + CAST(m[12] AS BIGINT);
      IF m[10] = '-' THEN tz := -tz; END IF;
    END IF;
  END IF;
  -- The fraction as SQLite reads it: digit by digit, in doubles.
  FOR i IN 1 .. length(frac) LOOP
    f := f * 10 + CAST(substr(frac, i, 1) AS DOUBLE PRECISION);
    scale := scale * 10;
  END LOOP;
  s := CAST(sec AS DOUBLE PRECISION) + f / scale;
  -- Julian day in milliseconds (SQLite's computeJD, Meeus's algorithm).
  yy := y; mm := mo;
  IF mm <= 2 THEN yy := yy - 1; mm := mm + 12; END IF;
  a := yy / 100;
  b := 2 - a + a / 4;
  jd := trunc((CAST(36525 * (yy + 4716) / 100 AS DOUBLE PRECISION) + CAST(306001 * (mm + 1) / 10000 AS DOUBLE PRECISION)
               + CAST(d AS DOUBLE PRECISION) + CAST(b AS DOUBLE PRECISION) - 1524.5) * 86400000);
  jd := jd + h * 3600000 + mi * 60000 + CAST(trunc(s * 1000 + 0.5) AS BIGINT) - tz * 60000;
  IF jd < 0 OR jd > 464269060799999 THEN RETURN NULL; END IF;
  IF tz = 0 THEN
    -- The fields as given; seconds rounded half up to milliseconds.
    ms := floor(CAST(sec || '.' || frac || '0' AS NUMERIC) * 1000 + 0.5);
    IF ms > 59999 THEN ms := 59999; END IF;
    RETURN CASE WHEN y < 0 THEN '-' || lpad(CAST(-y AS TEXT), 3, '0') ELSE lpad(CAST(y AS TEXT), 4, '0') END
        || '-' || lpad(CAST(mo AS TEXT), 2, '0') || '-' || lpad(CAST(d AS TEXT), 2, '0')
        || 'T' || lpad(CAST(h AS TEXT), 2, '0') || ':' || lpad(CAST(mi AS TEXT), 2, '0') || ':'
        || lpad(CAST(ms / 1000 AS TEXT), 2, '0') || '.' || lpad(CAST(ms % 1000 AS TEXT), 3, '0') || 'Z';
  END IF;
  -- Back to the calendar (SQLite's computeYMD and computeHMS).
  z := (jd + 43200000) / 86400000;
  a := CAST(trunc((CAST(z AS DOUBLE PRECISION) - 1867216.25) / 36524.25) AS BIGINT);
  a := z + 1 + a - a / 4;
  b := a + 1524;
  c := CAST(trunc((CAST(b AS DOUBLE PRECISION) - CAST('122.1' AS DOUBLE PRECISION)) / 365.25) AS BIGINT);
  dd := (36525 * (c & 32767)) / 100;
  e := CAST(trunc(CAST(b - dd AS DOUBLE PRECISION) / CAST('30.6001' AS DOUBLE PRECISION)) AS BIGINT);
  x1 := CAST(trunc(CAST('30.6001' AS DOUBLE PRECISION) * e) AS BIGINT);
  d := b - dd - x1;
  mo := CASE WHEN e < 14 THEN e - 1 ELSE e - 13 END;
  y := CASE WHEN mo > 2 THEN c - 4716 ELSE c - 4715 END;
  ms := (jd + 43200000) % 86400000;
  RETURN CASE WHEN y < 0 THEN '-' || lpad(CAST(-y AS TEXT), 3, '0') ELSE lpad(CAST(y AS TEXT), 4, '0') END
      || '-' || lpad(CAST(mo AS TEXT), 2, '0') || '-' || lpad(CAST(d AS TEXT), 2, '0')
      || 'T' || lpad(CAST(ms / 3600000 AS TEXT), 2, '0') || ':' || lpad(CAST(ms / 60000 % 60 AS TEXT), 2, '0') || ':'
      || lpad(CAST(ms / 1000 % 60 AS TEXT), 2, '0') || '.' || lpad(CAST(ms % 1000 AS TEXT), 3, '0') || 'Z';
END $$;

-- Histories (docs/queries.md): one row per (run, cell, variant, metric),
-- kept by the triggers below, so that a history is read by an index.
-- started: started_at as UTC text 'YYYY-MM-DDTHH:MM:SS.sssZ' (strftime, so
-- milliseconds; an offset applied; 't'/'z' read as 'T'/'Z'; a leap second
-- :60 read as :59), which sorts as time; NULL when the run has none.
CREATE TABLE history_point_data (
  run_id       BIGINT NOT NULL,
  benchmark_id BIGINT NOT NULL,
  variant_id   BIGINT NOT NULL,
  metric       TEXT NOT NULL,
  host_id      BIGINT NOT NULL,
  started      TEXT,
  position     BIGINT,
  series       BIGINT NOT NULL CHECK (series >= 1),
  n            BIGINT NOT NULL,
  total        DOUBLE PRECISION NOT NULL,
  unit         TEXT NOT NULL,
  PRIMARY KEY (run_id, benchmark_id, variant_id, metric)
);
CREATE INDEX history_point_order ON history_point_data(host_id, benchmark_id, metric, variant_id, started, position);

-- started from a run's started_at, as SQLite's triggers compute it.
CREATE FUNCTION history_started(started_at TEXT) RETURNS TEXT
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT benchdb_started(CASE WHEN substr(started_at, 18, 2) = '60'
                              THEN upper(substr(started_at, 1, 17) || '59' || substr(started_at, 20))
                              ELSE upper(started_at) END)
$$;

-- The points of the series already stored, their totals summed in the
-- order the series were stored, as the trigger below adds them (one
-- statement cannot update a row twice on PostgreSQL, so each point is one
-- aggregate here).
INSERT INTO history_point_data(run_id, benchmark_id, variant_id, metric, host_id, started, position, series, n,
                               total, unit)
SELECT s.run_id, s.benchmark_id, s.variant_id, s.metric, min(r.host_id), history_started(min(r.started_at)),
       min(r.position), count(*), sum(s.n), sum(s.total ORDER BY s.id), (array_agg(s.unit ORDER BY s.id))[1]
FROM series AS s JOIN run AS r ON r.id = s.run_id
GROUP BY s.run_id, s.benchmark_id, s.variant_id, s.metric;

-- A series adds to its point (creating it): its count to n, its total to
-- total, so the point's total is the sum of its series' totals in the order
-- they were stored (an archive's order). A deleted one takes away, and the
-- point goes with its last series; an update is both.
CREATE FUNCTION history_add(s series) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO history_point_data(run_id, benchmark_id, variant_id, metric, host_id, started, position, series, n,
                                 total, unit)
  SELECT s.run_id, s.benchmark_id, s.variant_id, s.metric, r.host_id, history_started(r.started_at),
         r.position, 1, s.n, s.total, s.unit
  FROM run AS r WHERE r.id = s.run_id
  ON CONFLICT (run_id, benchmark_id, variant_id, metric)
  DO UPDATE SET series = history_point_data.series + 1, n = history_point_data.n + excluded.n,
                total = history_point_data.total + excluded.total;
END $$;

CREATE FUNCTION history_remove(s series) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM history_point_data
  WHERE run_id = s.run_id AND benchmark_id = s.benchmark_id AND variant_id = s.variant_id
    AND metric = s.metric AND series = 1;
  UPDATE history_point_data SET series = series - 1, n = n - s.n, total = total - s.total
  WHERE run_id = s.run_id AND benchmark_id = s.benchmark_id AND variant_id = s.variant_id
    AND metric = s.metric;
END $$;

CREATE FUNCTION series_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM history_remove(OLD);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM history_add(NEW);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER series_insert_history AFTER INSERT ON series
  FOR EACH ROW EXECUTE FUNCTION series_history();
CREATE TRIGGER series_delete_history AFTER DELETE ON series
  FOR EACH ROW EXECUTE FUNCTION series_history();
CREATE TRIGGER series_update_history AFTER UPDATE OF run_id, benchmark_id, variant_id, metric, n, total, unit ON series
  FOR EACH ROW EXECUTE FUNCTION series_history();

-- A run's host, start time or position may be set after its series (a
-- harness file that names them): its points follow.
CREATE FUNCTION run_update_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE history_point_data
  SET host_id = NEW.host_id, started = history_started(NEW.started_at), position = NEW.position
  WHERE run_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER run_update_history AFTER UPDATE OF host_id, started_at, position ON run
  FOR EACH ROW EXECUTE FUNCTION run_update_history();

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
