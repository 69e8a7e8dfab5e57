-- benchdb schema, version 14: a small archive's new series and their
-- values (at most 64 series) go in by one call of benchdb_series_values(),
-- sent in the pipeline with the archive's other statements and planned
-- once per session, instead of the series' ids, COPY series and COPY
-- sample_values (three round trips a flush). Larger archives keep the
-- COPYs. Rows, ids, triggers, checks and errors are those of version 13
-- (docs/postgresql.md, "ingest"; bench/pg-ingest.md, "tenth pass").

-- A small archive's new series and their values in one call (the
-- ingest's pipeline path, src/ingest/sink/series_call.c): a
-- series per position of the first eleven arrays (series' columns), its
-- values, counts and warmups the slices of vals, counts and warmups that
-- value_at/value_n, count_at/count_n and warmup_at/warmup_n give (n 0:
-- counts and warmups NULL). The ids come from series.id's sequence in the
-- order given (nextval after the order by position), as COPY took them.
-- One statement whose plan PL/pgSQL keeps for the session, sent in the
-- pipeline with the archive's other statements, instead of the ids'
-- statement and two COPYs (three round trips; as a statement of its own it
-- was planned per archive). The same triggers and checks as those COPYs.
CREATE FUNCTION benchdb_series_values(runs BIGINT[], benchmarks BIGINT[], blocks BIGINT[], variants BIGINT[],
                                      forks BIGINT[], units TEXT[], ns BIGINT[], totals DOUBLE PRECISION[],
                                      metrics TEXT[], members BIGINT[], details JSON[], value_at INTEGER[],
                                      value_n INTEGER[], count_at INTEGER[], count_n INTEGER[],
                                      warmup_at INTEGER[], warmup_n INTEGER[], vals DOUBLE PRECISION[],
                                      counts BIGINT[], warmups DOUBLE PRECISION[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  ids REGCLASS := pg_get_serial_sequence('series', 'id');
BEGIN
  WITH u AS (
    SELECT nextval(ids) AS id, x.*
    FROM unnest(runs, benchmarks, blocks, variants, forks, units, ns, totals, metrics, members, details,
                value_at, value_n, count_at, count_n, warmup_at, warmup_n) WITH ORDINALITY
      AS x(run_id, benchmark_id, block, variant_id, fork, unit, n, total, metric, member_id, detail,
           vo, vn, co, cn, wo, wn, ord)
    ORDER BY x.ord),
  s AS (
    INSERT INTO series(id, run_id, benchmark_id, block, variant_id, fork, unit, n, total, metric, member_id, detail)
    SELECT u.id, u.run_id, u.benchmark_id, u.block, u.variant_id, u.fork, u.unit, u.n, u.total, u.metric,
           u.member_id, u.detail
    FROM u)
  INSERT INTO sample_values(series_id, value, count, warmup)
  SELECT u.id, vals[u.vo + 1 : u.vo + u.vn],
         CASE WHEN u.cn > 0 THEN counts[u.co + 1 : u.co + u.cn] END,
         CASE WHEN u.wn > 0 THEN warmups[u.wo + 1 : u.wo + u.wn] END
  FROM u;
END $$;
