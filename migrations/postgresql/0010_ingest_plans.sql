-- benchdb schema, version 10: what an ingest runs on the server per archive
-- (series_insert_refs' check of the series' references,
-- benchdb_ingest_finish(), and the names' look-up again, now a function,
-- benchdb_names_again()) keeps one generic plan per statement for the
-- session instead of planning each statement again per archive, which was
-- most of their time on small archives (docs/postgresql.md, "ingest").
-- Their statements take the archive's run ids as an array, so that each
-- plan is the same index look-up whatever the ids: no plan depends on a
-- value. A run's start time in benchdb's own form is read without the
-- full pattern's captures (benchdb_started()) and without a PL/pgSQL call
-- (history_started()). Rows, checks and errors are those of version 9.

CREATE OR REPLACE FUNCTION series_refs_statement() RETURNS trigger LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
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

CREATE OR REPLACE FUNCTION benchdb_ingest_finish(archive BIGINT) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  opened BIGINT[];
  touched BIGINT[];
BEGIN
  SELECT array_agg(id) INTO opened FROM run WHERE archive_id = benchdb_ingest_finish.archive;
  IF opened IS NOT NULL THEN
    INSERT INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit)
    SELECT s.run_id, s.benchmark_id, s.block, s.variant_id, sum(s.total ORDER BY s.fork) / sum(s.n), sum(s.n),
           min(s.unit)
    FROM series AS s WHERE s.run_id = ANY (opened) AND s.archive_id IS NULL AND s.metric = 'primary'
    GROUP BY s.run_id, s.benchmark_id, s.block, s.variant_id;
    WITH r AS MATERIALIZED (SELECT id, host_id, position, history_started(started_at) AS started
                            FROM run WHERE id = ANY (opened))
    INSERT INTO history_point_data(run_id, benchmark_id, variant_id, metric, host_id, started, position, series, n,
                                   total, unit)
    SELECT s.run_id, s.benchmark_id, s.variant_id, s.metric, min(r.host_id), min(r.started), min(r.position),
           count(*), sum(s.n), sum(s.total ORDER BY s.id), (array_agg(s.unit ORDER BY s.id))[1]
    FROM series AS s JOIN r ON r.id = s.run_id
    WHERE s.run_id = ANY (opened) AND s.archive_id IS NULL GROUP BY s.run_id, s.benchmark_id, s.variant_id, s.metric;
  END IF;
  SELECT array_agg(DISTINCT run_id) INTO touched FROM series WHERE archive_id = benchdb_ingest_finish.archive;
  touched := coalesce(opened, '{}') || coalesce(touched, '{}');
  IF cardinality(touched) > 0 THEN
    DELETE FROM run_cell_data WHERE run_id = ANY (touched);
    INSERT INTO run_cell_data(run_id, benchmark_id, blocks, mean_log, sd_log, moments)
    SELECT run_id, benchmark_id, count(*), trimmed_mean(log_ratio, 0), stddev(log_ratio), moments(log_ratio)
    FROM block_ratio WHERE run_id = ANY (touched)
    GROUP BY run_id, benchmark_id;
  END IF;
  PERFORM set_config('benchdb.ingest_defer', '', true);
END $$;

-- benchdb_started() (history_started()), parsed once per run an archive opens:
-- benchdb's own form of a start time read without the full pattern's captures.
CREATE OR REPLACE FUNCTION benchdb_started(t TEXT) RETURNS TEXT
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
  IF t ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.][0-9]+)?Z$' THEN
    -- benchdb's own form: the fields where the pattern below captures
    -- them, without its captures (which cost PostgreSQL's regular
    -- expressions some 50 times more: 0.2 ms a start time).
    m := ARRAY['', substr(t, 1, 4), substr(t, 6, 2), substr(t, 9, 2), substr(t, 12, 2), substr(t, 15, 2),
               substr(t, 18, 2), CASE WHEN length(t) > 20 THEN substr(t, 21, length(t) - 21) END, 'Z', NULL, NULL, NULL];
  ELSE
    m := regexp_match(t, '^(-?)([0-9]{4})-([0-9]{2})-([0-9]{2})[ \t\n\v\f\rT]*(?:([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]+))?)?(?:[ \t\n\v\f\r]*(?:([Zz])|([+-])([0-9]{2}):([0-9]{2})))?[ \t\n\v\f\r]*)?$');
  END IF;
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

-- The names an ingest's last archive used (plans, hosts, variants,
-- benchmarks by name, as arrays), looked up again in the next archive's
-- transaction, each row locked FOR KEY SHARE as a look-up locks it
-- (src/ingest/sink/names.c): one call whose plans are kept for the
-- session, instead of a statement of four look-ups parsed and planned
-- per archive.
CREATE FUNCTION benchdb_names_again(plans TEXT[], hosts TEXT[], variants TEXT[], benchmarks TEXT[])
  RETURNS TABLE(kind INTEGER, row_id BIGINT, row_name TEXT, row_params TEXT) LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN QUERY SELECT 0, p.id, p.name, CAST(NULL AS TEXT) FROM plan AS p WHERE p.name = ANY (plans) FOR KEY SHARE;
  RETURN QUERY SELECT 1, h.id, h.name, CAST(NULL AS TEXT) FROM host AS h WHERE h.name = ANY (hosts) FOR KEY SHARE;
  RETURN QUERY SELECT 2, v.id, v.name, CAST(NULL AS TEXT) FROM variant AS v WHERE v.name = ANY (variants)
    FOR KEY SHARE;
  RETURN QUERY SELECT 3, b.id, b.name, b.params FROM benchmark AS b WHERE b.name = ANY (benchmarks) FOR KEY SHARE;
END $$;

-- history_started(): benchdb's own form of a start time without a PL/pgSQL call.
CREATE OR REPLACE FUNCTION history_started(started_at TEXT) RETURNS TEXT
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN started_at ~ '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:[.][0-9]{1,3})?Z$'
              THEN substr(started_at, 1, 19) || '.' || rpad(substr(started_at, 21, greatest(length(started_at) - 21, 0)), 3, '0')
                   || 'Z'
              ELSE benchdb_started(CASE WHEN substr(started_at, 18, 2) = '60'
                                        THEN upper(substr(started_at, 1, 17) || '59' || substr(started_at, 20))
                                        ELSE upper(started_at) END) END
$$;
